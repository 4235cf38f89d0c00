// RFC 4180 CSV writing.

// @step needs-quotes {"effort": 2, "todo": "needsQuotes(field, delimiter)"}
export function needsQuotes(field, delimiter = ',') {
  return field.includes(delimiter) || /["\r\n]/.test(field) || field.trim() !== field;
}
// @end

// @step quote-field {"effort": 3, "after": ["needs-quotes"], "todo": "quoteField(value, delimiter)"}
export function quoteField(value, delimiter = ',') {
  if (value === null || value === undefined) return '';
  const s = String(value);
  return needsQuotes(s, delimiter) ? `"${s.replaceAll('"', '""')}"` : s;
}
// @end

// @step stringify-rows {"effort": 3, "after": ["quote-field"], "todo": "stringifyRows(rows, { delimiter, eol })"}
export function stringifyRows(rows, { delimiter = ',', eol = '\r\n' } = {}) {
  return rows.map((row) => row.map((value) => quoteField(value, delimiter)).join(delimiter) + eol).join('');
}
// @end

// @step stringify-records {"effort": 4, "after": ["stringify-rows"], "todo": "stringifyRecords(records, { columns, delimiter, eol })"}
export function stringifyRecords(records, { columns, delimiter = ',', eol = '\r\n' } = {}) {
  let names = columns;
  if (!names) {
    const seen = new Set();
    for (const record of records) for (const key of Object.keys(record)) seen.add(key);
    names = [...seen];
  }
  return stringifyRows([names, ...records.map((record) => names.map((name) => record[name]))], { delimiter, eol });
}
// @end
