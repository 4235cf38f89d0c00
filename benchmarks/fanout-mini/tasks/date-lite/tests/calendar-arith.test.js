import assert from 'node:assert/strict';
import test from 'node:test';
import * as arith from '../src/arith.js';
import * as calendar from '../src/calendar.js';

const utc = (y, m, d, h = 0, mi = 0) => new Date(Date.UTC(y, m - 1, d, h, mi));
const iso = (d) => d.toISOString();

test('isLeapYear', () => {
  assert.deepEqual([1900, 2000, 2023, 2024, 2100, 2400].map(calendar.isLeapYear), [false, true, false, true, false, true]);
});

test('daysInMonth', () => {
  assert.equal(calendar.daysInMonth(2023, 2), 28);
  assert.equal(calendar.daysInMonth(2024, 2), 29);
  assert.equal(calendar.daysInMonth(2024, 4), 30);
  assert.equal(calendar.daysInMonth(2024, 12), 31);
});

test('dayOfYear', () => {
  assert.equal(calendar.dayOfYear(utc(2023, 1, 1)), 1);
  assert.equal(calendar.dayOfYear(utc(2023, 3, 1)), 60);
  assert.equal(calendar.dayOfYear(utc(2024, 3, 1)), 61);
  assert.equal(calendar.dayOfYear(utc(2024, 12, 31, 23, 59)), 366);
});

test('addDays does not modify its argument', () => {
  const d = utc(2024, 2, 28, 10);
  assert.equal(iso(arith.addDays(d, 2)), '2024-03-01T10:00:00.000Z');
  assert.equal(iso(arith.addDays(d, -59)), '2023-12-31T10:00:00.000Z');
  assert.equal(iso(d), '2024-02-28T10:00:00.000Z');
});

test('addMonths clamps and crosses years', () => {
  assert.equal(iso(arith.addMonths(utc(2024, 1, 31, 8, 30), 1)), '2024-02-29T08:30:00.000Z');
  assert.equal(iso(arith.addMonths(utc(2024, 3, 31), -1)), '2024-02-29T00:00:00.000Z');
  assert.equal(iso(arith.addMonths(utc(2023, 11, 15), 3)), '2024-02-15T00:00:00.000Z');
  assert.equal(iso(arith.addMonths(utc(2023, 1, 15), -13)), '2021-12-15T00:00:00.000Z');
  assert.equal(iso(arith.addMonths(utc(2023, 5, 31), 12)), '2024-05-31T00:00:00.000Z');
});

test('differenceInDays ignores the time of day', () => {
  assert.equal(arith.differenceInDays(utc(2024, 3, 1, 0, 1), utc(2024, 2, 28, 23, 59)), 2);
  assert.equal(arith.differenceInDays(utc(2024, 1, 1), utc(2024, 12, 31)), -365);
  assert.equal(arith.differenceInDays(utc(2024, 5, 5, 23), utc(2024, 5, 5, 1)), 0);
});

test('startOfWeek', () => {
  const wed = utc(2024, 5, 15, 17, 45);
  assert.equal(iso(arith.startOfWeek(wed)), '2024-05-13T00:00:00.000Z');
  assert.equal(iso(arith.startOfWeek(wed, 0)), '2024-05-12T00:00:00.000Z');
  assert.equal(iso(arith.startOfWeek(utc(2024, 5, 13, 9))), '2024-05-13T00:00:00.000Z');
  assert.equal(iso(arith.startOfWeek(utc(2024, 5, 12))), '2024-05-06T00:00:00.000Z');
  assert.equal(iso(arith.startOfWeek(utc(2024, 1, 2), 3)), '2023-12-27T00:00:00.000Z');
});
