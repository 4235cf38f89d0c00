// INI: parse to nested objects, stringify back.
import * as values from './values.js';

// @step parse-line {"effort": 5, "todo": "parseLine(line): classify one line"}
export function parseLine(line) {
  const s = line.trim();
  if (s === '') return { type: 'blank' };
  if (s[0] === ';' || s[0] === '#') return { type: 'comment' };
  if (s[0] === '[') {
    if (s[s.length - 1] !== ']' || s.length < 3) throw new SyntaxError(`bad section header: ${s}`);
    return { type: 'section', name: s.slice(1, -1).trim() };
  }
  const eq = s.indexOf('=');
  if (eq <= 0) throw new SyntaxError(`expected key = value: ${s}`);
  return { type: 'pair', key: s.slice(0, eq).trim(), value: s.slice(eq + 1) };
}
// @end

// @step set-path {"effort": 3, "todo": "setPath(root, dotted): the object at a dotted path, created as needed"}
export function setPath(root, dotted) {
  let node = root;
  for (const part of dotted.split('.').map((p) => p.trim())) {
    if (node[part] === undefined || node[part] === null || typeof node[part] !== 'object' || Array.isArray(node[part])) node[part] = {};
    node = node[part];
  }
  return node;
}
// @end

// @step parse {"effort": 6, "after": ["parse-line", "set-path", "coerce"], "todo": "parse(text): an object of sections and values"}
export function parse(text) {
  const root = {};
  let target = root;
  const lines = String(text).split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    let entry;
    try {
      entry = parseLine(lines[i]);
    } catch (error) {
      throw new SyntaxError(`line ${i + 1}: ${error.message}`);
    }
    if (entry.type === 'section') target = setPath(root, entry.name);
    else if (entry.type === 'pair') {
      const value = values.coerce(entry.value);
      if (entry.key.endsWith('[]')) {
        const key = entry.key.slice(0, -2).trim();
        if (!Array.isArray(target[key])) target[key] = [];
        target[key].push(value);
      } else {
        target[entry.key] = value;
      }
    }
  }
  return root;
}
// @end

// @step stringify-section {"effort": 4, "after": ["quote"], "todo": "stringifySection(object): key = value lines"}
export function stringifySection(object) {
  const lines = [];
  for (const [key, value] of Object.entries(object)) {
    if (Array.isArray(value)) for (const item of value) lines.push(`${key}[] = ${values.quote(item)}`);
    else if (value === null || typeof value !== 'object') lines.push(`${key} = ${values.quote(value)}`);
  }
  return lines;
}
// @end

// @step stringify {"effort": 5, "after": ["stringify-section"], "todo": "stringify(object): root pairs then [sections]"}
export function stringify(object) {
  const blocks = [];
  const root = stringifySection(object);
  if (root.length > 0) blocks.push(root.join('\n'));
  const visit = (node, path) => {
    for (const [key, value] of Object.entries(node)) {
      if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
      const name = path === '' ? key : `${path}.${key}`;
      const lines = stringifySection(value);
      if (lines.length > 0) blocks.push([`[${name}]`, ...lines].join('\n'));
      visit(value, name);
    }
  };
  visit(object, '');
  return blocks.length === 0 ? '' : `${blocks.join('\n\n')}\n`;
}
// @end
