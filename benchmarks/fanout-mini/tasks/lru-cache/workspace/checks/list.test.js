import assert from 'node:assert/strict';
import test from 'node:test';
import * as list from '../src/list.js';

test('pushFront and popBack', () => {
  const l = new list.LinkedList();
  l.pushFront({ key: 1 });
  l.pushFront({ key: 2 });
  assert.equal(l.popBack().key, 1);
  assert.equal(l.size, 1);
});
