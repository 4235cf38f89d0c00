// JSON Pointer (RFC 6901): parse, compile, get, set, remove.

// @step unescape-token
// TODO: unescapeToken(token): ~1 -> / then ~0 -> ~
// @end

// @step escape-token
// TODO: escapeToken(token): ~ -> ~0 then / -> ~1
// @end

// @step parse
// TODO: parse(pointer): tokens of a pointer; SyntaxError unless empty or starting with /
// @end

// @step compile
// TODO: compile(tokens): the pointer for a list of tokens
// @end

// @step get
// TODO: get(doc, pointer): the referenced value or undefined
// @end

// @step set
// TODO: set(doc, pointer, value): set in place, creating objects; '-' appends to arrays
// @end

// @step remove
// TODO: remove(doc, pointer): delete and return the referenced value
// @end
