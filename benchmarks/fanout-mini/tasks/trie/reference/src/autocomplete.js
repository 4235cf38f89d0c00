// Weighted autocomplete on top of the trie.
import * as trie from './trie.js';

export class Autocomplete {
  // @step ac-add {"effort": 3, "after": ["trie-get", "trie-set"], "todo": "constructor() and add(word, weight)"}
  constructor() {
    this.trie = new trie.Trie();
  }

  add(word, weight = 1) {
    const key = word.toLowerCase();
    this.trie.set(key, (this.trie.get(key) ?? 0) + weight);
    return this;
  }
  // @end

  // @step ac-suggest {"effort": 5, "after": ["ac-add", "trie-prefix"], "todo": "suggest(prefix, k): top k by weight then alphabetically"}
  suggest(prefix, k = 5) {
    const words = this.trie.keysWithPrefix(prefix.toLowerCase());
    const ranked = words.map((word) => ({ word, weight: this.trie.get(word) }));
    ranked.sort((a, b) => b.weight - a.weight || (a.word < b.word ? -1 : a.word > b.word ? 1 : 0));
    return ranked.slice(0, k).map((entry) => entry.word);
  }
  // @end
}
