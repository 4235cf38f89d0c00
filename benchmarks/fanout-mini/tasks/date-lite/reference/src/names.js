// @step names {"effort": 3, "todo": "monthName(month, short) and weekdayName(day, short)"}
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

export function monthName(month, short = false) {
  const name = MONTHS[month - 1];
  return short ? name.slice(0, 3) : name;
}

export function weekdayName(day, short = false) {
  const name = WEEKDAYS[day];
  return short ? name.slice(0, 3) : name;
}
// @end
