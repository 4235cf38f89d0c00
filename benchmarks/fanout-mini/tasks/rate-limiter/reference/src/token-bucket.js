// A token bucket: capacity, continuous refill, injectable clock.
export class TokenBucket {
  // @step bucket-ctor {"effort": 3, "todo": "constructor(capacity, refillPerSecond, now): validate, start full"}
  constructor(capacity, refillPerSecond, now = Date.now) {
    if (!Number.isInteger(capacity) || capacity <= 0) throw new RangeError('capacity must be a positive integer');
    if (typeof refillPerSecond !== 'number' || !(refillPerSecond >= 0)) throw new RangeError('refillPerSecond must be >= 0');
    this.capacity = capacity;
    this.rate = refillPerSecond;
    this.now = now;
    this.tokens = capacity;
    this.last = now();
  }
  // @end

  // @step bucket-refill {"effort": 3, "after": ["bucket-ctor"], "todo": "refill(): add the tokens earned since the last refill, capped"}
  refill() {
    const t = this.now();
    const elapsed = Math.max(0, t - this.last);
    this.tokens = Math.min(this.capacity, this.tokens + (this.rate * elapsed) / 1000);
    this.last = t;
  }
  // @end

  // @step bucket-take {"effort": 3, "after": ["bucket-refill"], "todo": "tryTake(n): take n tokens if available"}
  tryTake(n = 1) {
    if (n > this.capacity) throw new RangeError('cannot take more than the capacity');
    this.refill();
    if (this.tokens + 1e-9 >= n) {
      this.tokens -= n;
      return true;
    }
    return false;
  }
  // @end

  // @step bucket-available {"effort": 3, "after": ["bucket-refill"], "todo": "available() and msUntil(n)"}
  available() {
    this.refill();
    return Math.floor(this.tokens + 1e-9);
  }

  msUntil(n = 1) {
    this.refill();
    const missing = n - this.tokens;
    if (missing <= 1e-9) return 0;
    if (this.rate === 0) return Infinity;
    return Math.ceil((missing * 1000) / this.rate);
  }
  // @end
}
