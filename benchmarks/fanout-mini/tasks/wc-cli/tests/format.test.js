import assert from 'node:assert/strict';
import test from 'node:test';
import * as format from '../src/format.js';

test('padLeft', () => {
  assert.equal(format.padLeft(7, 3), '  7');
  assert.equal(format.padLeft('1234', 2), '1234');
});

test('formatRows uses one width for all columns', () => {
  const rows = [
    { name: 'a.txt', counts: { lines: 3, words: 120 } },
    { name: '', counts: { lines: 10, words: 5 } },
  ];
  assert.deepEqual(format.formatRows(rows, ['lines', 'words']), ['  3 120 a.txt', ' 10   5']);
});
