import * as lines from './lines.js';

// @step parse-patch {"effort": 10, "todo": "parsePatch(text): the hunks of a unified diff, counts checked"}
const HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

export function parsePatch(text) {
  const hunks = [];
  let current = null;
  for (const line of lines.splitLines(text)) {
    const m = HEADER.exec(line);
    if (m) {
      current = { aStart: Number(m[1]), aLines: Number(m[2] ?? 1), bStart: Number(m[3]), bLines: Number(m[4] ?? 1), lines: [] };
      hunks.push(current);
    } else if (current && (line[0] === ' ' || line[0] === '-' || line[0] === '+')) {
      current.lines.push(line);
    } else if (current && line === '') {
      current.lines.push(' ');
    }
  }
  for (const [n, h] of hunks.entries()) {
    const a = h.lines.filter((l) => l[0] !== '+').length;
    const b = h.lines.filter((l) => l[0] !== '-').length;
    if (a !== h.aLines || b !== h.bLines) throw new SyntaxError(`hunk ${n + 1}: line counts do not match its header`);
  }
  return hunks;
}
// @end

// @step apply-patch {"effort": 10, "after": ["parse-patch", "split-lines"], "todo": "applyPatch(text, patch): the patched text"}
export function applyPatch(text, patch) {
  const source = lines.splitLines(text);
  const out = [];
  let pos = 0;
  for (const [n, h] of parsePatch(patch).entries()) {
    const start = h.aLines > 0 ? h.aStart - 1 : h.aStart;
    if (start < pos || start > source.length) throw new Error(`hunk ${n + 1} does not apply`);
    while (pos < start) out.push(source[pos++]);
    for (const line of h.lines) {
      const body = line.slice(1);
      if (line[0] === '+') {
        out.push(body);
        continue;
      }
      if (source[pos] !== body) throw new Error(`hunk ${n + 1} does not apply`);
      if (line[0] === ' ') out.push(body);
      pos++;
    }
  }
  while (pos < source.length) out.push(source[pos++]);
  return out.map((line) => `${line}\n`).join('');
}
// @end
