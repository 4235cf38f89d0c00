// @step split-lines {"effort": 3, "todo": "splitLines(text): lines without terminators"}
export function splitLines(text) {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
// @end
