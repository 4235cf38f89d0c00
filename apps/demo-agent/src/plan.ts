import { readFileSync } from 'node:fs';

/**
 * The reference plan a fanout-mini task ships in its workspace as
 * `.demo-plan.json` (generated from the task's reference solution by
 * benchmarks/fanout-mini/tools/build-tasks.mjs). It is the demo agent's
 * knowledge of the task: what to write where, in which order, at what effort.
 */
export interface PlanStep {
  id: string;
  /** Workspace-relative file the step writes (steps may share a file). */
  file: string;
  /** The code the step writes between `// @step <id>` and `// @end`. */
  fragment: string;
  dependsOn: string[];
  /** Work units: model time and output tokens scale with it. */
  effort: number;
  summary?: string;
}

export type Difficulty = 'easy' | 'medium' | 'hard';

export interface Plan {
  task: string;
  difficulty: Difficulty;
  instruction: string;
  /** Workspace folder of the visible tests, or null. */
  checks: string | null;
  steps: PlanStep[];
}

export function parsePlan(text: string): Plan {
  const raw = JSON.parse(text) as Partial<Plan>;
  if (!Array.isArray(raw.steps) || typeof raw.task !== 'string') throw new Error('not a demo plan: expected { task, steps: [...] }');
  const difficulty: Difficulty = raw.difficulty === 'easy' || raw.difficulty === 'hard' ? raw.difficulty : 'medium';
  const steps = raw.steps.map((s, i): PlanStep => {
    if (typeof s?.id !== 'string' || typeof s.file !== 'string' || typeof s.fragment !== 'string') throw new Error(`plan step ${i}: expected id, file and fragment`);
    return { id: s.id, file: s.file, fragment: s.fragment, dependsOn: Array.isArray(s.dependsOn) ? s.dependsOn : [], effort: Math.max(1, Number(s.effort) || 1), summary: s.summary };
  });
  const ids = new Set(steps.map((s) => s.id));
  for (const s of steps) for (const d of s.dependsOn) if (!ids.has(d)) throw new Error(`plan step ${s.id} depends on unknown step ${d}`);
  topoOrder(steps);
  return { task: raw.task, difficulty, instruction: raw.instruction ?? '', checks: raw.checks ?? null, steps };
}

export function loadPlan(path: string): Plan {
  return parsePlan(readFileSync(path, 'utf8'));
}

/** Dependency order, ties broken by plan order (stable); throws on a cycle. */
export function topoOrder(steps: readonly PlanStep[]): PlanStep[] {
  const inScope = new Set(steps.map((s) => s.id));
  const pending = new Map(steps.map((s) => [s.id, s.dependsOn.filter((d) => inScope.has(d)).length]));
  const done = new Set<string>();
  const out: PlanStep[] = [];
  while (out.length < steps.length) {
    const next = steps.find((s) => !done.has(s.id) && pending.get(s.id) === 0);
    if (!next) throw new Error(`plan has a dependency cycle among ${steps.filter((s) => !done.has(s.id)).map((s) => s.id).join(', ')}`);
    done.add(next.id);
    out.push(next);
    for (const s of steps) if (s.dependsOn.includes(next.id)) pending.set(s.id, (pending.get(s.id) ?? 0) - 1);
  }
  return out;
}

export interface Partition {
  /** One group per sub-agent, each in dependency order. */
  groups: PlanStep[][];
  /** Steps the main agent keeps for integration: joins and what follows them. */
  joins: PlanStep[];
}

/**
 * How the concurrent main agent splits the plan. A step that depends on two
 * or more steps is a join: it needs several lines of work merged, so the main
 * agent keeps it (and everything after it) for integration. The remaining
 * steps have at most one dependency each, so they form trees; each tree is
 * independent work. Trees go to sub-agents, at most `width` of them: with
 * more trees than that, the biggest trees are placed first, each into the
 * least-loaded group (by effort). Nothing looks at files: two trees that
 * write the same file land in different groups and will race.
 */
export function partition(steps: readonly PlanStep[], width: number): Partition {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const joinIds = new Set<string>();
  const order = topoOrder(steps);
  for (const s of order) if (s.dependsOn.length >= 2 || s.dependsOn.some((d) => joinIds.has(d))) joinIds.add(s.id);
  const rootOf = (s: PlanStep): string => (s.dependsOn.length === 0 ? s.id : rootOf(byId.get(s.dependsOn[0])!));
  const trees = new Map<string, PlanStep[]>();
  for (const s of order) {
    if (joinIds.has(s.id)) continue;
    const root = rootOf(s);
    if (!trees.has(root)) trees.set(root, []);
    trees.get(root)!.push(s);
  }
  const effort = (list: readonly PlanStep[]) => list.reduce((sum, s) => sum + s.effort, 0);
  const list = [...trees.values()];
  const bins = Math.max(1, Math.min(Math.floor(width) || 1, list.length));
  const groups: PlanStep[][] = Array.from({ length: bins }, () => []);
  const sorted = [...list].sort((a, b) => effort(b) - effort(a));
  for (const tree of sorted) {
    let best = 0;
    for (let i = 1; i < groups.length; i++) if (effort(groups[i]) < effort(groups[best])) best = i;
    groups[best].push(...tree);
  }
  const position = new Map(order.map((s, i) => [s.id, i]));
  for (const g of groups) g.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
  const used = groups.filter((g) => g.length > 0).sort((a, b) => position.get(a[0].id)! - position.get(b[0].id)!);
  return { groups: used, joins: order.filter((s) => joinIds.has(s.id)) };
}
