import * as lcs from './lcs.js';

// @step diff-lines {"effort": 8, "after": ["lcs-pairs", "split-lines"], "todo": "diffLines(a, b): kept, removed and added lines in order"}
export function diffLines(a, b) {
  const ops = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...lcs.lcsPairs(a, b), [a.length, b.length]]) {
    for (; i < pi; i++) ops.push({ op: '-', text: a[i] });
    for (; j < pj; j++) ops.push({ op: '+', text: b[j] });
    if (pi < a.length) ops.push({ op: ' ', text: a[pi] });
    i = pi + 1;
    j = pj + 1;
  }
  return ops;
}
// @end
