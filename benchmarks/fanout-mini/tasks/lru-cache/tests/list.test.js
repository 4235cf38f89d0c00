import assert from 'node:assert/strict';
import test from 'node:test';
import * as list from '../src/list.js';

const keys = (l) => [...l].map((n) => n.key);

test('an empty list', () => {
  const l = new list.LinkedList();
  assert.equal(l.size, 0);
  assert.equal(l.popBack(), null);
  assert.deepEqual(keys(l), []);
});

test('pushFront orders most recent first', () => {
  const l = new list.LinkedList();
  for (const key of [1, 2, 3]) l.pushFront({ key });
  assert.deepEqual(keys(l), [3, 2, 1]);
  assert.equal(l.size, 3);
});

test('remove from the middle, the head and the tail', () => {
  const l = new list.LinkedList();
  const nodes = [1, 2, 3, 4].map((key) => l.pushFront({ key }));
  l.remove(nodes[1]);
  assert.deepEqual(keys(l), [4, 3, 1]);
  l.remove(nodes[3]);
  l.remove(nodes[0]);
  assert.deepEqual(keys(l), [3]);
  assert.equal(l.popBack().key, 3);
  assert.equal(l.size, 0);
  assert.equal(l.popBack(), null);
});
