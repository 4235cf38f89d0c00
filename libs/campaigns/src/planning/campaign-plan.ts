/** What a campaign pinned and sampled; stored with it and shown by planCampaign. */
export interface CampaignPlan {
  agents: { name: string; agentConfigVersionId: string; version: number; model: string }[];
  modes: string[];
  benchmarks: {
    key: string;
    benchmarkVersionId: string;
    version: string;
    suite: string | null;
    selection: { fraction: number } | { tasks: string[] };
    /** The study's Table 1: per difficulty, group size and sampled count. */
    strata: { difficulty: 'easy' | 'medium' | 'hard'; available: number; sampled: number }[];
    sampledTasks: number;
  }[];
  repetitions: number;
  seed: number;
  timeBudgetMinutes: number | null;
  executionCount: number;
  estimate: CostEstimate;
}

export interface CostEstimate {
  /** Dollars, rounded to cents; null where nothing could be estimated. */
  lowUsd: number | null;
  expectedUsd: number | null;
  highUsd: number | null;
  /** One line per (model, benchmark): where the number came from. */
  basis: { model: string; benchmark: string; executions: number; source: 'history' | 'hint' | 'none'; detail: string }[];
}
