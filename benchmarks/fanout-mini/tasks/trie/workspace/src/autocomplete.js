// Weighted autocomplete on top of the trie.
import * as trie from './trie.js';

export class Autocomplete {
  // @step ac-add
  // TODO: constructor() and add(word, weight)
  // @end

  // @step ac-suggest
  // TODO: suggest(prefix, k): top k by weight then alphabetically
  // @end
}
