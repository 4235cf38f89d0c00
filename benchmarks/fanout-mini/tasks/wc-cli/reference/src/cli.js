// wc-mini's main program, independent of the process for testing.
import * as args from './args.js';
import * as count from './count.js';
import * as format from './format.js';

// @step cli-run {"effort": 7, "after": ["parse-args", "format-rows", "count-lines", "count-words", "count-chars", "count-bytes"], "todo": "run(argv, io): { stdout, stderr, code }"}
const COUNTERS = { lines: count.countLines, words: count.countWords, chars: count.countChars, bytes: count.countBytes };

export function run(argv, io) {
  let parsed;
  try {
    parsed = args.parseArgs(argv);
  } catch (error) {
    return { stdout: '', stderr: `wc-mini: invalid option -- '${error.invalidOption}'\n`, code: 2 };
  }
  const { fields, files } = parsed;
  const names = files.length === 0 ? ['-'] : files;
  const rows = [];
  let stderr = '';
  let code = 0;
  for (const name of names) {
    let buf;
    try {
      buf = name === '-' ? io.stdin() : io.readFile(name);
    } catch {
      stderr += `wc-mini: ${name}: No such file or directory\n`;
      code = 1;
      continue;
    }
    const counts = {};
    for (const field of fields) counts[field] = COUNTERS[field](buf);
    rows.push({ name: name === '-' ? '' : name, counts });
  }
  if (names.length > 1) {
    const total = {};
    for (const field of fields) total[field] = rows.reduce((sum, row) => sum + row.counts[field], 0);
    rows.push({ name: 'total', counts: total });
  }
  const lines = format.formatRows(rows, fields);
  return { stdout: lines.length ? `${lines.join('\n')}\n` : '', stderr, code };
}
// @end
