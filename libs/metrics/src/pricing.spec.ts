import { describe, expect, it } from 'vitest';
import { callCostMicros, costMicros, formatUsdFromMicros, priceVersionAt, type PriceBookVersion } from './pricing.js';
import { fromTokenCounts, normaliseUsage, sumUsage, toTokenCounts, totalTokens } from './usage.js';

const book: PriceBookVersion[] = [
  // $1.25 / Mtok input, $0.125 cached, $10 output
  { version: 'gpt-2025-01', model: 'gpt', effectiveFrom: 0, prices: { uncachedInput: 1_250_000, cacheRead: 125_000, cacheWrite: 0, output: 10_000_000 } },
  // a price cut from t = 1000
  { version: 'gpt-2025-06', model: 'gpt', effectiveFrom: 1000, prices: { uncachedInput: 1_000_000, cacheRead: 100_000, cacheWrite: 0, output: 8_000_000 } },
  // $3 input, $0.30 cache read, $3.75 cache write, $15 output
  { version: 'claude-1', model: 'claude', effectiveFrom: 0, prices: { uncachedInput: 3_000_000, cacheRead: 300_000, cacheWrite: 3_750_000, output: 15_000_000 } },
];

describe('usage normalisation', () => {
  it('OpenAI style: cached tokens are inside input, reasoning inside output', () => {
    const usage = normaliseUsage({ style: 'openai', inputTokens: 10_000, cachedInputTokens: 6_000, outputTokens: 2_000, reasoningTokens: 1_500 });
    expect(usage).toEqual({ uncachedInput: 4_000, cacheRead: 6_000, cacheWrite: 0, output: 2_000, reasoning: 1_500 });
  });

  it('Anthropic style: cache reads and writes come on top of input', () => {
    const usage = normaliseUsage({ style: 'anthropic', inputTokens: 3_000, cacheReadInputTokens: 20_000, cacheCreationInputTokens: 5_000, outputTokens: 1_000 });
    expect(usage).toEqual({ uncachedInput: 3_000, cacheRead: 20_000, cacheWrite: 5_000, output: 1_000, reasoning: 0 });
    expect(toTokenCounts(usage)).toEqual({ input: 28_000, cacheRead: 20_000, cacheWrite: 5_000, output: 1_000, reasoning: 0 });
    expect(totalTokens(toTokenCounts(usage))).toBe(29_000);
  });

  it('round-trips the record convention and sums leaf calls', () => {
    const tokens = { input: 28_000, cacheRead: 20_000, cacheWrite: 5_000, output: 1_000, reasoning: 200 };
    expect(toTokenCounts(fromTokenCounts(tokens))).toEqual(tokens);
    const a = normaliseUsage({ style: 'openai', inputTokens: 10, cachedInputTokens: 4, outputTokens: 3 });
    expect(sumUsage([a, a])).toEqual({ uncachedInput: 12, cacheRead: 8, cacheWrite: 0, output: 6, reasoning: 0 });
  });

  it('refuses cached tokens larger than the input that includes them', () => {
    expect(() => normaliseUsage({ style: 'openai', inputTokens: 10, cachedInputTokens: 11, outputTokens: 0 })).toThrow(/exceed inputTokens/);
    expect(() => normaliseUsage({ style: 'anthropic', inputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, outputTokens: 1, reasoningTokens: 2 })).toThrow(/reasoningTokens/);
  });
});

describe('pricing', () => {
  it('prices an OpenAI-style call by hand: 4000 x 1.25 + 6000 x 0.125 + 2000 x 10 micro-dollars', () => {
    const usage = normaliseUsage({ style: 'openai', inputTokens: 10_000, cachedInputTokens: 6_000, outputTokens: 2_000, reasoningTokens: 1_500 });
    expect(callCostMicros(book, { model: 'gpt', time: 10, usage })).toBe(5_000 + 750 + 20_000);
  });

  it('prices an Anthropic-style call by hand: 3000 x 3 + 20000 x 0.3 + 5000 x 3.75 + 1000 x 15 micro-dollars', () => {
    const usage = normaliseUsage({ style: 'anthropic', inputTokens: 3_000, cacheReadInputTokens: 20_000, cacheCreationInputTokens: 5_000, outputTokens: 1_000 });
    expect(callCostMicros(book, { model: 'claude', time: 10, usage })).toBe(9_000 + 6_000 + 18_750 + 15_000);
  });

  it('uses the price book version in force at the call time', () => {
    expect(priceVersionAt(book, 'gpt', 999).version).toBe('gpt-2025-01');
    expect(priceVersionAt(book, 'gpt', 1000).version).toBe('gpt-2025-06');
    const usage = { uncachedInput: 1_000_000, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
    expect(costMicros(book, [{ model: 'gpt', time: 999, usage }, { model: 'gpt', time: 1000, usage }])).toBe(1_250_000 + 1_000_000);
    expect(() => priceVersionAt(book, 'unknown', 0)).toThrow(/no price book version/);
  });

  it('stays exact past 2^53 and rounds half up once per call', () => {
    const huge = { uncachedInput: 4_000_000_000, cacheRead: 0, cacheWrite: 0, output: 3_000_000_000, reasoning: 0 };
    expect(callCostMicros(book, { model: 'claude', time: 0, usage: huge })).toBe(12_000_000_000 + 45_000_000_000);
    const one = (price: number): PriceBookVersion[] => [{ version: 'v', model: 'm', effectiveFrom: 0, prices: { uncachedInput: price, cacheRead: 0, cacheWrite: 0, output: 0 } }];
    const token = { uncachedInput: 1, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
    expect(callCostMicros(one(1_500_000), { model: 'm', time: 0, usage: token })).toBe(2);
    expect(callCostMicros(one(1_499_999), { model: 'm', time: 0, usage: token })).toBe(1);
  });

  it('shows dollars with 2 decimals, rounded half up', () => {
    expect(formatUsdFromMicros(25_750)).toBe('0.03');
    expect(formatUsdFromMicros(1_234_999)).toBe('1.23');
    expect(formatUsdFromMicros(1_235_000)).toBe('1.24');
    expect(formatUsdFromMicros(0)).toBe('0.00');
  });
});
