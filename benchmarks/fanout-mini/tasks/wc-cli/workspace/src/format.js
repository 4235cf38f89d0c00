// The wc output table.

// @step pad-left
// TODO: padLeft(text, width)
// @end

// @step format-rows
// TODO: formatRows(rows, fields): right-aligned columns of one shared width
// @end
