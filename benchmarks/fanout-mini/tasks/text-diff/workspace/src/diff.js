import * as lcs from './lcs.js';

// @step diff-lines
// TODO: diffLines(a, b): kept, removed and added lines in order
// @end
