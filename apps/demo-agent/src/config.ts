import { join } from 'node:path';

/** Everything the demo agent reads from its environment (docs/demo.md "Knobs"). */
export interface DemoConfig {
  workspace: string;
  eventsFile: string | undefined;
  seed: number;
  /** Epoch ms when the runner kills the agent, or null. */
  deadline: number | null;
  concurrent: boolean;
  width: number;
  unitMs: number;
  /** Chance (seeded per execution) that the main agent has a checker sub-agent verify its result: on = 1, off = 0. */
  checker: number;
  planPath: string;
  /** Multiplies every step's mistake probability (0: never wrong). */
  mistakeScale: number;
  /** Share of edits that rewrite the whole file from the agent's earlier read (racy) rather than patch it as it is. */
  rewriteShare: number;
  /** How long the main agent blocks in one wait for its sub-agents, in units. */
  waitUnits: number;
}

function on(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return ['on', '1', 'true', 'yes'].includes(value.toLowerCase());
}

function number(value: string | undefined, fallback: number, min: number, max: number): number {
  const n = value === undefined || value === '' ? NaN : Number(value);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
}

function checkerChance(value: string | undefined): number {
  const flag = on(value);
  if (flag === undefined) return 0;
  const n = Number(value);
  if (Number.isFinite(n)) return Math.min(1, Math.max(0, n));
  return flag ? 1 : 0;
}

export function readConfig(env: NodeJS.ProcessEnv, cwd: string): DemoConfig {
  const workspace = env.FANOUT_WORKSPACE || cwd;
  const deadline = env.FANOUT_DEADLINE ? Date.parse(env.FANOUT_DEADLINE) : NaN;
  return {
    workspace,
    eventsFile: env.FANOUT_EVENTS_FILE || undefined,
    seed: Math.trunc(number(env.FANOUT_SEED, 0, -(2 ** 53), 2 ** 53)),
    deadline: Number.isFinite(deadline) ? deadline : null,
    concurrent: on(env.DEMO_CONCURRENCY) ?? env.FANOUT_MODE === 'concurrent',
    width: Math.trunc(number(env.DEMO_FANOUT_WIDTH, 4, 1, 64)),
    unitMs: number(env.DEMO_UNIT_MS, 80, 0, 60_000),
    checker: checkerChance(env.DEMO_CHECKER),
    planPath: env.DEMO_PLAN || join(workspace, '.demo-plan.json'),
    mistakeScale: number(env.DEMO_MISTAKE_SCALE, 1, 0, 1000),
    waitUnits: number(env.DEMO_WAIT_UNITS, 25, 1, 10_000),
    rewriteShare: number(env.DEMO_REWRITE, 0.4, 0, 1),
  };
}
