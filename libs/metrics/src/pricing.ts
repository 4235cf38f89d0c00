import type { DisjointUsage } from './usage.js';

/** Integer micro-dollars per million tokens of each disjoint kind ($1.25 / Mtok is 1_250_000). */
export interface KindPrices {
  uncachedInput: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
}

export interface PriceBookVersion {
  version: string;
  model: string;
  /** Epoch milliseconds from which this version is in force (inclusive). */
  effectiveFrom: number;
  prices: KindPrices;
}

export interface ModelCall {
  model: string;
  /** Epoch milliseconds of the call. */
  time: number;
  usage: DisjointUsage;
}

const KINDS = ['uncachedInput', 'cacheRead', 'cacheWrite', 'output'] as const;

/** The version in force at `time`: the latest with effectiveFrom <= time. Throws when none is. */
export function priceVersionAt(book: readonly PriceBookVersion[], model: string, time: number): PriceBookVersion {
  let best: PriceBookVersion | undefined;
  for (const version of book) {
    if (version.model !== model || version.effectiveFrom > time) continue;
    if (!best || version.effectiveFrom > best.effectiveFrom) best = version;
  }
  if (!best) throw new RangeError(`pricing: no price book version for model "${model}" in force at ${time}`);
  return best;
}

/**
 * Cost of one leaf model call in integer micro-dollars: sum over the disjoint
 * kinds of tokens x price, computed exactly with BigInt (tokens x price per
 * Mtok overflows 2^53 quickly), then rounded half up once per call, the unit
 * a ledger row stores.
 */
export function callCostMicros(book: readonly PriceBookVersion[], call: ModelCall): number {
  const { prices } = priceVersionAt(book, call.model, call.time);
  let numerator = 0n;
  for (const kind of KINDS) {
    const tokens = call.usage[kind];
    const price = prices[kind];
    if (!Number.isInteger(tokens) || tokens < 0) throw new RangeError(`pricing: ${kind} tokens must be a non-negative integer, got ${tokens}`);
    if (!Number.isInteger(price) || price < 0) throw new RangeError(`pricing: ${kind} price must be non-negative integer micro-dollars per Mtok, got ${price}`);
    numerator += BigInt(tokens) * BigInt(price);
  }
  return Number((numerator + 500_000n) / 1_000_000n);
}

/** Total cost of many calls in integer micro-dollars (each call rounded on its own). */
export function costMicros(book: readonly PriceBookVersion[], calls: readonly ModelCall[]): number {
  let total = 0;
  for (const call of calls) total += callCostMicros(book, call);
  return total;
}

export function microsToUsd(micros: number): number {
  return micros / 1_000_000;
}

/** Dollars with 2 decimals, rounded half up from integer micro-dollars (views only). */
export function formatUsdFromMicros(micros: number): string {
  const negative = micros < 0;
  const cents = Math.floor((Math.abs(micros) + 5_000) / 10_000);
  const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
  return negative && cents > 0 ? `-${text}` : text;
}
