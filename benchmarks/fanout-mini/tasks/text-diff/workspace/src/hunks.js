import * as diff from './diff.js';
import * as lines from './lines.js';

// @step make-hunks
// TODO: makeHunks(ops, context): changes grouped with context
// @end

// @step format-unified
// TODO: formatUnified(aText, bText, options): the unified diff text
// @end
