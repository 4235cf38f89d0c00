import assert from 'node:assert/strict';
import test from 'node:test';
import * as tb from '../src/token-bucket.js';

function clock() {
  const c = { t: 1000, now: () => c.t };
  return c;
}

test('validates its arguments', () => {
  assert.throws(() => new tb.TokenBucket(0, 1), RangeError);
  assert.throws(() => new tb.TokenBucket(1.5, 1), RangeError);
  assert.throws(() => new tb.TokenBucket(2, -1), RangeError);
});

test('takes until empty, then refuses', () => {
  const c = clock();
  const bucket = new tb.TokenBucket(2, 1, c.now);
  assert.equal(bucket.tryTake(), true);
  assert.equal(bucket.tryTake(), true);
  assert.equal(bucket.tryTake(), false);
  assert.equal(bucket.available(), 0);
});

test('refills continuously and caps at the capacity', () => {
  const c = clock();
  const bucket = new tb.TokenBucket(4, 2, c.now);
  assert.equal(bucket.tryTake(4), true);
  c.t += 500;
  assert.equal(bucket.available(), 1);
  c.t += 750;
  assert.equal(bucket.available(), 2);
  c.t += 60_000;
  assert.equal(bucket.available(), 4);
});

test('a refused take takes nothing', () => {
  const c = clock();
  const bucket = new tb.TokenBucket(3, 1, c.now);
  assert.equal(bucket.tryTake(2), true);
  assert.equal(bucket.tryTake(2), false);
  assert.equal(bucket.tryTake(1), true);
});

test('taking more than the capacity throws', () => {
  assert.throws(() => new tb.TokenBucket(3, 1, () => 0).tryTake(4), RangeError);
});

test('msUntil', () => {
  const c = clock();
  const bucket = new tb.TokenBucket(5, 4, c.now);
  assert.equal(bucket.msUntil(5), 0);
  bucket.tryTake(5);
  assert.equal(bucket.msUntil(1), 250);
  assert.equal(bucket.msUntil(2), 500);
  assert.equal(new tb.TokenBucket(1, 0, c.now).msUntil(1), 0);
  const dry = new tb.TokenBucket(1, 0, c.now);
  dry.tryTake();
  assert.equal(dry.msUntil(1), Infinity);
});
