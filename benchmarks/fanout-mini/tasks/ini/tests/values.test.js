import assert from 'node:assert/strict';
import test from 'node:test';
import * as values from '../src/values.js';

test('unquote', () => {
  assert.equal(values.unquote('  plain  '), 'plain');
  assert.equal(values.unquote('"a \\"b\\" \\\\ \\n"'), 'a "b" \\ \n');
  assert.equal(values.unquote("'no \\n escapes'"), 'no \\n escapes');
  assert.equal(values.unquote('"'), '"');
});

test('coerce', () => {
  assert.equal(values.coerce(' -12 '), -12);
  assert.equal(values.coerce('3.5'), 3.5);
  assert.equal(values.coerce('1e3'), 1000);
  assert.equal(values.coerce('False'), false);
  assert.equal(values.coerce(''), '');
  assert.equal(values.coerce('"true"'), 'true');
  assert.equal(values.coerce('12abc'), '12abc');
  assert.equal(values.coerce('1.2.3'), '1.2.3');
});

test('quote', () => {
  assert.equal(values.quote('hello world'), 'hello world');
  assert.equal(values.quote(7), '7');
  assert.equal(values.quote(false), 'false');
  assert.equal(values.quote('7'), '"7"');
  assert.equal(values.quote('TRUE'), '"TRUE"');
  assert.equal(values.quote(''), '""');
  assert.equal(values.quote(' pad'), '" pad"');
  assert.equal(values.quote('a;b'), '"a;b"');
  assert.equal(values.quote('say "hi"\n'), '"say \\"hi\\"\\n"');
});
