import * as arith from './arith.js';

// @step format-relative {"effort": 7, "after": ["difference-in-days"], "todo": "formatRelative(date, base)"}
export function formatRelative(date, base) {
  const days = arith.differenceInDays(date, base);
  if (days === 0) return 'today';
  if (days === 1) return 'tomorrow';
  if (days === -1) return 'yesterday';
  const abs = Math.abs(days);
  let text;
  if (abs <= 6) text = `${abs} days`;
  else {
    const weeks = Math.round(abs / 7);
    text = weeks === 1 ? '1 week' : `${weeks} weeks`;
  }
  return days > 0 ? `in ${text}` : `${text} ago`;
}
// @end
