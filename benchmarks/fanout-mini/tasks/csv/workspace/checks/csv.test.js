import assert from 'node:assert/strict';
import test from 'node:test';
import * as reader from '../src/parse.js';
import * as writer from '../src/stringify.js';

test('parseRows handles quotes', () => {
  assert.deepEqual(reader.parseRows('a,"b,c"\n1,2\n'), [['a', 'b,c'], ['1', '2']]);
});

test('quoteField doubles quotes', () => {
  assert.equal(writer.quoteField('say "hi"'), '"say ""hi"""');
});
