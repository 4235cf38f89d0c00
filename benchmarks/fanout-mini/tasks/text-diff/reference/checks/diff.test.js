import assert from 'node:assert/strict';
import test from 'node:test';
import * as hunks from '../src/hunks.js';
import * as lcs from '../src/lcs.js';

test('lcsPairs finds a longest common subsequence', () => {
  assert.equal(lcs.lcsPairs(['a', 'b', 'c'], ['a', 'c']).length, 2);
});

test('formatUnified of a one-line change', () => {
  assert.equal(hunks.formatUnified('a\nb\nc\n', 'a\nB\nc\n'), '--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
});
