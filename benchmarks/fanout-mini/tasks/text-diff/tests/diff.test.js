import assert from 'node:assert/strict';
import test from 'node:test';
import * as diff from '../src/diff.js';
import * as lcs from '../src/lcs.js';
import * as lines from '../src/lines.js';

test('splitLines', () => {
  assert.deepEqual(lines.splitLines(''), []);
  assert.deepEqual(lines.splitLines('a\n'), ['a']);
  assert.deepEqual(lines.splitLines('a\nb'), ['a', 'b']);
  assert.deepEqual(lines.splitLines('\n\n'), ['', '']);
});

test('lcsTable', () => {
  const t = lcs.lcsTable(['a', 'b', 'c', 'b'], ['b', 'c', 'b']);
  assert.equal(t.length, 5);
  assert.equal(t[0].length, 4);
  assert.equal(t[0][0], 3);
  assert.equal(t[2][0], 2);
  assert.equal(t[4][0], 0);
});

test('lcsPairs walks from the start, preferring to advance in a', () => {
  assert.deepEqual(lcs.lcsPairs(['a', 'b', 'c', 'b'], ['b', 'c', 'b']), [[1, 0], [2, 1], [3, 2]]);
  assert.deepEqual(lcs.lcsPairs(['x', 'y'], ['y', 'x']), [[1, 0]]);
  assert.deepEqual(lcs.lcsPairs([], ['a']), []);
});

test('diffLines orders deletions before insertions', () => {
  assert.deepEqual(diff.diffLines(['a', 'b', 'c'], ['a', 'x', 'c', 'd']), [
    { op: ' ', text: 'a' },
    { op: '-', text: 'b' },
    { op: '+', text: 'x' },
    { op: ' ', text: 'c' },
    { op: '+', text: 'd' },
  ]);
  assert.deepEqual(diff.diffLines([], []), []);
  assert.deepEqual(diff.diffLines(['a'], []), [{ op: '-', text: 'a' }]);
});
