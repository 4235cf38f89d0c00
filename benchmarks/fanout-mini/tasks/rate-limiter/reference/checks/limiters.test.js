import assert from 'node:assert/strict';
import test from 'node:test';
import * as sw from '../src/sliding-window.js';
import * as tb from '../src/token-bucket.js';

test('a bucket starts full', () => {
  const bucket = new tb.TokenBucket(3, 1, () => 0);
  assert.equal(bucket.available(), 3);
});

test('a window allows up to the limit', () => {
  const limiter = new sw.SlidingWindowLimiter(2, 1000, () => 0);
  assert.deepEqual([limiter.hit('a'), limiter.hit('a'), limiter.hit('a')], [true, true, false]);
});
