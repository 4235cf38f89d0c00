import type { BootstrapInterval } from '../bootstrap.js';
import type { Execution, SuccessRule } from '../execution.types.js';
import type { BenefitReason, SizeDifference } from '../paired.metrics.js';

/**
 * What is compared. `mode`: one agent in mode A vs the same agent in mode B
 * (the study's view; the subject of a row is the agent). `agent`: agent A vs
 * agent B in one mode, on the same tasks (the subject of a row is the mode).
 */
export type ComparisonSpec = { by: 'mode'; modeA: string; modeB: string } | { by: 'agent'; agentA: string; agentB: string; mode: string };

/**
 * The family of McNemar tests corrected together by Holm. `pooled` (the
 * study's): one test per subject, pooling all benchmarks. `perBenchmark`: one
 * test per subject x benchmark.
 */
export type ComparisonFamily = 'pooled' | 'perBenchmark';

export const COMPARISON_FAMILIES: readonly ComparisonFamily[] = ['pooled', 'perBenchmark'];

export interface ComparisonOptions {
  family?: ComparisonFamily;
  /** Resamples of each paired bootstrap interval (default 10,000). */
  resamples?: number;
  /** Seed of the bootstrap streams (default 1); each interval's stream is seeded by (seed, subject, benchmark). */
  seed?: number;
  /** Benchmarks that declare a success rule other than "resolved" (unique successes only). */
  successRules?: Readonly<Record<string, SuccessRule>>;
}

/**
 * An execution as the comparison takes it: `id` links rows back to it;
 * `group` keeps pairs inside one group (a campaign, say): two executions pair
 * only when their groups are equal.
 */
export interface ComparedExecution extends Execution {
  id?: string;
  group?: string;
}

export interface AB {
  a: number | null;
  b: number | null;
}

/** The study's Table 2 row: one subject x benchmark, every figure as A / B, plus the paired figures. */
export interface ComparisonBenchmarkRow {
  subject: string;
  benchmark: string;
  /** Executions of each side (every one counts in the denominators). */
  n: AB;
  resolved: AB;
  taskPass: AB;
  testPass: AB;
  shellCalls: AB;
  minutes: AB;
  tokensMillions: AB;
  costUsd: AB;
  tokensPerSolved: AB;
  costPerSolved: AB;
  infraFailed: AB;
  noTests: AB;
  pairs: number;
  /** Pairs where only A / only B resolved. */
  b: number;
  c: number;
  /** Exact McNemar of this subject x benchmark alone (Holm-adjusted only under the perBenchmark family, in `tests`). */
  pUnadjusted: number;
  successRule: SuccessRule;
  /** Unique successes under the success rule: only A / only B succeeded. */
  uniqueA: number;
  uniqueB: number;
  bothSolved: number;
  aFaster: number;
  aFasterShare: number | null;
  aFaster20: number;
  aFaster20Share: number | null;
  benefitPairs: number;
  /** Paired bootstrap interval of mean(test pass A - test pass B) over the pairs; null without pairs. */
  testPassDifference: BootstrapInterval | null;
}

/** One McNemar test of the family. */
export interface ComparisonTestRow {
  subject: string;
  /** Null under the pooled family (all benchmarks). */
  benchmark: string | null;
  pairs: number;
  b: number;
  c: number;
  p: number;
  log10P: number;
  pAdjusted: number | null;
  testPassDifference: BootstrapInterval | null;
}

export interface ComparisonPairRow {
  subject: string;
  group: string | null;
  benchmark: string;
  suite: string;
  task: string;
  repetition: number;
  executionA: string | null;
  executionB: string | null;
}

export interface BenefitPair extends ComparisonPairRow {
  reasons: BenefitReason[];
}

export interface DiscordantPair extends ComparisonPairRow {
  /** Which side alone resolved: A (counted in b) or B (in c). */
  resolvedBy: 'A' | 'B';
}

export interface Comparison {
  spec: ComparisonSpec;
  options: { family: ComparisonFamily; resamples: number; seed: number; successRules: Record<string, SuccessRule> };
  /** Display names of the two sides: the modes, or the agents. */
  sideA: string;
  sideB: string;
  inputs: {
    /** Executions on side A or B. */
    executions: number;
    subjects: string[];
    benchmarks: string[];
    pairs: number;
    unpaired: number;
    duplicates: number;
  };
  benchmarks: ComparisonBenchmarkRow[];
  tests: ComparisonTestRow[];
  family: { correction: 'holm'; family: ComparisonFamily; description: string; m: number };
  discordantPairs: DiscordantPair[];
  benefitPairs: BenefitPair[];
  differenceBySize: SizeDifference[];
}
