import type { TokenCounts } from './execution.types.js';

/**
 * Disjoint usage kinds: every token is in exactly one of uncachedInput,
 * cacheRead, cacheWrite, output, so pricing never counts a token twice.
 * `reasoning` is informative only: it is part of `output` and priced there.
 */
export interface DisjointUsage {
  uncachedInput: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
}

/** OpenAI style: cached tokens are reported inside the input count; reasoning inside output. */
export interface OpenAiStyleUsage {
  style: 'openai';
  /** prompt/input tokens, cached ones included. */
  inputTokens: number;
  /** Cache reads, a subset of inputTokens. */
  cachedInputTokens: number;
  /** Cache writes, a subset of inputTokens (0 for providers that do not bill them). */
  cacheWriteTokens?: number;
  /** completion/output tokens, reasoning included. */
  outputTokens: number;
  reasoningTokens?: number;
}

/** Anthropic style: cache reads and writes are reported on top of the (uncached) input count. */
export interface AnthropicStyleUsage {
  style: 'anthropic';
  /** Uncached input tokens only. */
  inputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** Output tokens, thinking included. */
  outputTokens: number;
  reasoningTokens?: number;
}

export type ProviderUsage = OpenAiStyleUsage | AnthropicStyleUsage;

function requireCount(value: number, name: string): number {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`usage: ${name} must be a non-negative integer, got ${value}`);
  return value;
}

/** Normalise either provider convention to disjoint kinds. */
export function normaliseUsage(usage: ProviderUsage): DisjointUsage {
  const output = requireCount(usage.outputTokens, 'outputTokens');
  const reasoning = requireCount(usage.reasoningTokens ?? 0, 'reasoningTokens');
  if (reasoning > output) throw new RangeError(`usage: reasoningTokens (${reasoning}) exceed outputTokens (${output}), which include them`);
  if (usage.style === 'openai') {
    const input = requireCount(usage.inputTokens, 'inputTokens');
    const cacheRead = requireCount(usage.cachedInputTokens, 'cachedInputTokens');
    const cacheWrite = requireCount(usage.cacheWriteTokens ?? 0, 'cacheWriteTokens');
    if (cacheRead + cacheWrite > input) {
      throw new RangeError(`usage: cached tokens (${cacheRead} read + ${cacheWrite} write) exceed inputTokens (${input}), which include them`);
    }
    return { uncachedInput: input - cacheRead - cacheWrite, cacheRead, cacheWrite, output, reasoning };
  }
  return {
    uncachedInput: requireCount(usage.inputTokens, 'inputTokens'),
    cacheRead: requireCount(usage.cacheReadInputTokens, 'cacheReadInputTokens'),
    cacheWrite: requireCount(usage.cacheCreationInputTokens, 'cacheCreationInputTokens'),
    output,
    reasoning,
  };
}

/** Sum of leaf model calls' usage: agent and execution totals are sums, never reported twice. */
export function sumUsage(calls: readonly DisjointUsage[]): DisjointUsage {
  const total: DisjointUsage = { uncachedInput: 0, cacheRead: 0, cacheWrite: 0, output: 0, reasoning: 0 };
  for (const call of calls) {
    total.uncachedInput += call.uncachedInput;
    total.cacheRead += call.cacheRead;
    total.cacheWrite += call.cacheWrite;
    total.output += call.output;
    total.reasoning += call.reasoning;
  }
  return total;
}

/** Disjoint kinds to the execution-record convention (input includes cache reads and writes). */
export function toTokenCounts(usage: DisjointUsage): TokenCounts {
  return {
    input: usage.uncachedInput + usage.cacheRead + usage.cacheWrite,
    cacheRead: usage.cacheRead,
    cacheWrite: usage.cacheWrite,
    output: usage.output,
    reasoning: usage.reasoning,
  };
}

/** The execution-record convention back to disjoint kinds. */
export function fromTokenCounts(tokens: TokenCounts): DisjointUsage {
  return normaliseUsage({
    style: 'openai',
    inputTokens: tokens.input,
    cachedInputTokens: tokens.cacheRead,
    cacheWriteTokens: tokens.cacheWrite,
    outputTokens: tokens.output,
    reasoningTokens: tokens.reasoning,
  });
}

/** Total tokens of an execution: input (cache included) + output (reasoning included). */
export function totalTokens(tokens: TokenCounts): number {
  return tokens.input + tokens.output;
}
