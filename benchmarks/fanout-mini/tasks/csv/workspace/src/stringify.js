// RFC 4180 CSV writing.

// @step needs-quotes
// TODO: needsQuotes(field, delimiter)
// @end

// @step quote-field
// TODO: quoteField(value, delimiter)
// @end

// @step stringify-rows
// TODO: stringifyRows(rows, { delimiter, eol })
// @end

// @step stringify-records
// TODO: stringifyRecords(records, { columns, delimiter, eol })
// @end
