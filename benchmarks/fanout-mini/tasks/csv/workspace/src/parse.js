// RFC 4180 CSV reading.

// @step parse-rows
// TODO: parseRows(text, { delimiter }): the quoted-field state machine
// @end

// @step to-records
// TODO: toRecords(rows): objects keyed by the header row
// @end

// @step parse
// TODO: parse(text, options): rows or records, optional number typing
// @end
