import assert from 'node:assert/strict';
import test from 'node:test';
import * as lexer from '../src/lexer.js';
import * as parser from '../src/parser.js';

test('tokenize: kinds, positions and eof', () => {
  assert.deepEqual(lexer.tokenize("x1 >= .5e1 && 'a\\'b'"), [
    { type: 'ident', value: 'x1', pos: 0 },
    { type: 'op', value: '>=', pos: 3 },
    { type: 'num', value: 5, pos: 6 },
    { type: 'op', value: '&&', pos: 11 },
    { type: 'str', value: "a'b", pos: 14 },
    { type: 'eof', value: null, pos: 20 },
  ]);
});

test('tokenize: errors carry the position', () => {
  assert.throws(() => lexer.tokenize('1 + $'), /at 4/);
  assert.throws(() => lexer.tokenize("'open"), (e) => e instanceof SyntaxError && /at 0/.test(e.message));
});

const n = (value) => ({ type: 'num', value });
const v = (name) => ({ type: 'var', name });
const bin = (op, left, right) => ({ type: 'binary', op, left, right });

test('parse: left associativity and levels', () => {
  assert.deepEqual(parser.parse('1 - 2 - 3'), bin('-', bin('-', n(1), n(2)), n(3)));
  assert.deepEqual(parser.parse('a || b && c == d < e + f * g'), bin('||', v('a'), bin('&&', v('b'), bin('==', v('c'), bin('<', v('d'), bin('+', v('e'), bin('*', v('f'), v('g'))))))));
});

test('parse: power is right-associative and binds tighter than unary minus', () => {
  assert.deepEqual(parser.parse('2 ^ 3 ^ 2'), bin('^', n(2), bin('^', n(3), n(2))));
  assert.deepEqual(parser.parse('-2 ^ 2'), { type: 'unary', op: '-', arg: bin('^', n(2), n(2)) });
  assert.deepEqual(parser.parse('2 ^ -1'), bin('^', n(2), { type: 'unary', op: '-', arg: n(1) }));
});

test('parse: calls and parentheses', () => {
  assert.deepEqual(parser.parse('f()'), { type: 'call', name: 'f', args: [] });
  assert.deepEqual(parser.parse("g(1, 'x', (a))"), { type: 'call', name: 'g', args: [n(1), { type: 'str', value: 'x' }, v('a')] });
  assert.deepEqual(parser.parse('(1 + 2) * 3'), bin('*', bin('+', n(1), n(2)), n(3)));
});

test('parse: syntax errors', () => {
  for (const bad of ['1 +', '(1', 'f(1,', '1 2', ')', '']) assert.throws(() => parser.parse(bad), SyntaxError, bad);
});
