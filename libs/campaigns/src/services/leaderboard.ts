import { DomainException } from '#libs/common';
import { toMetricsExecution } from '#libs/contracts';
import { paretoFront, summariseOutcomes, type OutcomeSummary } from '#libs/metrics';
import type { DataSource } from 'typeorm';
import { ExecutionEntity } from '../entities/index.js';
import { resultRecord } from './campaign-export.js';

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

/**
 * A public board: executions with a result, of public campaigns only, on one
 * public benchmark version; one row per agent config version x mode, every
 * figure from libs/metrics (outcomes, Wilson interval, Pareto front of mean
 * cost vs task pass). Rows sorted by task pass, then cost.
 */
export async function publicLeaderboard(dataSource: DataSource, query: LeaderboardQuery): Promise<Leaderboard> {
  const versions: { id: string; version: string }[] = await dataSource.query(
    `SELECT id, version FROM benchmark_versions WHERE key = $1 AND visibility = 'public' AND ($2::text IS NULL OR version = $2) ORDER BY seq DESC, created_at DESC LIMIT 1`,
    [query.benchmark, query.version ?? null],
  );
  const pinned = versions[0];
  if (!pinned) throw DomainException.notFound('public benchmark', query.version ? `${query.benchmark} ${query.version}` : query.benchmark);
  const qb = dataSource
    .getRepository(ExecutionEntity)
    .createQueryBuilder('e')
    .innerJoin('campaigns', 'c', `c.id = e.campaign_id AND c.visibility = 'public'`)
    .where('e.benchmarkVersionId = :version AND e.outcome IS NOT NULL', { version: pinned.id });
  if (query.suite) qb.andWhere('e.suiteKey = :suite', { suite: query.suite });
  if (query.mode) qb.andWhere('e.mode = :mode', { mode: query.mode });
  if (query.difficulty) qb.andWhere('e.difficulty = :difficulty', { difficulty: query.difficulty });
  // Ordered as the export orders records, so sums are added in the same order: the same bits as `fanout report`.
  const rows = await qb.orderBy('e.id').getMany();

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
    const summary = summariseOutcomes(group.map((row) => toMetricsExecution(resultRecord(row)!)));
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
