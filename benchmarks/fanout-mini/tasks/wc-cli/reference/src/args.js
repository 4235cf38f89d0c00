// Command-line parsing for wc-mini.

// @step parse-args {"effort": 6, "todo": "parseArgs(argv): { fields, files }, or an Error with invalidOption"}
const FLAGS = { l: 'lines', w: 'words', m: 'chars', c: 'bytes' };
const ORDER = ['lines', 'words', 'chars', 'bytes'];

export function parseArgs(argv) {
  const chosen = new Set();
  const files = [];
  let options = true;
  for (const arg of argv) {
    if (options && arg === '--') options = false;
    else if (options && arg.length > 1 && arg[0] === '-') {
      for (const letter of arg.slice(1)) {
        if (!FLAGS[letter]) {
          const error = new Error(`invalid option -- '${letter}'`);
          error.invalidOption = letter;
          throw error;
        }
        chosen.add(FLAGS[letter]);
      }
    } else files.push(arg);
  }
  const fields = chosen.size === 0 ? ['lines', 'words', 'bytes'] : ORDER.filter((f) => chosen.has(f));
  return { fields, files };
}
// @end
