// @step is-leap
// TODO: isLeapYear(year)
// @end

// @step days-in-month
// TODO: daysInMonth(year, month)
// @end

// @step day-of-year
// TODO: dayOfYear(date): 1-based
// @end
