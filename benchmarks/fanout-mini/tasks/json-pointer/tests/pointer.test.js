import assert from 'node:assert/strict';
import test from 'node:test';
import * as jp from '../src/pointer.js';

const rfc = { foo: ['bar', 'baz'], '': 0, 'a/b': 1, 'c%d': 2, 'e^f': 3, 'g|h': 4, 'i\\j': 5, 'k"l': 6, ' ': 7, 'm~n': 8 };

test('escape and unescape are inverse, ~01 is ~1', () => {
  assert.equal(jp.escapeToken('a/b~c'), 'a~1b~0c');
  assert.equal(jp.unescapeToken('a~1b~0c'), 'a/b~c');
  assert.equal(jp.unescapeToken('~01'), '~1');
});

test('parse: empty pointer and errors', () => {
  assert.deepEqual(jp.parse(''), []);
  assert.deepEqual(jp.parse('/'), ['']);
  assert.throws(() => jp.parse('foo'), SyntaxError);
});

test('compile is the inverse of parse', () => {
  for (const p of ['', '/foo/0', '/a~1b', '/m~0n', '/', '/ ']) assert.equal(jp.compile(jp.parse(p)), p);
});

test('get: the RFC 6901 examples', () => {
  assert.equal(jp.get(rfc, ''), rfc);
  assert.deepEqual(jp.get(rfc, '/foo'), ['bar', 'baz']);
  assert.equal(jp.get(rfc, '/foo/0'), 'bar');
  assert.equal(jp.get(rfc, '/'), 0);
  assert.equal(jp.get(rfc, '/a~1b'), 1);
  assert.equal(jp.get(rfc, '/c%d'), 2);
  assert.equal(jp.get(rfc, '/ '), 7);
  assert.equal(jp.get(rfc, '/m~0n'), 8);
});

test('get: missing paths and bad indexes give undefined', () => {
  assert.equal(jp.get(rfc, '/nope'), undefined);
  assert.equal(jp.get(rfc, '/foo/2'), undefined);
  assert.equal(jp.get(rfc, '/foo/01'), undefined);
  assert.equal(jp.get(rfc, '/foo/-'), undefined);
  assert.equal(jp.get({ a: 1 }, '/a/b'), undefined);
  assert.equal(jp.get({}, '/toString'), undefined);
});

test('set: objects, nested creation and root', () => {
  const doc = { a: { b: 1 } };
  assert.equal(jp.set(doc, '/a/b', 2), doc);
  jp.set(doc, '/x/y/z', true);
  assert.deepEqual(doc, { a: { b: 2 }, x: { y: { z: true } } });
  assert.equal(jp.set(doc, '', 5), 5);
});

test('set: arrays append with - or the length, reject beyond', () => {
  const doc = { list: [1, 2] };
  jp.set(doc, '/list/-', 3);
  jp.set(doc, '/list/3', 4);
  jp.set(doc, '/list/0', 0);
  assert.deepEqual(doc.list, [0, 2, 3, 4]);
  assert.throws(() => jp.set(doc, '/list/9', 1), RangeError);
});

test('remove: objects and arrays', () => {
  const doc = { a: { b: 1, c: 2 }, list: ['x', 'y', 'z'] };
  assert.equal(jp.remove(doc, '/a/b'), 1);
  assert.equal(jp.remove(doc, '/list/1'), 'y');
  assert.deepEqual(doc, { a: { c: 2 }, list: ['x', 'z'] });
});

test('remove: absent targets', () => {
  const doc = { a: [1] };
  assert.equal(jp.remove(doc, '/b'), undefined);
  assert.equal(jp.remove(doc, '/a/5'), undefined);
  assert.equal(jp.remove(doc, '/b/c'), undefined);
  assert.deepEqual(doc, { a: [1] });
});
