// Semantic Versioning 2.0.0: parse, compare, sort, satisfies.

// @step parse {"effort": 4, "todo": "parse(text): the parts of a version, or null when invalid"}
const NUM = '(0|[1-9][0-9]*)';
const IDENT = '[0-9A-Za-z-]+';
const VERSION = new RegExp(`^v?${NUM}\\.${NUM}\\.${NUM}(?:-(${IDENT}(?:\\.${IDENT})*))?(?:\\+(${IDENT}(?:\\.${IDENT})*))?$`);

export function parse(text) {
  const match = VERSION.exec(String(text).trim());
  if (!match) return null;
  const prerelease = match[4] ? match[4].split('.') : [];
  for (const id of prerelease) if (/^0[0-9]+$/.test(id)) return null;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease: prerelease.map((id) => (/^[0-9]+$/.test(id) ? Number(id) : id)),
    build: match[5] ? match[5].split('.') : [],
  };
}
// @end

// @step compare-main {"effort": 3, "after": ["parse"], "todo": "compareMain(a, b): compare major, minor, patch"}
function sign(n) {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

export function compareMain(a, b) {
  return sign(a.major - b.major) || sign(a.minor - b.minor) || sign(a.patch - b.patch);
}
// @end

// @step compare-pre {"effort": 4, "after": ["parse"], "todo": "comparePre(a, b): prerelease precedence"}
export function comparePre(a, b) {
  const x = a.prerelease;
  const y = b.prerelease;
  if (x.length === 0 && y.length === 0) return 0;
  if (x.length === 0) return 1;
  if (y.length === 0) return -1;
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i];
    const q = y[i];
    if (p === q) continue;
    const pn = typeof p === 'number';
    const qn = typeof q === 'number';
    if (pn && qn) return p < q ? -1 : 1;
    if (pn) return -1;
    if (qn) return 1;
    return p < q ? -1 : 1;
  }
  return x.length === y.length ? 0 : x.length < y.length ? -1 : 1;
}
// @end

// @step compare {"effort": 3, "after": ["compare-main", "compare-pre"], "todo": "compare(a, b): -1, 0 or 1 for strings or parsed versions"}
function toVersion(v) {
  const parsed = typeof v === 'string' ? parse(v) : v;
  if (!parsed) throw new TypeError(`invalid version: ${v}`);
  return parsed;
}

export function compare(a, b) {
  const x = toVersion(a);
  const y = toVersion(b);
  return compareMain(x, y) || comparePre(x, y);
}
// @end

// @step sort {"effort": 2, "after": ["compare"], "todo": "sort(list): a new ascending array"}
export function sort(list) {
  return [...list].sort(compare);
}
// @end

// @step satisfies {"effort": 7, "after": ["compare"], "todo": "satisfies(version, range): comparators, caret, tilde, prerelease rule"}
function expand(token) {
  const m = /^(\^|~|>=|<=|>|<|=)?(.*)$/.exec(token);
  const op = m[1] ?? '=';
  const v = toVersion(m[2]);
  const { major, minor, patch } = v;
  if (op === '^') {
    const upper = major > 0 ? `${major + 1}.0.0` : minor > 0 ? `0.${minor + 1}.0` : `0.0.${patch + 1}`;
    return [['>=', v], ['<', toVersion(`${upper}-0`)]];
  }
  if (op === '~') return [['>=', v], ['<', toVersion(`${major}.${minor + 1}.0-0`)]];
  return [[op, v]];
}

function holds(op, version, bound) {
  const c = compare(version, bound);
  if (op === '=') return c === 0;
  if (op === '>') return c > 0;
  if (op === '>=') return c >= 0;
  if (op === '<') return c < 0;
  return c <= 0;
}

export function satisfies(version, range) {
  const v = toVersion(version);
  const tokens = String(range).trim().split(/\s+/).filter((t) => t !== '' && t !== '*');
  const comparators = tokens.flatMap(expand);
  if (!comparators.every(([op, bound]) => holds(op, v, bound))) return false;
  if (v.prerelease.length === 0) return true;
  return tokens.some((t) => {
    const bound = toVersion(t.replace(/^(\^|~|>=|<=|>|<|=)/, ''));
    return bound.prerelease.length > 0 && compareMain(bound, v) === 0;
  });
}
// @end
