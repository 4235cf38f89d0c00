// Value reading and writing for INI files.

// @step unquote
// TODO: unquote(text): strip quotes and decode escapes
// @end

// @step coerce
// TODO: coerce(text): booleans, numbers, strings
// @end

// @step quote
// TODO: quote(value): a value as written by stringify
// @end
