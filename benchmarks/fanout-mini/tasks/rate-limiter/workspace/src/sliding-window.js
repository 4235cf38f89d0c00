// A sliding-window log limiter: at most `limit` requests per key per window.
export class SlidingWindowLimiter {
  // @step window-ctor
  // TODO: constructor(limit, windowMs, now)
  // @end

  // @step window-prune
  // TODO: prune(key): drop the key's requests that left the window; return what is left
  // @end

  // @step window-hit
  // TODO: hit(key): record and allow, or refuse
  // @end

  // @step window-remaining
  // TODO: remaining(key) and reset(key)
  // @end
}
