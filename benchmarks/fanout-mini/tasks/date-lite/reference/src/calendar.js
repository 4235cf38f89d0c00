// @step is-leap {"effort": 2, "todo": "isLeapYear(year)"}
export function isLeapYear(year) {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}
// @end

// @step days-in-month {"effort": 3, "after": ["is-leap"], "todo": "daysInMonth(year, month)"}
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

export function daysInMonth(year, month) {
  return month === 2 && isLeapYear(year) ? 29 : DAYS[month - 1];
}
// @end

// @step day-of-year {"effort": 4, "after": ["days-in-month"], "todo": "dayOfYear(date): 1-based"}
export function dayOfYear(date) {
  let day = date.getUTCDate();
  for (let m = 1; m < date.getUTCMonth() + 1; m++) day += daysInMonth(date.getUTCFullYear(), m);
  return day;
}
// @end
