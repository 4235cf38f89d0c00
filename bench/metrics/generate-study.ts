import { mulberry32, type Prng } from '#libs/metrics';
import { closeSync, openSync, writeSync } from 'node:fs';

/** The study's shape: 354 tasks over 5 benchmarks (one with two suites), 3 agents, 2 modes. */
const BENCHMARKS = [
  { benchmark: 'repo-rebuild', suite: 'python', tasks: 70, kloc: [10, 60] },
  { benchmark: 'repo-rebuild', suite: 'typescript', tasks: 50, kloc: [10, 60] },
  { benchmark: 'feature-bench', suite: 'main', tasks: 80, kloc: [2, 15] },
  { benchmark: 'bugfix-bench', suite: 'main', tasks: 64, kloc: [0.5, 5] },
  { benchmark: 'perf-bench', suite: 'main', tasks: 40, kloc: [1, 8] },
  // no task is ever fully solved here, as in the study: use --success spec-impl=testPassAboveZero
  { benchmark: 'spec-impl', suite: 'main', tasks: 50, kloc: [20, 120] },
] as const;
const AGENTS = [
  { agent: 'codex', model: 'gpt-5-codex', skill: 0.55 },
  { agent: 'claude-code', model: 'claude-sonnet-4-5', skill: 0.6 },
  { agent: 'kimi-code', model: 'kimi-k2', skill: 0.45 },
] as const;
const MODES = ['concurrent', 'sequential'] as const;
const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;
const START = Date.UTC(2025, 5, 1);

export const STUDY_TASKS = BENCHMARKS.reduce((n, b) => n + b.tasks, 0);

interface Task {
  benchmark: string;
  suite: string;
  task: string;
  difficulty: (typeof DIFFICULTIES)[number];
  referenceKloc: number;
  solvable: boolean;
}

function tasks(prng: Prng): Task[] {
  const list: Task[] = [];
  for (const b of BENCHMARKS) {
    for (let i = 0; i < b.tasks; i++) {
      const u = prng.nextFloat();
      list.push({
        benchmark: b.benchmark,
        suite: b.suite,
        task: `${b.suite}-${String(i).padStart(3, '0')}`,
        difficulty: u < 0.4 ? 'easy' : u < 0.85 ? 'medium' : 'hard',
        referenceKloc: Math.round((b.kloc[0] + (b.kloc[1] - b.kloc[0]) * prng.nextFloat()) * 10) / 10,
        solvable: b.benchmark !== 'spec-impl',
      });
    }
  }
  return list;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

interface Span {
  id: string;
  parentId: string | null;
  start: string;
  end: string;
}

function subAgents(prng: Prng, mode: string, level: number, t0: number, wallMs: number): Span[] {
  const spans: Span[] = [{ id: 'main', parentId: null, start: iso(t0), end: iso(t0 + wallMs) }];
  if (mode === 'concurrent') {
    // 5 to 150 sub-agents, log-uniform, more for harder tasks; about 1 in 5 spawned by another sub-agent
    const u = Math.min(1, prng.nextFloat() * 0.8 + level * 0.1);
    const created = Math.round(5 * 30 ** u);
    for (let i = 0; i < created; i++) {
      const start = t0 + Math.floor(prng.nextFloat() * wallMs * 0.8);
      const end = Math.min(t0 + wallMs, start + Math.floor(wallMs * (0.02 + 0.2 * prng.nextFloat())));
      const nested = i > 0 && prng.nextFloat() < 0.2;
      spans.push({ id: `sub-${i}`, parentId: nested ? `sub-${prng.nextInt(i)}` : 'main', start: iso(start), end: iso(end) });
    }
  } else {
    // a few sub-agents, one after another (touching, never overlapping)
    const created = prng.nextInt(4);
    let at = t0 + Math.floor(wallMs * 0.1);
    for (let i = 0; i < created; i++) {
      const end = at + Math.floor(wallMs * 0.15);
      spans.push({ id: `sub-${i}`, parentId: 'main', start: iso(at), end: iso(end) });
      at = end;
    }
  }
  return spans;
}

function line(prng: Prng, agent: (typeof AGENTS)[number], task: Task, mode: string, repetition: number): string {
  const level = DIFFICULTIES.indexOf(task.difficulty);
  const infraFailed = prng.nextFloat() < 0.01;
  const chance = task.solvable ? agent.skill * (1 - 0.3 * level) + (mode === 'concurrent' ? 0.04 : 0) : 0;
  const resolved = !infraFailed && prng.nextFloat() < chance;
  const testsTotal = 20 + prng.nextInt(380);
  const testsPassed = infraFailed ? 0 : resolved ? testsTotal : Math.floor(testsTotal * prng.nextFloat() * 0.9);
  const wallSeconds = Math.round((600 + 2400 * level + 3000 * prng.nextFloat()) * (mode === 'concurrent' ? 0.8 : 1) * 10) / 10;
  const input = 1_000_000 + prng.nextInt(30_000_000);
  const cacheRead = Math.floor(input * 0.7 * prng.nextFloat());
  const output = 20_000 + prng.nextInt(400_000);
  const t0 = START + prng.nextInt(30 * 86_400) * 1000;
  return JSON.stringify({
    agent: agent.agent,
    model: agent.model,
    benchmark: task.benchmark,
    suite: task.suite,
    task: task.task,
    difficulty: task.difficulty,
    mode,
    repetition,
    outcome: infraFailed ? 'infra_failed' : 'completed',
    testsPassed,
    testsTotal,
    resolved,
    wallSeconds,
    shellCalls: 30 + prng.nextInt(500),
    usage: { inputTokens: input, cacheReadTokens: cacheRead, cacheWriteTokens: Math.floor((input - cacheRead) * 0.1), outputTokens: output, reasoningTokens: Math.floor(output * 0.6) },
    costUsd: Math.round(((input - cacheRead) * 1.25 + cacheRead * 0.125 + output * 10) / 10_000) / 100,
    referenceKloc: task.referenceKloc,
    agents: subAgents(prng, mode, level, t0, wallSeconds * 1000),
  });
}

export interface GeneratedStudy {
  executions: number;
  subAgents: number;
  bytes: number;
}

/** Writes the study (repetitions x 354 tasks x 3 agents x 2 modes) as JSONL, deterministically. */
export function writeStudy(file: string, repetitions: number, seed = 2025): GeneratedStudy {
  const prng = mulberry32(seed);
  const taskList = tasks(prng);
  const fd = openSync(file, 'w');
  let executions = 0;
  let bytes = 0;
  let subAgentCount = 0;
  try {
    for (let repetition = 0; repetition < repetitions; repetition++) {
      const chunk: string[] = [];
      for (const agent of AGENTS) {
        for (const task of taskList) {
          for (const mode of MODES) {
            const text = line(prng, agent, task, mode, repetition);
            subAgentCount += (text.match(/"parentId":"/g) ?? []).length;
            chunk.push(text);
            executions++;
          }
        }
      }
      const data = `${chunk.join('\n')}\n`;
      bytes += Buffer.byteLength(data);
      writeSync(fd, data);
    }
  } finally {
    closeSync(fd);
  }
  return { executions, subAgents: subAgentCount, bytes };
}
