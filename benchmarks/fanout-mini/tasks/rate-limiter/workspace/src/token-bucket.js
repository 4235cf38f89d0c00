// A token bucket: capacity, continuous refill, injectable clock.
export class TokenBucket {
  // @step bucket-ctor
  // TODO: constructor(capacity, refillPerSecond, now): validate, start full
  // @end

  // @step bucket-refill
  // TODO: refill(): add the tokens earned since the last refill, capped
  // @end

  // @step bucket-take
  // TODO: tryTake(n): take n tokens if available
  // @end

  // @step bucket-available
  // TODO: available() and msUntil(n)
  // @end
}
