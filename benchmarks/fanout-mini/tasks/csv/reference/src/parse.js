// RFC 4180 CSV reading.

// @step parse-rows {"effort": 9, "todo": "parseRows(text, { delimiter }): the quoted-field state machine"}
export function parseRows(text, { delimiter = ',' } = {}) {
  const rows = [];
  let row = [];
  let field = '';
  let i = 0;
  let atFieldStart = true;
  const endField = () => {
    row.push(field);
    field = '';
    atFieldStart = true;
  };
  const endRow = () => {
    endField();
    rows.push(row);
    row = [];
  };
  while (i < text.length) {
    const c = text[i];
    if (atFieldStart && c === '"') {
      i++;
      for (;;) {
        if (i >= text.length) throw new SyntaxError('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else {
          field += text[i];
          i++;
        }
      }
      const next = text[i];
      if (i < text.length && next !== delimiter && next !== '\n' && next !== '\r') throw new SyntaxError(`unexpected ${next} after a quoted field`);
      atFieldStart = false;
      continue;
    }
    atFieldStart = false;
    if (c === delimiter) {
      endField();
      i++;
    } else if (c === '\n' || (c === '\r' && text[i + 1] === '\n')) {
      endRow();
      i += c === '\r' ? 2 : 1;
    } else {
      field += c;
      i++;
    }
  }
  if (field !== '' || row.length > 0 || !atFieldStart) endRow();
  return rows;
}
// @end

// @step to-records {"effort": 3, "after": ["parse-rows"], "todo": "toRecords(rows): objects keyed by the header row"}
export function toRecords(rows) {
  if (rows.length === 0) return [];
  const [header, ...body] = rows;
  return body.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}
// @end

// @step parse {"effort": 4, "after": ["to-records"], "todo": "parse(text, options): rows or records, optional number typing"}
const NUMBER = /^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

function typed(value) {
  return NUMBER.test(value) ? Number(value) : value;
}

export function parse(text, { delimiter = ',', header = true, types = false } = {}) {
  let rows = parseRows(text, { delimiter });
  if (types) rows = rows.map((row, r) => (header && r === 0 ? row : row.map(typed)));
  return header ? toRecords(rows) : rows;
}
// @end
