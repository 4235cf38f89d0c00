import assert from 'node:assert/strict';
import test from 'node:test';
import * as values from '../src/values.js';

test('coerce', () => {
  assert.deepEqual(['42', 'TRUE', '"42"', 'hi'].map(values.coerce), [42, true, '42', 'hi']);
});
