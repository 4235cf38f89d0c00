import assert from 'node:assert/strict';
import test from 'node:test';
import * as evaluate from '../src/evaluate.js';
import * as functions from '../src/functions.js';
import * as parser from '../src/parser.js';
import * as printer from '../src/printer.js';

const calc = (text, vars) => functions.calculate(text, vars);

test('print round trips', () => {
  for (const text of ['1 + 2 * 3 - x', "f(-(a + b), 'it\\'s \\\\', !c) ^ 2", '-2 ^ 2', '2 ^ -1', '--x', '(a || b) && !(c == d)']) {
    const ast = parser.parse(text);
    assert.deepEqual(parser.parse(printer.print(ast)), ast, text);
  }
  assert.equal(printer.print(parser.parse('1 + 2 * x')), '(1 + (2 * x))');
  assert.equal(printer.print(parser.parse('-(a + 1)')), '-((a + 1))');
});

test('arithmetic', () => {
  assert.equal(calc('1 + 2 * 3 - 4 / 2'), 5);
  assert.equal(calc('7 % 4 + 2 ^ 3 ^ 2'), 515);
  assert.equal(calc('-2 ^ 2'), -4);
  assert.equal(calc('x * (y - 1)', { x: 3, y: 5 }), 12);
});

test('strings, comparison and logic', () => {
  assert.equal(calc("'a' + 1 + 2"), 'a12');
  assert.equal(calc('1 + 2 + \'a\''), '3a');
  assert.equal(calc('1 == 1 && 2 != 3'), true);
  assert.equal(calc("1 == '1'"), false);
  assert.equal(calc('3 <= 2 || !0'), true);
  assert.equal(calc('0 || 5'), true);
  assert.equal(calc('0 && missing'), false);
});

test('errors', () => {
  assert.throws(() => calc('1 / 0'), RangeError);
  assert.throws(() => calc('1 % 0'), RangeError);
  assert.throws(() => calc('nope + 1'), (e) => e instanceof ReferenceError && /nope/.test(e.message));
  assert.throws(() => calc('nope(1)'), (e) => e instanceof ReferenceError && /nope/.test(e.message));
  assert.throws(() => evaluate.evaluate(parser.parse('f(1)')), ReferenceError);
});

test('evaluate with custom functions', () => {
  assert.equal(evaluate.evaluate(parser.parse('twice(x)'), { vars: { x: 4 }, functions: { twice: (a) => 2 * a } }), 8);
});

test('math functions', () => {
  assert.equal(calc('abs(-3) + min(4, 2, 8) + max(1, 9)'), 14);
  assert.equal(calc('round(2.345, 2)'), 2.35);
  assert.equal(calc('round(2.5)'), 3);
  assert.equal(calc('sqrt(16)'), 4);
});

test('string functions', () => {
  assert.equal(calc("len('hello') + len(123)"), 8);
  assert.equal(calc("upper('ab') + lower('CD')"), 'ABcd');
  assert.equal(calc("substr('abcdef', 1, 3)"), 'bcd');
  assert.equal(calc("substr('abcdef', 2)"), 'cdef');
  assert.equal(calc("concat('a', 1, 1 == 1)"), 'a1true');
});

test('conversion functions', () => {
  assert.equal(calc("num('12') + 1"), 13);
  assert.throws(() => calc("num('x')"), RangeError);
  assert.equal(calc('str(1) + str(2)'), '12');
  assert.equal(calc("bool('') || bool(0)"), false);
});
