// Port of Python's textwrap (wrap, fill, shorten, dedent, indent).

// @step split-words {"effort": 3, "todo": "splitWords(text): the words of text, white space runs collapsed"}
export function splitWords(text) {
  return String(text).split(/\s+/).filter((word) => word.length > 0);
}
// @end

// @step wrap {"effort": 7, "after": ["split-words"], "todo": "wrap(text, width, options): greedy line filling with indents and long-word breaking"}
export function wrap(text, width = 70, options = {}) {
  const { initialIndent = '', subsequentIndent = '', breakLongWords = true } = options;
  const words = splitWords(text);
  const lines = [];
  let line = null;
  const indentFor = () => (lines.length === 0 ? initialIndent : subsequentIndent);
  const room = () => width - (line === null ? indentFor().length : line.length);
  for (let word of words) {
    // Each pass places or cuts the word, so a word needs at most length + 1 passes.
    for (let pass = word.length + 1; pass > 0 && word.length > 0; pass--) {
      if (line === null) line = indentFor();
      const bare = line.length === indentFor().length;
      const need = bare ? word.length : word.length + 1;
      if (need <= room()) {
        line += bare ? word : ` ${word}`;
        word = '';
      } else if (!bare) {
        lines.push(line);
        line = null;
      } else if (breakLongWords && room() > 0) {
        const cut = room();
        line += word.slice(0, cut);
        word = word.slice(cut);
        lines.push(line);
        line = null;
      } else {
        line += word;
        word = '';
        lines.push(line);
        line = null;
      }
    }
  }
  if (line !== null) lines.push(line);
  return lines;
}
// @end

// @step fill {"effort": 2, "after": ["wrap"], "todo": "fill(text, width, options): wrap joined with newlines"}
export function fill(text, width = 70, options = {}) {
  return wrap(text, width, options).join('\n');
}
// @end

// @step shorten {"effort": 4, "after": ["split-words"], "todo": "shorten(text, width, placeholder): collapse and truncate at a word boundary"}
export function shorten(text, width, placeholder = ' [...]') {
  const words = splitWords(text);
  const whole = words.join(' ');
  if (whole.length <= width) return whole;
  let kept = '';
  for (const word of words) {
    const next = kept === '' ? word : `${kept} ${word}`;
    if (next.length + placeholder.length > width) break;
    kept = next;
  }
  return kept === '' ? placeholder.trimStart() : kept + placeholder;
}
// @end

// @step dedent {"effort": 5, "todo": "dedent(text): remove the common leading white space"}
export function dedent(text) {
  const lines = String(text).split('\n');
  let margin = null;
  for (const line of lines) {
    if (line.trim() === '') continue;
    const lead = line.match(/^[ \t]*/)[0];
    if (margin === null || lead.length < margin.length) {
      margin = margin === null || margin.startsWith(lead) ? lead : commonPrefix(margin, lead);
    } else if (!lead.startsWith(margin)) {
      margin = commonPrefix(margin, lead);
    }
  }
  const cut = margin === null ? 0 : margin.length;
  return lines.map((line) => (line.trim() === '' ? '' : line.slice(cut))).join('\n');
}

function commonPrefix(a, b) {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return a.slice(0, i);
}
// @end

// @step indent {"effort": 3, "todo": "indent(text, prefix, predicate): prefix the selected lines, keeping line endings"}
export function indent(text, prefix, predicate = (line) => line.trim() !== '') {
  const parts = String(text).split(/(?<=\n)/);
  return parts.map((line) => (predicate(line) ? prefix + line : line)).join('');
}
// @end
