/**
 * Client-side rate limiting of Kubernetes API calls: a token bucket
 * (`ratePerSecond` sustained, `burst` at once). Callers that find it empty
 * reserve the next token and wait for it, so they are served in order and
 * the rate holds however many wait.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly ratePerSecond: number,
    readonly burst: number,
    private readonly now: () => number = () => performance.now(),
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {
    if (!(ratePerSecond > 0) || !(burst >= 1)) throw new Error('a token bucket needs a positive rate and a burst of at least 1');
    this.tokens = burst;
    this.last = now();
  }

  /** Milliseconds the caller waits for its token (0: served at once). */
  reserve(): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.ratePerSecond);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens / this.ratePerSecond) * 1000;
  }

  async take(): Promise<void> {
    const wait = this.reserve();
    if (wait > 0) await this.sleep(wait);
  }
}

/** The API object with every method call taking a token first. */
export function rateLimited<T extends object>(api: T, bucket: TokenBucket): T {
  return new Proxy(api, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await bucket.take();
        return value.apply(target, args);
      };
    },
  });
}
