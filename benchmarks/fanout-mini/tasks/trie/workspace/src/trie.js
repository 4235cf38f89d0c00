// A prefix tree mapping strings to values.

function makeNode() {
  return { children: new Map(), hasValue: false, value: undefined };
}

export class Trie {
  // @step trie-ctor
  // TODO: constructor(): the root node and the size
  // @end

  // @step trie-set
  // TODO: set(word, value)
  // @end

  // @step trie-find
  // TODO: findNode(prefix): the node for a prefix or null
  // @end

  // @step trie-get
  // TODO: get(word) and has(word)
  // @end

  // @step trie-delete
  // TODO: delete(word): remove and prune
  // @end

  // @step trie-prefix
  // TODO: keysWithPrefix(prefix): sorted words under a prefix
  // @end

  // @step trie-longest
  // TODO: longestPrefixOf(text)
  // @end
}
