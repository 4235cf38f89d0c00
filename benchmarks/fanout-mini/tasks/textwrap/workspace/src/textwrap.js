// Port of Python's textwrap (wrap, fill, shorten, dedent, indent).

// @step split-words
// TODO: splitWords(text): the words of text, white space runs collapsed
// @end

// @step wrap
// TODO: wrap(text, width, options): greedy line filling with indents and long-word breaking
// @end

// @step fill
// TODO: fill(text, width, options): wrap joined with newlines
// @end

// @step shorten
// TODO: shorten(text, width, placeholder): collapse and truncate at a word boundary
// @end

// @step dedent
// TODO: dedent(text): remove the common leading white space
// @end

// @step indent
// TODO: indent(text, prefix, predicate): prefix the selected lines, keeping line endings
// @end
