import assert from 'node:assert/strict';
import test from 'node:test';
import * as functions from '../src/functions.js';
import * as parser from '../src/parser.js';

test('precedence', () => {
  assert.deepEqual(parser.parse('1 + 2 * x'), {
    type: 'binary',
    op: '+',
    left: { type: 'num', value: 1 },
    right: { type: 'binary', op: '*', left: { type: 'num', value: 2 }, right: { type: 'var', name: 'x' } },
  });
});

test('calculate', () => {
  assert.equal(functions.calculate('max(1, x) * 2', { x: 4 }), 8);
});
