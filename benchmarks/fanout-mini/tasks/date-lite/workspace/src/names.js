// @step names
// TODO: monthName(month, short) and weekdayName(day, short)
// @end
