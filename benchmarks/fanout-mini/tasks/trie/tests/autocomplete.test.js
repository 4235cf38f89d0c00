import assert from 'node:assert/strict';
import test from 'node:test';
import * as ac from '../src/autocomplete.js';

test('suggest ranks by weight then alphabetically', () => {
  const a = new ac.Autocomplete();
  a.add('apple', 3).add('apply', 5).add('ape').add('apex').add('banana', 10);
  assert.deepEqual(a.suggest('ap'), ['apply', 'apple', 'ape', 'apex']);
  assert.deepEqual(a.suggest('ap', 2), ['apply', 'apple']);
  assert.deepEqual(a.suggest('c'), []);
});

test('weights accumulate, case-insensitively', () => {
  const a = new ac.Autocomplete();
  a.add('Node', 2).add('node', 2).add('nope', 3);
  assert.deepEqual(a.suggest('NO'), ['node', 'nope']);
});
