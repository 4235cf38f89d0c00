// JSON Pointer (RFC 6901): parse, compile, get, set, remove.

// @step unescape-token {"effort": 2, "todo": "unescapeToken(token): ~1 -> / then ~0 -> ~"}
export function unescapeToken(token) {
  return token.replaceAll('~1', '/').replaceAll('~0', '~');
}
// @end

// @step escape-token {"effort": 2, "todo": "escapeToken(token): ~ -> ~0 then / -> ~1"}
export function escapeToken(token) {
  return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}
// @end

// @step parse {"effort": 4, "after": ["unescape-token"], "todo": "parse(pointer): tokens of a pointer; SyntaxError unless empty or starting with /"}
export function parse(pointer) {
  if (pointer === '') return [];
  if (typeof pointer !== 'string' || pointer[0] !== '/') throw new SyntaxError(`invalid JSON pointer: ${pointer}`);
  return pointer.slice(1).split('/').map(unescapeToken);
}
// @end

// @step compile {"effort": 2, "after": ["escape-token"], "todo": "compile(tokens): the pointer for a list of tokens"}
export function compile(tokens) {
  return tokens.map((token) => `/${escapeToken(token)}`).join('');
}
// @end

// @step get {"effort": 5, "after": ["parse"], "todo": "get(doc, pointer): the referenced value or undefined"}
function arrayIndex(token) {
  return /^(0|[1-9][0-9]*)$/.test(token) ? Number(token) : -1;
}

export function get(doc, pointer) {
  let node = doc;
  for (const token of parse(pointer)) {
    if (Array.isArray(node)) {
      const index = arrayIndex(token);
      if (index < 0 || index >= node.length) return undefined;
      node = node[index];
    } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, token)) {
      node = node[token];
    } else {
      return undefined;
    }
  }
  return node;
}
// @end

// @step set {"effort": 6, "after": ["parse"], "todo": "set(doc, pointer, value): set in place, creating objects; '-' appends to arrays"}
export function set(doc, pointer, value) {
  const tokens = parse(pointer);
  if (tokens.length === 0) return value;
  let node = doc;
  for (let i = 0; i < tokens.length - 1; i++) {
    const token = tokens[i];
    const key = Array.isArray(node) ? Number(token) : token;
    if (node[key] === null || typeof node[key] !== 'object') node[key] = {};
    node = node[key];
  }
  const last = tokens[tokens.length - 1];
  if (Array.isArray(node)) {
    const index = last === '-' ? node.length : Number(last);
    if (!Number.isInteger(index) || index > node.length || index < 0) throw new RangeError(`index out of range: ${last}`);
    node[index] = value;
  } else {
    node[last] = value;
  }
  return doc;
}
// @end

// @step remove {"effort": 5, "after": ["parse"], "todo": "remove(doc, pointer): delete and return the referenced value"}
export function remove(doc, pointer) {
  const tokens = parse(pointer);
  if (tokens.length === 0) return undefined;
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, token)) return undefined;
    node = node[token];
  }
  const last = tokens[tokens.length - 1];
  if (Array.isArray(node)) {
    if (!/^(0|[1-9][0-9]*)$/.test(last) || Number(last) >= node.length) return undefined;
    return node.splice(Number(last), 1)[0];
  }
  if (node === null || typeof node !== 'object' || !Object.hasOwn(node, last)) return undefined;
  const removed = node[last];
  delete node[last];
  return removed;
}
// @end
