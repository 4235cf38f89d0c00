import * as calendar from './calendar.js';

const DAY_MS = 86_400_000;

// @step add-days {"effort": 3, "todo": "addDays(date, n)"}
export function addDays(date, n) {
  return new Date(date.getTime() + n * DAY_MS);
}
// @end

// @step add-months {"effort": 7, "after": ["days-in-month"], "todo": "addMonths(date, n): clamp to the month's last day"}
export function addMonths(date, n) {
  const total = date.getUTCFullYear() * 12 + date.getUTCMonth() + n;
  const year = Math.floor(total / 12);
  const month = total - year * 12;
  const day = Math.min(date.getUTCDate(), calendar.daysInMonth(year, month + 1));
  return new Date(Date.UTC(year, month, day, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()));
}
// @end

// @step difference-in-days {"effort": 4, "todo": "differenceInDays(a, b): calendar days from b to a"}
function midnight(date) {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

export function differenceInDays(a, b) {
  return Math.round((midnight(a) - midnight(b)) / DAY_MS);
}
// @end

// @step start-of-week {"effort": 4, "todo": "startOfWeek(date, weekStartsOn)"}
export function startOfWeek(date, weekStartsOn = 1) {
  const back = (date.getUTCDay() - weekStartsOn + 7) % 7;
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() - back));
}
// @end
