import assert from 'node:assert/strict';
import test from 'node:test';
import * as sw from '../src/sliding-window.js';

function clock() {
  const c = { t: 0, now: () => c.t };
  return c;
}

test('allows the limit per window and refuses beyond', () => {
  const c = clock();
  const limiter = new sw.SlidingWindowLimiter(3, 1000, c.now);
  assert.deepEqual([1, 2, 3, 4].map(() => limiter.hit('k')), [true, true, true, false]);
});

test('requests leave the window after windowMs', () => {
  const c = clock();
  const limiter = new sw.SlidingWindowLimiter(2, 1000, c.now);
  limiter.hit('k');
  c.t = 400;
  limiter.hit('k');
  c.t = 999;
  assert.equal(limiter.hit('k'), false);
  c.t = 1000;
  assert.equal(limiter.hit('k'), true);
  assert.equal(limiter.remaining('k'), 0);
  c.t = 1400;
  assert.equal(limiter.remaining('k'), 1);
});

test('keys are independent and refused hits are not recorded', () => {
  const c = clock();
  const limiter = new sw.SlidingWindowLimiter(1, 100, c.now);
  assert.equal(limiter.hit('a'), true);
  assert.equal(limiter.hit('a'), false);
  assert.equal(limiter.hit('b'), true);
  c.t = 100;
  assert.equal(limiter.hit('a'), true);
});

test('remaining and reset', () => {
  const c = clock();
  const limiter = new sw.SlidingWindowLimiter(5, 100, c.now);
  assert.equal(limiter.remaining('x'), 5);
  limiter.hit('x');
  limiter.hit('x');
  assert.equal(limiter.remaining('x'), 3);
  limiter.reset('x');
  assert.equal(limiter.remaining('x'), 5);
});
