import * as calendar from './calendar.js';

// @step parse-iso {"effort": 10, "after": ["days-in-month"], "todo": "parseISO(text): a Date, or RangeError"}
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:\d{2})?$/;

export function parseISO(text) {
  const m = ISO.exec(text);
  if (!m) throw new RangeError(`invalid ISO date: ${text}`);
  const [year, month, day] = [1, 2, 3].map((i) => Number(m[i]));
  const hour = Number(m[4] ?? 0);
  const minute = Number(m[5] ?? 0);
  const second = Number(m[6] ?? 0);
  const ms = m[7] ? Number(m[7].padEnd(3, '0')) : 0;
  if (month < 1 || month > 12 || day < 1 || day > calendar.daysInMonth(year, month)) throw new RangeError(`invalid date: ${text}`);
  if (hour > 23 || minute > 59 || second > 59) throw new RangeError(`invalid time: ${text}`);
  let offset = 0;
  const zone = m[8];
  if (zone && zone !== 'Z') {
    const zh = Number(zone.slice(1, 3));
    const zm = Number(zone.slice(4, 6));
    if (zh > 23 || zm > 59) throw new RangeError(`invalid zone: ${text}`);
    offset = (zone[0] === '-' ? -1 : 1) * (zh * 60 + zm);
  }
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offset * 60_000);
}
// @end
