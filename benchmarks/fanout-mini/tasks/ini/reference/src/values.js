// Value reading and writing for INI files.

// @step unquote {"effort": 4, "todo": "unquote(text): strip quotes and decode escapes"}
const ESCAPES = { n: '\n', t: '\t', '"': '"', '\\': '\\' };

export function unquote(text) {
  const s = String(text).trim();
  if (s.length >= 2 && s[0] === '"' && s[s.length - 1] === '"') {
    return s.slice(1, -1).replace(/\\(.)/g, (whole, c) => ESCAPES[c] ?? whole);
  }
  if (s.length >= 2 && s[0] === "'" && s[s.length - 1] === "'") return s.slice(1, -1);
  return s;
}
// @end

// @step coerce {"effort": 3, "after": ["unquote"], "todo": "coerce(text): booleans, numbers, strings"}
const NUMBER = /^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/;

export function coerce(text) {
  const s = String(text).trim();
  if (s.length >= 2 && (s[0] === '"' || s[0] === "'") && s[s.length - 1] === s[0]) return unquote(s);
  if (/^true$/i.test(s)) return true;
  if (/^false$/i.test(s)) return false;
  if (NUMBER.test(s)) return Number(s);
  return s;
}
// @end

// @step quote {"effort": 4, "todo": "quote(value): a value as written by stringify"}
export function quote(value) {
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  const s = String(value);
  const plain =
    s !== '' &&
    s.trim() === s &&
    !/[";#=\\\n\r\t]/.test(s) &&
    !/^(true|false)$/i.test(s) &&
    !/^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?$/.test(s) &&
    !(s[0] === "'" && s[s.length - 1] === "'");
  if (plain) return s;
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\t/g, '\\t')}"`;
}
// @end
