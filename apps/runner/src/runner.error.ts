/**
 * The runner could not do its own job (spec unreachable, workspace missing,
 * grader report unreadable, grade not accepted). No result was recorded: the
 * runner exits 1 and Fanout retries the attempt as an infrastructure failure.
 * Agent failures are never this: they are results.
 */
export class RunnerError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RunnerError';
  }
}

/** A request that may succeed if tried again: a network error, a timeout, 408, 429 or 5xx. */
export class TransientError extends Error {
  constructor(message: string, readonly status: number | null = null) {
    super(message);
    this.name = 'TransientError';
  }
}
