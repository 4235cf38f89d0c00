import assert from 'node:assert/strict';
import test from 'node:test';
import * as hunks from '../src/hunks.js';
import * as patch from '../src/patch.js';

const a = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);

test('makeHunks splits distant changes and merges close ones', () => {
  const ops = a.map((text) => ({ op: ' ', text }));
  ops[2] = { op: '-', text: 'line 3' };
  ops[15] = { op: '-', text: 'line 16' };
  const far = hunks.makeHunks(ops, 3);
  assert.equal(far.length, 2);
  assert.deepEqual(
    far.map((h) => [h.aStart, h.aLines, h.bStart, h.bLines]),
    [
      [1, 6, 1, 5],
      [13, 7, 12, 6],
    ],
  );
  assert.equal(hunks.makeHunks(ops, 7).length, 1);
});

test('makeHunks: empty sides', () => {
  const [h] = hunks.makeHunks([{ op: '+', text: 'new' }], 3);
  assert.deepEqual(h, { aStart: 0, aLines: 0, bStart: 1, bLines: 1, lines: ['+new'] });
});

test('formatUnified: names, no changes', () => {
  assert.equal(hunks.formatUnified('same\n', 'same'), '');
  const text = hunks.formatUnified('', 'x\n', { aName: 'old.txt', bName: 'new.txt' });
  assert.equal(text, '--- old.txt\n+++ new.txt\n@@ -0,0 +1,1 @@\n+x\n');
});

test('parsePatch reads hunks and checks counts', () => {
  const text = hunks.formatUnified('a\nb\nc\n', 'a\nc\nd\n');
  const parsed = patch.parsePatch(text);
  assert.equal(parsed.length, 1);
  assert.deepEqual(parsed[0].lines, [' a', '-b', ' c', '+d']);
  assert.throws(() => patch.parsePatch('@@ -1,2 +1,1 @@\n a\n'), SyntaxError);
  assert.deepEqual(patch.parsePatch('@@ -3 +3 @@\n-x\n+y\n')[0].aLines, 1);
});

test('applyPatch round trips', () => {
  const b = [...a];
  b.splice(2, 1, 'changed 3', 'inserted');
  b.splice(17, 2);
  b.push('tail');
  const before = `${a.join('\n')}\n`;
  const after = `${b.join('\n')}\n`;
  assert.equal(patch.applyPatch(before, hunks.formatUnified(before, after)), after);
  assert.equal(patch.applyPatch('', hunks.formatUnified('', 'x\ny\n')), 'x\ny\n');
  assert.equal(patch.applyPatch('p\nq\n', hunks.formatUnified('p\nq\n', '')), '');
});

test('applyPatch rejects a patch that does not match', () => {
  const text = hunks.formatUnified('a\nb\nc\n', 'a\nB\nc\n');
  assert.throws(() => patch.applyPatch('a\nz\nc\n', text), /hunk 1 does not apply/);
});
