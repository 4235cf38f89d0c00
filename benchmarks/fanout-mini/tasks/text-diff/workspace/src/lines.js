// @step split-lines
// TODO: splitLines(text): lines without terminators
// @end
