// Counting functions on Buffers.

// @step count-lines
// TODO: countLines(buf): newline characters
// @end

// @step count-words
// TODO: countWords(buf): runs of non white space
// @end

// @step count-chars
// TODO: countChars(buf): Unicode code points of the decoded text
// @end

// @step count-bytes
// TODO: countBytes(buf)
// @end
