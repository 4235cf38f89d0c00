import assert from 'node:assert/strict';
import test from 'node:test';
import * as tw from '../src/textwrap.js';

test('wrap fills lines greedily', () => {
  assert.deepEqual(tw.wrap('The quick brown fox jumps over the lazy dog', 15), ['The quick brown', 'fox jumps over', 'the lazy dog']);
});

test('dedent removes the common margin', () => {
  assert.equal(tw.dedent('    a\n      b\n    c'), 'a\n  b\nc');
});

test('indent prefixes non-blank lines', () => {
  assert.equal(tw.indent('a\n\nb\n', '> '), '> a\n\n> b\n');
});
