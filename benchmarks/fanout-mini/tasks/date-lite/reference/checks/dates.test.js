import assert from 'node:assert/strict';
import test from 'node:test';
import * as arith from '../src/arith.js';
import * as format from '../src/format.js';
import * as parse from '../src/parse.js';

test('parseISO and format', () => {
  const d = parse.parseISO('2024-02-29T13:05:09Z');
  assert.equal(format.format(d, 'YYYY-MM-DD HH:mm:ss'), '2024-02-29 13:05:09');
});

test('addMonths clamps', () => {
  assert.equal(arith.addMonths(new Date(Date.UTC(2023, 0, 31)), 1).toISOString(), '2023-02-28T00:00:00.000Z');
});
