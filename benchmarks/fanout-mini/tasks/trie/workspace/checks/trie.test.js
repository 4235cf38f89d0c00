import assert from 'node:assert/strict';
import test from 'node:test';
import * as trie from '../src/trie.js';

test('set, get and has', () => {
  const t = new trie.Trie().set('car', 1).set('cart', 2);
  assert.equal(t.get('cart'), 2);
  assert.equal(t.has('ca'), false);
});
