const FRACTION = /\.(\d+)/;

/**
 * Epoch milliseconds of an ISO-8601 date-time, keeping sub-millisecond
 * digits (Date.parse would drop them, and two spans 0.4 ms apart would
 * become touching). NaN when the text is not a date-time.
 */
export function isoToEpochMs(text: string): number {
  const match = FRACTION.exec(text);
  if (!match) return Date.parse(text);
  const whole = Date.parse(text.replace(FRACTION, ''));
  return whole + Number(`0.${match[1]}`) * 1000;
}
