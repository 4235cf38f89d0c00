// @step tokenize
// TODO: tokenize(text): numbers, strings, identifiers, operators, eof
// @end
