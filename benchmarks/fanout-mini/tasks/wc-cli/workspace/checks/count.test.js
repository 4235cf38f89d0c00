import assert from 'node:assert/strict';
import test from 'node:test';
import * as count from '../src/count.js';

test('counts a small text', () => {
  const buf = Buffer.from('hello world\nbye\n');
  assert.deepEqual([count.countLines(buf), count.countWords(buf), count.countBytes(buf)], [2, 3, 16]);
});
