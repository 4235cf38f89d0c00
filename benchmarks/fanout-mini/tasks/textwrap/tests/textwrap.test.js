import assert from 'node:assert/strict';
import test from 'node:test';
import * as tw from '../src/textwrap.js';

test('wrap collapses white space', () => {
  assert.deepEqual(tw.wrap('  hello \n\t world  ', 20), ['hello world']);
});

test('wrap keeps every line within the width', () => {
  const text = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore';
  const lines = tw.wrap(text, 22);
  assert.ok(lines.every((line) => line.length <= 22));
  assert.equal(lines.join(' '), text);
  assert.deepEqual(lines.slice(0, 2), ['Lorem ipsum dolor sit', 'amet, consectetur']);
});

test('wrap of blank text is empty', () => {
  assert.deepEqual(tw.wrap('   ', 10), []);
});

test('wrap applies initial and subsequent indents', () => {
  assert.deepEqual(tw.wrap('one two three four five', 12, { initialIndent: '* ', subsequentIndent: '  ' }), ['* one two', '  three four', '  five']);
});

test('wrap breaks long words by default', () => {
  assert.deepEqual(tw.wrap('abcdefghij klm', 4), ['abcd', 'efgh', 'ij', 'klm']);
});

test('wrap keeps long words whole when asked', () => {
  assert.deepEqual(tw.wrap('a abcdefghij b', 4, { breakLongWords: false }), ['a', 'abcdefghij', 'b']);
});

test('fill joins with newlines', () => {
  assert.equal(tw.fill('aa bb cc dd', 5), 'aa bb\ncc dd');
});

test('shorten keeps text that fits', () => {
  assert.equal(tw.shorten('Hello   world', 20), 'Hello world');
});

test('shorten truncates at a word boundary with the placeholder', () => {
  assert.equal(tw.shorten('Hello world and more', 17), 'Hello world [...]');
  assert.equal(tw.shorten('Hello world', 8, '...'), 'Hello...');
});

test('shorten returns the bare placeholder when nothing fits', () => {
  assert.equal(tw.shorten('Supercalifragilistic word', 10), '[...]');
});

test('dedent ignores blank lines and normalises them', () => {
  assert.equal(tw.dedent('\n    a\n  \n    b\n'), '\na\n\nb\n');
});

test('dedent handles tabs and uneven margins', () => {
  assert.equal(tw.dedent('\t\tx\n\ty'), '\tx\ny');
  assert.equal(tw.dedent('  a\n\tb'), '  a\n\tb');
});

test('indent keeps line endings and accepts a predicate', () => {
  assert.equal(tw.indent('a\r\nb', '+'), '+a\r\n+b');
  assert.equal(tw.indent('a\n\nb', '# ', () => true), '# a\n# \n# b');
});
