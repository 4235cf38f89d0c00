import type { Difficulty, SuccessRule } from '../execution.types.js';
import type { DelegationAggregate } from '../delegation.metrics.js';
import type { BenefitReason, SizeDifference } from '../paired.metrics.js';

export interface ReportOptions {
  /** Mode A of the paired comparison (default "concurrent"); delegation metrics are computed on it. */
  modeA?: string;
  /** Mode B (default "sequential"). */
  modeB?: string;
  /** Permutations per Spearman test (default 10,000). */
  permutations?: number;
  /** Seed of the permutation streams (default 1). */
  seed?: number;
  /** Benchmarks that declare a success rule other than "resolved". */
  successRules?: Readonly<Record<string, SuccessRule>>;
}

export interface OutcomeRow {
  agent: string;
  benchmark: string;
  mode: string;
  n: number;
  resolved: number;
  taskPass: number | null;
  taskPassLower: number | null;
  taskPassUpper: number | null;
  testPass: number | null;
  shellCalls: number | null;
  minutes: number | null;
  tokensMillions: number | null;
  costUsd: number | null;
  tokensPerSolved: number | null;
  costPerSolved: number | null;
  infraFailed: number;
  noTests: number;
}

export interface McNemarRow {
  agent: string;
  pairs: number;
  b: number;
  c: number;
  p: number;
  log10P: number;
  pAdjusted: number | null;
}

export interface PairedBenchmarkRow {
  agent: string;
  benchmark: string;
  pairs: number;
  b: number;
  c: number;
  /** Exact McNemar p of this benchmark alone, not part of any corrected family. */
  pUnadjusted: number;
}

export interface UniqueSuccessRow {
  agent: string;
  benchmark: string;
  successRule: SuccessRule;
  /** Pairs where only A succeeded / only B succeeded. */
  a: number;
  b: number;
}

export interface SpeedRow {
  agent: string;
  benchmark: string;
  bothSolved: number;
  aFaster: number;
  aFasterShare: number | null;
  aFaster20: number;
  aFaster20Share: number | null;
}

export interface BenefitPairRow {
  agent: string;
  benchmark: string;
  suite: string;
  task: string;
  repetition: number;
  reasons: BenefitReason[];
}

/** The aggregate of one agent x benchmark x mode x difficulty group. */
export interface DelegationRow extends DelegationAggregate {
  agent: string;
  benchmark: string;
  mode: string;
  difficulty: Difficulty;
}

export interface NeverOverlappingRow {
  agent: string;
  mode: string;
  n: number;
  neverOverlapping: number;
  rate: number | null;
}

export type DelegationVariable = 'created' | 'peak';

export interface SpearmanRow {
  agent: string;
  benchmark: string;
  variable: DelegationVariable;
  n: number;
  rho: number | null;
  p: number | null;
  pAdjusted: number | null;
}

export interface TestFamily<M> {
  correction: 'holm';
  description: string;
  m: number;
  members: M[];
}

export interface Report {
  options: Required<Omit<ReportOptions, 'successRules'>> & { successRules: Record<string, SuccessRule> };
  inputs: {
    executions: number;
    agents: string[];
    benchmarks: string[];
    modes: string[];
    pairs: number;
    unpaired: number;
    duplicates: number;
  };
  outcomes: OutcomeRow[];
  mcnemar: McNemarRow[];
  pairedByBenchmark: PairedBenchmarkRow[];
  uniqueSuccesses: UniqueSuccessRow[];
  bothSolvedSpeed: SpeedRow[];
  benefitPairs: BenefitPairRow[];
  differenceBySize: SizeDifference[];
  delegation: DelegationRow[];
  neverOverlapping: NeverOverlappingRow[];
  spearman: SpearmanRow[];
  familyOfTests: {
    mcnemar: TestFamily<{ agent: string }>;
    spearman: TestFamily<{ agent: string; benchmark: string; variable: DelegationVariable }>;
  };
}
