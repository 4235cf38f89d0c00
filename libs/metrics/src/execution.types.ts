/** Difficulty groups are ordered: easy < medium < hard (scored 1, 2, 3). */
export type Difficulty = 'easy' | 'medium' | 'hard';

export const DIFFICULTIES: readonly Difficulty[] = ['easy', 'medium', 'hard'];

export const DIFFICULTY_SCORE: Readonly<Record<Difficulty, number>> = { easy: 1, medium: 2, hard: 3 };

export type ExecutionOutcome = 'completed' | 'infra_failed';

/**
 * Token counts of one execution in the metrics convention: `input` includes
 * cached reads and writes, `output` includes reasoning.
 */
export interface TokenCounts {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  reasoning: number;
}

/** One agent context: the main agent has `parentId === null`. Times are epoch milliseconds. */
export interface AgentSpan {
  id: string;
  parentId: string | null;
  start: number;
  end: number;
}

/** One run of one agent config, in one mode, on one task, at one repetition index. */
export interface Execution {
  agent: string;
  model?: string;
  benchmark: string;
  suite: string;
  task: string;
  difficulty: Difficulty;
  mode: string;
  repetition: number;
  outcome: ExecutionOutcome;
  testsPassed: number;
  testsTotal: number;
  resolved: boolean;
  wallSeconds: number;
  shellCalls: number;
  tokens: TokenCounts;
  costUsd: number;
  referenceKloc?: number | null;
  agents: readonly AgentSpan[];
}

/**
 * How a benchmark defines "success" for the unique-successes view.
 * `resolved` is the default; `testPassAboveZero` is for benchmarks where no
 * task was ever fully solved. Task pass always uses `resolved`.
 */
export type SuccessRule = 'resolved' | 'testPassAboveZero';
