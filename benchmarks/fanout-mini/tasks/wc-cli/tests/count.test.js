import assert from 'node:assert/strict';
import test from 'node:test';
import * as count from '../src/count.js';

const b = (s) => Buffer.from(s, 'utf8');

test('countLines counts newline characters', () => {
  assert.equal(count.countLines(b('')), 0);
  assert.equal(count.countLines(b('no newline')), 0);
  assert.equal(count.countLines(b('a\r\nb\n\n')), 3);
});

test('countWords splits on all white space', () => {
  assert.equal(count.countWords(b('')), 0);
  assert.equal(count.countWords(b('  one\ttwo\n\nthree\vfour\ffive\r')), 5);
  assert.equal(count.countWords(b('héllo wörld')), 2);
});

test('countChars counts code points, countBytes bytes', () => {
  assert.equal(count.countChars(b('héllo 😀')), 7);
  assert.equal(count.countBytes(b('héllo 😀')), 11);
});
