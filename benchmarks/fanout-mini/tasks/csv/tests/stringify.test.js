import assert from 'node:assert/strict';
import test from 'node:test';
import * as writer from '../src/stringify.js';

test('needsQuotes', () => {
  assert.equal(writer.needsQuotes('plain'), false);
  assert.equal(writer.needsQuotes('a,b'), true);
  assert.equal(writer.needsQuotes('a;b', ';'), true);
  assert.equal(writer.needsQuotes('a;b'), false);
  assert.equal(writer.needsQuotes(' lead'), true);
  assert.equal(writer.needsQuotes('two\nlines'), true);
});

test('quoteField', () => {
  assert.equal(writer.quoteField(null), '');
  assert.equal(writer.quoteField(undefined), '');
  assert.equal(writer.quoteField(12), '12');
  assert.equal(writer.quoteField('a"b'), '"a""b"');
  assert.equal(writer.quoteField('x,y'), '"x,y"');
});

test('stringifyRows', () => {
  assert.equal(writer.stringifyRows([['a', 'b,c'], [1, null]]), 'a,"b,c"\r\n1,\r\n');
  assert.equal(writer.stringifyRows([['a', 'b']], { delimiter: '\t', eol: '\n' }), 'a\tb\n');
  assert.equal(writer.stringifyRows([]), '');
});

test('stringifyRecords with derived and explicit columns', () => {
  const records = [{ a: 1, b: 'x' }, { b: 'y', c: true }];
  assert.equal(writer.stringifyRecords(records, { eol: '\n' }), 'a,b,c\n1,x,\n,y,true\n');
  assert.equal(writer.stringifyRecords(records, { columns: ['c', 'a'], eol: '\n' }), 'c,a\n,1\ntrue,\n');
});
