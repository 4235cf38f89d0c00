import { describe, expect, it } from 'vitest';
import { TokenBucket, rateLimited } from './token-bucket.js';

describe('TokenBucket', () => {
  it('serves a burst at once, then one call per 1/rate seconds, in order', () => {
    let now = 0;
    const bucket = new TokenBucket(10, 3, () => now);
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()]).toEqual([0, 0, 0]);
    // Empty: the next callers wait 100 ms, 200 ms, 300 ms (each reserves the token after the last).
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve()].map(Math.round)).toEqual([100, 200, 300]);
    now = 1000;
    // A second later the debt of 3 is repaid and 7 tokens accrued, capped at the burst of 3.
    expect([bucket.reserve(), bucket.reserve(), bucket.reserve(), bucket.reserve()].map(Math.round)).toEqual([0, 0, 0, 100]);
  });

  it('holds the rate over many calls', () => {
    let now = 0;
    const bucket = new TokenBucket(20, 5, () => now);
    let waited = 0;
    for (let i = 0; i < 105; i++) waited = bucket.reserve();
    // 105 calls at once: 5 from the burst, 100 at 20/s, so the last one waits 5 s.
    expect(Math.round(waited)).toBe(5000);
  });

  it('refuses a bucket that could never serve', () => {
    expect(() => new TokenBucket(0, 1)).toThrow(/positive rate/);
    expect(() => new TokenBucket(1, 0)).toThrow(/burst/);
  });

  it('rateLimited takes a token before each method call and keeps plain properties', async () => {
    const waits: number[] = [];
    let now = 0;
    const bucket = new TokenBucket(1, 1, () => now, async (ms) => void waits.push(ms));
    const api = { calls: 0, async get(x: number) { this.calls++; return x * 2; } };
    const limited = rateLimited(api, bucket);
    expect(await limited.get(1)).toBe(2);
    expect(await limited.get(2)).toBe(4);
    expect(waits.map(Math.round)).toEqual([1000]);
    expect(limited.calls).toBe(2);
  });
});
