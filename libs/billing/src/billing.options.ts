import type { StripeConfig } from '#libs/config';
import type { Logger } from 'pino';

export interface BillingOptions {
  /** Null: Stripe billing is off (no worker, webhook endpoint answers 404). */
  stripe: StripeConfig | null;
  logger: Logger;
}

export const BILLING_OPTIONS = Symbol('BILLING_OPTIONS');

/** An hour is closed (and billed) this long after its end, so spend recorded at 10:59:59.9 still lands in 10:00. */
export const HOUR_GRACE_MS = 5 * 60 * 1000;
/** Stripe accepts meter event timestamps up to 35 days old; stay clear of the edge with retries in mind. */
export const LOOKBACK_DAYS = 30;
/** Sends per meter row before it is marked failed. */
export const MAX_SEND_ATTEMPTS = 8;
/** Backoff after attempt k: base * 2^(k-1), at most the cap. 8 attempts span about an hour, well inside Stripe's 24-hour identifier window. */
export const BACKOFF_BASE_SECONDS = 30;
export const BACKOFF_CAP_SECONDS = 3600;
/** The worker's period. */
export const WORKER_INTERVAL_MS = 60_000;
