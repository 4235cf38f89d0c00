import assert from 'node:assert/strict';
import test from 'node:test';
import * as trie from '../src/trie.js';

function sample() {
  const t = new trie.Trie();
  for (const [i, w] of ['tea', 'ten', 'to', 'inn', 'in', 'i', 'tent'].entries()) t.set(w, i);
  return t;
}

test('size counts words, overwrites do not', () => {
  const t = sample();
  assert.equal(t.size, 7);
  t.set('tea', 99);
  assert.equal(t.size, 7);
  assert.equal(t.get('tea'), 99);
});

test('prefixes are not words; the empty word is allowed', () => {
  const t = sample();
  assert.equal(t.has('te'), false);
  assert.equal(t.get('te'), undefined);
  assert.equal(t.has(''), false);
  t.set('', 'root');
  assert.equal(t.get(''), 'root');
  assert.equal(t.size, 8);
});

test('delete prunes and keeps other words', () => {
  const t = sample();
  assert.equal(t.delete('te'), false);
  assert.equal(t.delete('tent'), true);
  assert.equal(t.delete('tent'), false);
  assert.equal(t.has('ten'), true);
  assert.equal(t.findNode('tent'), null);
  assert.equal(t.delete('ten'), true);
  assert.equal(t.findNode('ten'), null);
  assert.equal(t.has('tea'), true);
  assert.equal(t.size, 5);
});

test('keysWithPrefix is sorted', () => {
  const t = sample();
  assert.deepEqual(t.keysWithPrefix('te'), ['tea', 'ten', 'tent']);
  assert.deepEqual(t.keysWithPrefix(''), ['i', 'in', 'inn', 'tea', 'ten', 'tent', 'to']);
  assert.deepEqual(t.keysWithPrefix('x'), []);
});

test('longestPrefixOf', () => {
  const t = sample();
  assert.equal(t.longestPrefixOf('innkeeper'), 'inn');
  assert.equal(t.longestPrefixOf('tentacle'), 'tent');
  assert.equal(t.longestPrefixOf('team'), 'tea');
  assert.equal(t.longestPrefixOf('xyz'), undefined);
});

test('unicode code points', () => {
  const t = new trie.Trie().set('héllo', 1).set('h😀', 2);
  assert.deepEqual(t.keysWithPrefix('h'), ['héllo', 'h😀']);
  assert.equal(t.delete('h😀'), true);
  assert.deepEqual(t.keysWithPrefix('h'), ['héllo']);
});
