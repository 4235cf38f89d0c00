import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { TransientError } from './runner.error.js';

export interface RetryPolicy {
  /** Tries in all, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** Delay before try `n + 1`: exponential with +-20% jitter, so that many runners do not retry in step. */
export function backoffMs(policy: RetryPolicy, tried: number): number {
  const raw = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (tried - 1));
  return Math.round(raw * (0.8 + Math.random() * 0.4));
}

/**
 * Runs `fn` until it succeeds, retrying only `TransientError`s, at most
 * `policy.attempts` times; the last error is rethrown.
 */
export async function withRetry<T>(what: string, policy: RetryPolicy, logger: Logger, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof TransientError) || tried >= policy.attempts) throw err;
      const delay = backoffMs(policy, tried);
      logger.warn({ err: err.message, tried, of: policy.attempts, retryInMs: delay }, `${what} failed; retrying`);
      await sleep(delay, undefined, { signal });
    }
  }
}
