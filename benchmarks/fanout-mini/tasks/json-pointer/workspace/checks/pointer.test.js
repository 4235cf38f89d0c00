import assert from 'node:assert/strict';
import test from 'node:test';
import * as jp from '../src/pointer.js';

test('parse splits and unescapes', () => {
  assert.deepEqual(jp.parse('/a~1b/m~0n'), ['a/b', 'm~n']);
});

test('get follows objects and arrays', () => {
  assert.equal(jp.get({ foo: ['bar', 'baz'] }, '/foo/1'), 'baz');
});
