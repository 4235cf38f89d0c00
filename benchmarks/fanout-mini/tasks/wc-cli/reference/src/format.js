// The wc output table.

// @step pad-left {"effort": 2, "todo": "padLeft(text, width)"}
export function padLeft(text, width) {
  const s = String(text);
  return s.length >= width ? s : ' '.repeat(width - s.length) + s;
}
// @end

// @step format-rows {"effort": 5, "after": ["pad-left"], "todo": "formatRows(rows, fields): right-aligned columns of one shared width"}
export function formatRows(rows, fields) {
  let width = 1;
  for (const row of rows) for (const field of fields) width = Math.max(width, String(row.counts[field]).length);
  return rows.map((row) => {
    const cells = fields.map((field) => padLeft(row.counts[field], width)).join(' ');
    return row.name ? `${cells} ${row.name}` : cells;
  });
}
// @end
