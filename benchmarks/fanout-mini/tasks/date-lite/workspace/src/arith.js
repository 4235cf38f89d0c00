import * as calendar from './calendar.js';

const DAY_MS = 86_400_000;

// @step add-days
// TODO: addDays(date, n)
// @end

// @step add-months
// TODO: addMonths(date, n): clamp to the month's last day
// @end

// @step difference-in-days
// TODO: differenceInDays(a, b): calendar days from b to a
// @end

// @step start-of-week
// TODO: startOfWeek(date, weekStartsOn)
// @end
