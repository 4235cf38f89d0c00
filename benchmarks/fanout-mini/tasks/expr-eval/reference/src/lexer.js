// @step tokenize {"effort": 10, "todo": "tokenize(text): numbers, strings, identifiers, operators, eof"}
const OPERATORS = ['||', '&&', '==', '!=', '<=', '>=', '<', '>', '+', '-', '*', '/', '%', '^', '!', '(', ')', ','];

export function tokenize(text) {
  const tokens = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    const number = /^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?/.exec(text.slice(i));
    if (number) {
      tokens.push({ type: 'num', value: Number(number[0]), pos: i });
      i += number[0].length;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i));
    if (ident) {
      tokens.push({ type: 'ident', value: ident[0], pos: i });
      i += ident[0].length;
      continue;
    }
    if (c === "'") {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new SyntaxError(`unterminated string at ${i}`);
        const d = text[j];
        if (d === "'") break;
        if (d === '\\' && j + 1 < text.length) {
          value += text[j + 1];
          j += 2;
        } else {
          value += d;
          j++;
        }
      }
      tokens.push({ type: 'str', value, pos: i });
      i = j + 1;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (!op) throw new SyntaxError(`unexpected character ${c} at ${i}`);
    tokens.push({ type: 'op', value: op, pos: i });
    i += op.length;
  }
  tokens.push({ type: 'eof', value: null, pos: text.length });
  return tokens;
}
// @end
