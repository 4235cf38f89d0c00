import * as names from './names.js';

// @step pad {"effort": 2, "todo": "pad(n, width): zero-padded"}
export function pad(n, width = 2) {
  return String(n).padStart(width, '0');
}
// @end

// @step format {"effort": 10, "after": ["pad", "names"], "todo": "format(date, pattern): tokens and [literal] text"}
const TOKENS = /\[([^\]]*)\]|YYYY|MMMM|MMM|MM|M|DD|D|dddd|ddd|HH|mm|ss|SSS/g;

export function format(date, pattern) {
  const month = date.getUTCMonth() + 1;
  const values = {
    YYYY: () => pad(date.getUTCFullYear(), 4),
    MMMM: () => names.monthName(month),
    MMM: () => names.monthName(month, true),
    MM: () => pad(month),
    M: () => String(month),
    DD: () => pad(date.getUTCDate()),
    D: () => String(date.getUTCDate()),
    dddd: () => names.weekdayName(date.getUTCDay()),
    ddd: () => names.weekdayName(date.getUTCDay(), true),
    HH: () => pad(date.getUTCHours()),
    mm: () => pad(date.getUTCMinutes()),
    ss: () => pad(date.getUTCSeconds()),
    SSS: () => pad(date.getUTCMilliseconds(), 3),
  };
  return pattern.replace(TOKENS, (token, literal) => (literal !== undefined ? literal : values[token]()));
}
// @end
