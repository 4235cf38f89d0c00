import assert from 'node:assert/strict';
import test from 'node:test';
import * as lru from '../src/lru.js';

test('evicts the least recently used entry', () => {
  const cache = new lru.LRUCache(2);
  cache.set('a', 1).set('b', 2);
  cache.get('a');
  cache.set('c', 3);
  assert.deepEqual(cache.keys(), ['c', 'a']);
});
