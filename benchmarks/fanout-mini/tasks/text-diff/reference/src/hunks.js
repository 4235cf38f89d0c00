import * as diff from './diff.js';
import * as lines from './lines.js';

// @step make-hunks {"effort": 10, "after": ["diff-lines"], "todo": "makeHunks(ops, context): changes grouped with context"}
export function makeHunks(ops, context = 3) {
  const changed = [];
  ops.forEach((o, k) => {
    if (o.op !== ' ') changed.push(k);
  });
  const hunks = [];
  let k = 0;
  while (k < changed.length) {
    let end = changed[k];
    let next = k + 1;
    while (next < changed.length && changed[next] - end - 1 <= 2 * context) {
      end = changed[next];
      next++;
    }
    const from = Math.max(0, changed[k] - context);
    const to = Math.min(ops.length - 1, end + context);
    let aBefore = 0;
    let bBefore = 0;
    for (let x = 0; x < from; x++) {
      if (ops[x].op !== '+') aBefore++;
      if (ops[x].op !== '-') bBefore++;
    }
    const slice = ops.slice(from, to + 1);
    const aLines = slice.filter((o) => o.op !== '+').length;
    const bLines = slice.filter((o) => o.op !== '-').length;
    hunks.push({
      aStart: aLines > 0 ? aBefore + 1 : aBefore,
      aLines,
      bStart: bLines > 0 ? bBefore + 1 : bBefore,
      bLines,
      lines: slice.map((o) => o.op + o.text),
    });
    k = next;
  }
  return hunks;
}
// @end

// @step format-unified {"effort": 7, "after": ["make-hunks"], "todo": "formatUnified(aText, bText, options): the unified diff text"}
export function formatUnified(aText, bText, { aName = 'a', bName = 'b', context = 3 } = {}) {
  const hunks = makeHunks(diff.diffLines(lines.splitLines(aText), lines.splitLines(bText)), context);
  if (hunks.length === 0) return '';
  let out = `--- ${aName}\n+++ ${bName}\n`;
  for (const h of hunks) {
    out += `@@ -${h.aStart},${h.aLines} +${h.bStart},${h.bLines} @@\n`;
    for (const line of h.lines) out += `${line}\n`;
  }
  return out;
}
// @end
