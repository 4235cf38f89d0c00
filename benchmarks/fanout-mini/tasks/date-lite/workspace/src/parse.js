import * as calendar from './calendar.js';

// @step parse-iso
// TODO: parseISO(text): a Date, or RangeError
// @end
