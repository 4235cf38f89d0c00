// Semantic Versioning 2.0.0: parse, compare, sort, satisfies.

// @step parse
// TODO: parse(text): the parts of a version, or null when invalid
// @end

// @step compare-main
// TODO: compareMain(a, b): compare major, minor, patch
// @end

// @step compare-pre
// TODO: comparePre(a, b): prerelease precedence
// @end

// @step compare
// TODO: compare(a, b): -1, 0 or 1 for strings or parsed versions
// @end

// @step sort
// TODO: sort(list): a new ascending array
// @end

// @step satisfies
// TODO: satisfies(version, range): comparators, caret, tilde, prerelease rule
// @end
