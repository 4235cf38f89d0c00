import * as arith from './arith.js';

// @step format-relative
// TODO: formatRelative(date, base)
// @end
