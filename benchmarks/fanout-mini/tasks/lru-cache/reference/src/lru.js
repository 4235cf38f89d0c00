// A least-recently-used cache: a Map for lookup, a linked list for recency.
import * as list from './list.js';

export class LRUCache {
  // @step lru-ctor {"effort": 3, "after": ["list-ctor"], "todo": "constructor(capacity, { onEvict })"}
  constructor(capacity, { onEvict } = {}) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be an integer >= 1');
    this.capacity = capacity;
    this.onEvict = onEvict;
    this.map = new Map();
    this.list = new list.LinkedList();
  }
  // @end

  // @step lru-get {"effort": 4, "after": ["lru-ctor", "list-remove", "list-push-front"], "todo": "get(key), peek(key), has(key)"}
  get(key) {
    const node = this.map.get(key);
    if (!node) return undefined;
    this.list.remove(node);
    this.list.pushFront(node);
    return node.value;
  }

  peek(key) {
    return this.map.get(key)?.value;
  }

  has(key) {
    return this.map.has(key);
  }
  // @end

  // @step lru-evict {"effort": 4, "after": ["lru-ctor", "list-pop-back"], "todo": "evict(): drop least recent entries beyond capacity, calling onEvict"}
  evict() {
    while (this.map.size > this.capacity) {
      const node = this.list.popBack();
      this.map.delete(node.key);
      if (this.onEvict) this.onEvict(node.key, node.value);
    }
  }
  // @end

  // @step lru-set {"effort": 5, "after": ["lru-get", "lru-evict"], "todo": "set(key, value): insert or overwrite, then evict"}
  set(key, value) {
    const existing = this.map.get(key);
    if (existing) {
      existing.value = value;
      this.list.remove(existing);
      this.list.pushFront(existing);
      return this;
    }
    const node = this.list.pushFront({ key, value, prev: null, next: null });
    this.map.set(key, node);
    this.evict();
    return this;
  }
  // @end

  // @step lru-delete {"effort": 3, "after": ["lru-get"], "todo": "delete(key) and the size getter"}
  delete(key) {
    const node = this.map.get(key);
    if (!node) return false;
    this.list.remove(node);
    this.map.delete(key);
    return true;
  }

  get size() {
    return this.map.size;
  }
  // @end

  // @step lru-keys {"effort": 3, "after": ["lru-ctor", "list-iter"], "todo": "keys() and entries(), most recent first"}
  keys() {
    return [...this.list].map((node) => node.key);
  }

  entries() {
    return [...this.list].map((node) => [node.key, node.value]);
  }
  // @end

  // @step lru-resize {"effort": 3, "after": ["lru-evict"], "todo": "resize(capacity)"}
  resize(capacity) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be an integer >= 1');
    this.capacity = capacity;
    this.evict();
  }
  // @end
}
