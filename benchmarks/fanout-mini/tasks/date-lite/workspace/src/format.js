import * as names from './names.js';

// @step pad
// TODO: pad(n, width): zero-padded
// @end

// @step format
// TODO: format(date, pattern): tokens and [literal] text
// @end
