// A sliding-window log limiter: at most `limit` requests per key per window.
export class SlidingWindowLimiter {
  // @step window-ctor {"effort": 2, "todo": "constructor(limit, windowMs, now)"}
  constructor(limit, windowMs, now = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.now = now;
    this.log = new Map();
  }
  // @end

  // @step window-prune {"effort": 3, "after": ["window-ctor"], "todo": "prune(key): drop the key's requests that left the window; return what is left"}
  prune(key) {
    const t = this.now();
    const times = (this.log.get(key) ?? []).filter((at) => t - at < this.windowMs);
    this.log.set(key, times);
    return times;
  }
  // @end

  // @step window-hit {"effort": 3, "after": ["window-prune"], "todo": "hit(key): record and allow, or refuse"}
  hit(key) {
    const times = this.prune(key);
    if (times.length >= this.limit) return false;
    times.push(this.now());
    return true;
  }
  // @end

  // @step window-remaining {"effort": 2, "after": ["window-prune"], "todo": "remaining(key) and reset(key)"}
  remaining(key) {
    return Math.max(0, this.limit - this.prune(key).length);
  }

  reset(key) {
    this.log.delete(key);
  }
  // @end
}
