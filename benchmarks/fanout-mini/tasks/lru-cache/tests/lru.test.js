import assert from 'node:assert/strict';
import test from 'node:test';
import * as lru from '../src/lru.js';

test('validates the capacity', () => {
  assert.throws(() => new lru.LRUCache(0), RangeError);
  assert.throws(() => new lru.LRUCache(2.5), RangeError);
});

test('get and set', () => {
  const cache = new lru.LRUCache(3);
  assert.equal(cache.set('a', 1), cache);
  assert.equal(cache.get('a'), 1);
  assert.equal(cache.get('missing'), undefined);
  assert.equal(cache.size, 1);
});

test('get refreshes recency; peek and has do not', () => {
  const cache = new lru.LRUCache(2);
  cache.set('a', 1).set('b', 2);
  assert.equal(cache.peek('a'), 1);
  assert.equal(cache.has('a'), true);
  cache.set('c', 3);
  assert.deepEqual(cache.keys(), ['c', 'b']);
  cache.get('b');
  cache.set('d', 4);
  assert.deepEqual(cache.keys(), ['d', 'b']);
});

test('overwriting refreshes and does not evict', () => {
  const evicted = [];
  const cache = new lru.LRUCache(2, { onEvict: (k, v) => evicted.push([k, v]) });
  cache.set('a', 1).set('b', 2).set('a', 10);
  assert.deepEqual(cache.entries(), [['a', 10], ['b', 2]]);
  cache.set('c', 3);
  assert.deepEqual(evicted, [['b', 2]]);
  assert.deepEqual(cache.keys(), ['c', 'a']);
});

test('delete', () => {
  const evicted = [];
  const cache = new lru.LRUCache(2, { onEvict: (k) => evicted.push(k) });
  cache.set('a', 1).set('b', 2);
  assert.equal(cache.delete('a'), true);
  assert.equal(cache.delete('a'), false);
  assert.equal(cache.size, 1);
  cache.set('c', 3).set('d', 4);
  assert.deepEqual(cache.keys(), ['d', 'c']);
  assert.deepEqual(evicted, ['b']);
});

test('resize evicts down to the new capacity', () => {
  const evicted = [];
  const cache = new lru.LRUCache(4, { onEvict: (k) => evicted.push(k) });
  for (const k of ['a', 'b', 'c', 'd']) cache.set(k, k);
  cache.resize(2);
  assert.deepEqual(evicted, ['a', 'b']);
  assert.deepEqual(cache.keys(), ['d', 'c']);
  cache.resize(3);
  cache.set('e', 'e');
  assert.equal(cache.size, 3);
  assert.throws(() => cache.resize(0), RangeError);
});

test('a capacity of one', () => {
  const cache = new lru.LRUCache(1);
  cache.set('a', 1).set('b', 2);
  assert.equal(cache.get('a'), undefined);
  assert.equal(cache.get('b'), 2);
});
