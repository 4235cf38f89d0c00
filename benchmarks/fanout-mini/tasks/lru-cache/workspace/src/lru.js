// A least-recently-used cache: a Map for lookup, a linked list for recency.
import * as list from './list.js';

export class LRUCache {
  // @step lru-ctor
  // TODO: constructor(capacity, { onEvict })
  // @end

  // @step lru-get
  // TODO: get(key), peek(key), has(key)
  // @end

  // @step lru-evict
  // TODO: evict(): drop least recent entries beyond capacity, calling onEvict
  // @end

  // @step lru-set
  // TODO: set(key, value): insert or overwrite, then evict
  // @end

  // @step lru-delete
  // TODO: delete(key) and the size getter
  // @end

  // @step lru-keys
  // TODO: keys() and entries(), most recent first
  // @end

  // @step lru-resize
  // TODO: resize(capacity)
  // @end
}
