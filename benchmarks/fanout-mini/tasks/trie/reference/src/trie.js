// A prefix tree mapping strings to values.

function makeNode() {
  return { children: new Map(), hasValue: false, value: undefined };
}

export class Trie {
  // @step trie-ctor {"effort": 2, "todo": "constructor(): the root node and the size"}
  constructor() {
    this.root = makeNode();
    this.count = 0;
  }

  get size() {
    return this.count;
  }
  // @end

  // @step trie-set {"effort": 4, "after": ["trie-ctor"], "todo": "set(word, value)"}
  set(word, value = true) {
    let node = this.root;
    for (const ch of word) {
      if (!node.children.has(ch)) node.children.set(ch, makeNode());
      node = node.children.get(ch);
    }
    if (!node.hasValue) this.count++;
    node.hasValue = true;
    node.value = value;
    return this;
  }
  // @end

  // @step trie-find {"effort": 3, "after": ["trie-ctor"], "todo": "findNode(prefix): the node for a prefix or null"}
  findNode(prefix) {
    let node = this.root;
    for (const ch of prefix) {
      node = node.children.get(ch);
      if (!node) return null;
    }
    return node;
  }
  // @end

  // @step trie-get {"effort": 2, "after": ["trie-find"], "todo": "get(word) and has(word)"}
  get(word) {
    const node = this.findNode(word);
    return node && node.hasValue ? node.value : undefined;
  }

  has(word) {
    const node = this.findNode(word);
    return Boolean(node && node.hasValue);
  }
  // @end

  // @step trie-delete {"effort": 6, "after": ["trie-find"], "todo": "delete(word): remove and prune"}
  delete(word) {
    const chars = [...word];
    const path = [this.root];
    for (const ch of chars) {
      const next = path[path.length - 1].children.get(ch);
      if (!next) return false;
      path.push(next);
    }
    const last = path[path.length - 1];
    if (!last.hasValue) return false;
    last.hasValue = false;
    last.value = undefined;
    this.count--;
    for (let i = chars.length; i > 0; i--) {
      const node = path[i];
      if (node.hasValue || node.children.size > 0) break;
      path[i - 1].children.delete(chars[i - 1]);
    }
    return true;
  }
  // @end

  // @step trie-prefix {"effort": 5, "after": ["trie-find"], "todo": "keysWithPrefix(prefix): sorted words under a prefix"}
  keysWithPrefix(prefix) {
    const start = this.findNode(prefix);
    const out = [];
    const walk = (node, word) => {
      if (node.hasValue) out.push(word);
      const keys = [...node.children.keys()].sort();
      for (const ch of keys) walk(node.children.get(ch), word + ch);
    };
    if (start) walk(start, prefix);
    return out;
  }
  // @end

  // @step trie-longest {"effort": 4, "after": ["trie-ctor"], "todo": "longestPrefixOf(text)"}
  longestPrefixOf(text) {
    let node = this.root;
    let best = node.hasValue ? '' : undefined;
    let word = '';
    for (const ch of text) {
      node = node.children.get(ch);
      if (!node) break;
      word += ch;
      if (node.hasValue) best = word;
    }
    return best;
  }
  // @end
}
