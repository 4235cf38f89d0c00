import { DomainException } from '#libs/common';
import { toMetricsExecution } from '#libs/contracts';
import { paretoFront, summariseOutcomes, type OutcomeSummary } from '#libs/metrics';
import type { DataSource } from 'typeorm';
import { ExecutionEntity } from '../entities/index.js';
import { executionToRecord } from '../import/execution-record.mapper.js';

/** What a board reads of an execution: identity, grouping and the outcome metrics' inputs. */
const LEAN_COLUMNS = [
  'id', 'campaignId', 'agentConfigVersionId', 'agentName', 'model', 'mode', 'benchmarkKey', 'suiteKey', 'taskKey', 'difficulty', 'repetition',
  'outcome', 'testsPassed', 'testsTotal', 'resolved', 'wallSeconds', 'shellCalls',
  'inputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'outputTokens', 'reasoningTokens', 'costMicros', 'referenceKloc',
] as const;

export interface LeaderboardQuery {
  benchmark: string;
  /** A version string; the latest public version when omitted. */
  version?: string | null;
  suite?: string | null;
  mode?: string | null;
  difficulty?: 'easy' | 'medium' | 'hard' | null;
}

export interface LeaderboardRow extends OutcomeSummary {
  agent: string;
  agentVersion: number;
  agentConfigVersionId: string;
  model: string;
  mode: string;
  /** Mean cost times n. */
  totalCostUsd: number;
  onParetoFront: boolean;
  campaigns: { id: string; name: string }[];
}

export interface Leaderboard {
  benchmark: string;
  version: string;
  benchmarkVersionId: string;
  rows: LeaderboardRow[];
}

/** The public benchmark version a board shows: the given version, or the latest public one. NOT_FOUND when there is none. */
export async function resolvePublicVersion(dataSource: DataSource, benchmark: string, version?: string | null): Promise<{ id: string; version: string }> {
  const versions: { id: string; version: string }[] = await dataSource.query(
    `SELECT id, version FROM benchmark_versions WHERE key = $1 AND visibility = 'public' AND ($2::text IS NULL OR version = $2) ORDER BY seq DESC, created_at DESC LIMIT 1`,
    [benchmark, version ?? null],
  );
  if (!versions[0]) throw DomainException.notFound('public benchmark', version ? `${benchmark} ${version}` : benchmark);
  return versions[0];
}

/**
 * A public board: executions with a result, of public campaigns only, on one
 * public benchmark version; one row per agent config version x mode, every
 * figure from libs/metrics (outcomes, Wilson interval, Pareto front of mean
 * cost vs task pass). Rows sorted by task pass, then cost. Only the columns
 * the outcome metrics read are loaded (no spans), so a board over 100,000
 * executions stays a single lean scan.
 */
export async function publicLeaderboard(dataSource: DataSource, query: LeaderboardQuery, pinned?: { id: string; version: string }): Promise<Leaderboard> {
  pinned ??= await resolvePublicVersion(dataSource, query.benchmark, query.version);
  const qb = dataSource
    .getRepository(ExecutionEntity)
    .createQueryBuilder('e')
    .select(LEAN_COLUMNS.map((c) => `e.${c}`))
    .innerJoin('campaigns', 'c', `c.id = e.campaign_id AND c.visibility = 'public'`)
    .where('e.benchmarkVersionId = :version AND e.outcome IS NOT NULL', { version: pinned.id });
  if (query.suite) qb.andWhere('e.suiteKey = :suite', { suite: query.suite });
  if (query.mode) qb.andWhere('e.mode = :mode', { mode: query.mode });
  if (query.difficulty) qb.andWhere('e.difficulty = :difficulty', { difficulty: query.difficulty });
  // Ordered as the export orders records, so sums are added in the same order: the same bits as `fanout report`.
  const rows = await qb.orderBy('e.id').getMany();
  for (const row of rows) row.agents = [];

  const groups = new Map<string, ExecutionEntity[]>();
  for (const row of rows) {
    const key = `${row.agentConfigVersionId}\u0000${row.mode}`;
    (groups.get(key) ?? groups.set(key, []).get(key)!).push(row);
  }
  const agentVersions = new Map<string, number>(
    (await dataSource.query('SELECT id, version FROM agent_config_versions WHERE id = ANY($1::uuid[])', [[...new Set(rows.map((r) => r.agentConfigVersionId))]])).map(
      (v: { id: string; version: number }) => [v.id, v.version],
    ),
  );
  const campaignNames = new Map<string, string>(
    (await dataSource.query('SELECT id, name FROM campaigns WHERE id = ANY($1::uuid[])', [[...new Set(rows.map((r) => r.campaignId))]])).map(
      (c: { id: string; name: string }) => [c.id, c.name],
    ),
  );
  const board = [...groups.values()].map((group) => {
    const first = group[0]!;
    const summary = summariseOutcomes(group.map((row) => toMetricsExecution(executionToRecord(row)!)));
    return {
      ...summary,
      agent: first.agentName,
      agentVersion: agentVersions.get(first.agentConfigVersionId) ?? 0,
      agentConfigVersionId: first.agentConfigVersionId,
      model: first.model,
      mode: first.mode,
      totalCostUsd: (summary.costUsd ?? 0) * summary.n,
      onParetoFront: false,
      campaigns: [...new Set(group.map((r) => r.campaignId))].sort().map((id) => ({ id, name: campaignNames.get(id) ?? '' })),
    };
  });
  paretoFront(board.map((r) => ({ cost: r.costUsd, pass: r.taskPass }))).forEach((on, i) => (board[i]!.onParetoFront = on));
  board.sort((a, b) => (b.taskPass ?? -1) - (a.taskPass ?? -1) || (a.costUsd ?? Infinity) - (b.costUsd ?? Infinity) || a.agent.localeCompare(b.agent) || a.mode.localeCompare(b.mode));
  return { benchmark: query.benchmark, version: pinned.version, benchmarkVersionId: pinned.id, rows: board };
}
