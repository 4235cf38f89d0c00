import * as lines from './lines.js';

// @step parse-patch
// TODO: parsePatch(text): the hunks of a unified diff, counts checked
// @end

// @step apply-patch
// TODO: applyPatch(text, patch): the patched text
// @end
