import assert from 'node:assert/strict';
import test from 'node:test';
import * as format from '../src/format.js';
import * as names from '../src/names.js';
import * as parse from '../src/parse.js';
import * as relative from '../src/relative.js';

const utc = (y, m, d, h = 0, mi = 0, s = 0, ms = 0) => new Date(Date.UTC(y, m - 1, d, h, mi, s, ms));

test('names', () => {
  assert.equal(names.monthName(1), 'January');
  assert.equal(names.monthName(9, true), 'Sep');
  assert.equal(names.weekdayName(0), 'Sunday');
  assert.equal(names.weekdayName(4, true), 'Thu');
});

test('pad', () => {
  assert.equal(format.pad(5), '05');
  assert.equal(format.pad(5, 3), '005');
  assert.equal(format.pad(123, 2), '123');
});

test('format tokens', () => {
  const d = utc(2024, 3, 7, 9, 4, 5, 42);
  assert.equal(format.format(d, 'YYYY-MM-DDTHH:mm:ss.SSS'), '2024-03-07T09:04:05.042');
  assert.equal(format.format(d, 'dddd D MMMM YYYY'), 'Thursday 7 March 2024');
  assert.equal(format.format(d, 'ddd, MMM D'), 'Thu, Mar 7');
  assert.equal(format.format(d, 'M/D'), '3/7');
});

test('format literals', () => {
  assert.equal(format.format(utc(2024, 12, 25), '[Day] D [of] MMMM'), 'Day 25 of December');
  assert.equal(format.format(utc(2024, 12, 25), '[YYYY] YYYY'), 'YYYY 2024');
});

test('parseISO: forms and zones', () => {
  assert.equal(parse.parseISO('2024-02-29').toISOString(), '2024-02-29T00:00:00.000Z');
  assert.equal(parse.parseISO('2024-02-29T13:05').toISOString(), '2024-02-29T13:05:00.000Z');
  assert.equal(parse.parseISO('2024-02-29T13:05:09.5').toISOString(), '2024-02-29T13:05:09.500Z');
  assert.equal(parse.parseISO('2024-03-01T01:30:00+02:00').toISOString(), '2024-02-29T23:30:00.000Z');
  assert.equal(parse.parseISO('2024-12-31T23:00:00-01:30').toISOString(), '2025-01-01T00:30:00.000Z');
});

test('parseISO: invalid texts', () => {
  for (const bad of ['2024-13-01', '2023-02-29', '2024-04-31', '2024-01-00', '2024-01-01T24:00', '2024-01-01T10:60', '2024-1-1', '2024-01-01T10', 'yesterday', '2024-01-01T10:00:00.1234']) {
    assert.throws(() => parse.parseISO(bad), RangeError, bad);
  }
});

test('formatRelative', () => {
  const base = utc(2024, 5, 15, 12);
  const at = (days, h = 0) => utc(2024, 5, 15 + days, h);
  assert.equal(relative.formatRelative(at(0, 23), base), 'today');
  assert.equal(relative.formatRelative(at(1), base), 'tomorrow');
  assert.equal(relative.formatRelative(at(-1, 23), base), 'yesterday');
  assert.equal(relative.formatRelative(at(6), base), 'in 6 days');
  assert.equal(relative.formatRelative(at(-2), base), '2 days ago');
  assert.equal(relative.formatRelative(at(7), base), 'in 1 week');
  assert.equal(relative.formatRelative(at(-10), base), '1 week ago');
  assert.equal(relative.formatRelative(at(-11), base), '2 weeks ago');
  assert.equal(relative.formatRelative(at(30), base), 'in 4 weeks');
});
