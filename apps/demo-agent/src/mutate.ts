/**
 * The demo agent's mistakes: a subtly wrong version of a fragment, made the
 * way mutation testing makes them (a flipped comparison, a dropped `+ 1`,
 * `&&` for `||`, an index off by one...), only in code (never in strings, comments or regular
 * expressions). Which site is mutated is chosen by the caller's seeded number.
 */
export interface MutationSite {
  index: number;
  length: number;
  replacement: string;
}

const WORD_SWAPS: Record<string, string> = { true: 'false', false: 'true', null: 'undefined', 'Math.min': 'Math.max', 'Math.max': 'Math.min', 'Math.floor': 'Math.ceil', 'Math.ceil': 'Math.floor' };
const REGEX_BEFORE = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);

/** The mutation sites of a piece of JavaScript, in text order. */
export function mutationSites(code: string): MutationSite[] {
  const sites: MutationSite[] = [];
  let i = 0;
  let lastSignificant = '';
  let lastWord = '';
  while (i < code.length) {
    const c = code[i];
    const next = code[i + 1];
    if (c === '/' && next === '/') {
      while (i < code.length && code[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && next === '*') {
      const end = code.indexOf('*/', i + 2);
      i = end < 0 ? code.length : end + 2;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      i++;
      while (i < code.length && code[i] !== c) i += code[i] === '\\' ? 2 : 1;
      i++;
      lastSignificant = c;
      lastWord = '';
      continue;
    }
    if (c === '/' && (lastSignificant === '' || REGEX_BEFORE.has(lastSignificant) || lastWord === 'return' || lastWord === 'typeof')) {
      i++;
      let inClass = false;
      while (i < code.length && (code[i] !== '/' || inClass) && code[i] !== '\n') {
        if (code[i] === '\\') i++;
        else if (code[i] === '[') inClass = true;
        else if (code[i] === ']') inClass = false;
        i++;
      }
      i++;
      while (i < code.length && /[a-z]/.test(code[i])) i++;
      lastSignificant = '/';
      lastWord = '';
      continue;
    }
    const word = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)?/.exec(code.slice(i, i + 40));
    if (word && !/[A-Za-z0-9_$.]/.test(code[i - 1] ?? '')) {
      const w = word[0];
      if (Object.hasOwn(WORD_SWAPS, w)) sites.push({ index: i, length: w.length, replacement: WORD_SWAPS[w] });
      i += w.length;
      lastSignificant = 'a';
      lastWord = w;
      continue;
    }
    const digit = /^[0-9]$/.test(c) && !/[A-Za-z0-9_$.]/.test(code[i - 1] ?? '') && !/[0-9.xXeEn_]/.test(next ?? '');
    if (digit) {
      // `a[1]` -> `a[2]`, `slice(0)` -> `slice(1)`: an index off by one.
      sites.push({ index: i, length: 1, replacement: String(Number(c) + 1) });
      i += 1;
      lastSignificant = '0';
      lastWord = '';
      continue;
    }
    const three = code.slice(i, i + 3);
    const two = code.slice(i, i + 2);
    const prev = code[i - 1] ?? '';
    if (three === '===' || three === '!==') {
      sites.push({ index: i, length: 3, replacement: three === '===' ? '!==' : '===' });
      i += 3;
    } else if (two === '&&' || two === '||') {
      sites.push({ index: i, length: 2, replacement: two === '&&' ? '||' : '&&' });
      i += 2;
    } else if ((two === '<=' || two === '>=') && prev !== '<' && prev !== '>' && prev !== '=') {
      sites.push({ index: i, length: 2, replacement: c });
      i += 2;
    } else if ((c === '<' || c === '>') && next !== '<' && next !== '>' && next !== '=' && prev !== '<' && prev !== '>' && prev !== '=' && prev !== '-') {
      sites.push({ index: i, length: 1, replacement: `${c}=` });
      i += 1;
    } else if ((c === '+' || c === '-') && prev === ' ' && next === ' ' && code[i + 2] === '1' && !/[0-9.]/.test(code[i + 3] ?? '')) {
      // `x + 1` -> `x`: the classic off-by-one.
      sites.push({ index: i - 1, length: 4, replacement: '' });
      i += 3;
    } else {
      i += 1;
    }
    if (!/\s/.test(c)) {
      lastSignificant = c;
      lastWord = '';
    }
  }
  return sites;
}

export function applySite(code: string, site: MutationSite): string {
  return code.slice(0, site.index) + site.replacement + code.slice(site.index + site.length);
}
