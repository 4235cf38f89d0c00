import assert from 'node:assert/strict';
import test from 'node:test';
import * as reader from '../src/parse.js';

test('empty text and a final newline', () => {
  assert.deepEqual(reader.parseRows(''), []);
  assert.deepEqual(reader.parseRows('a,b\n'), [['a', 'b']]);
  assert.deepEqual(reader.parseRows('a,b'), [['a', 'b']]);
});

test('empty fields and CRLF', () => {
  assert.deepEqual(reader.parseRows(',a,\r\nb,,\r\n'), [['', 'a', ''], ['b', '', '']]);
  assert.deepEqual(reader.parseRows('a\n\nb'), [['a'], [''], ['b']]);
});

test('quoted fields with delimiters, newlines and escaped quotes', () => {
  assert.deepEqual(reader.parseRows('"a,1","line\r\nbreak","say ""hi"""\n'), [['a,1', 'line\r\nbreak', 'say "hi"']]);
  assert.deepEqual(reader.parseRows('"",x'), [['', 'x']]);
  assert.deepEqual(reader.parseRows('ab"c,d'), [['ab"c', 'd']]);
});

test('errors', () => {
  assert.throws(() => reader.parseRows('"open,b'), SyntaxError);
  assert.throws(() => reader.parseRows('"a"b,c'), SyntaxError);
});

test('a custom delimiter', () => {
  assert.deepEqual(reader.parseRows('a;"b;c";d', { delimiter: ';' }), [['a', 'b;c', 'd']]);
});

test('toRecords pads and truncates', () => {
  assert.deepEqual(reader.toRecords([['x', 'y'], ['1'], ['2', '3', '4']]), [{ x: '1', y: '' }, { x: '2', y: '3' }]);
  assert.deepEqual(reader.toRecords([]), []);
});

test('parse with header and types', () => {
  const text = 'name,age,score\nann,31,-2.5\nbob,,+3\n';
  assert.deepEqual(reader.parse(text), [{ name: 'ann', age: '31', score: '-2.5' }, { name: 'bob', age: '', score: '+3' }]);
  assert.deepEqual(reader.parse(text, { types: true }), [{ name: 'ann', age: 31, score: -2.5 }, { name: 'bob', age: '', score: '+3' }]);
  assert.deepEqual(reader.parse('1,x\n2,y', { header: false, types: true }), [[1, 'x'], [2, 'y']]);
});
