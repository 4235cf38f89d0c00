import { requireOrgId } from '#libs/database';
import { ModelPriceEntity } from '#libs/metering';
import type { DataSource } from 'typeorm';
import type { CostEstimate } from './campaign-plan.js';

export interface EstimateUnit {
  model: string;
  benchmark: string;
  expectedTokens: number | null;
}

/** Share of a token hint priced as output; the rest as uncached input (see docs/campaigns.md). */
const HINT_OUTPUT_SHARE = 0.05;
const HINT_RANGE = { low: 0.5, high: 2 };
const MIN_HISTORY = 3;
const Z95 = 1.959964;

interface History {
  k: number;
  mean: number;
  sd: number;
}

/**
 * Cost estimate of a set of planned executions, per (model, benchmark):
 * from the org's completed executions of the same model and benchmark when
 * there are at least three (expected n·μ, 95% range n·μ ± z(√n·σ + n·σ/√k):
 * the spread of n new runs plus the uncertainty of μ), else from the tasks'
 * token hints at the model's price (range ×0.5 to ×2: a hint is an order of
 * magnitude). Units with neither are counted and named, never priced at 0.
 */
export async function estimateCost(dataSource: DataSource, orgId: string, units: EstimateUnit[], at: Date): Promise<CostEstimate> {
  const groups = new Map<string, EstimateUnit[]>();
  for (const unit of units) {
    const key = `${unit.model}\u0000${unit.benchmark}`;
    const list = groups.get(key);
    if (list) list.push(unit);
    else groups.set(key, [unit]);
  }
  let low = 0;
  let expected = 0;
  let high = 0;
  let estimated = 0;
  const basis: CostEstimate['basis'] = [];
  for (const list of groups.values()) {
    const { model, benchmark } = list[0]!;
    const n = list.length;
    const history = await historyOf(dataSource, orgId, model, benchmark);
    if (history && history.k >= MIN_HISTORY) {
      const mu = history.mean / 1e6;
      const sigma = history.sd / 1e6;
      const half = Z95 * (Math.sqrt(n) * sigma + (n * sigma) / Math.sqrt(history.k));
      expected += n * mu;
      low += Math.max(0, n * mu - half);
      high += n * mu + half;
      estimated += n;
      basis.push({ model, benchmark, executions: n, source: 'history', detail: `mean $${mu.toFixed(4)} over ${history.k} completed executions of this model on this benchmark` });
      continue;
    }
    const price = await priceOf(dataSource, orgId, model, at);
    const hinted = list.filter((u) => u.expectedTokens != null);
    if (!price || hinted.length === 0) {
      basis.push({
        model,
        benchmark,
        executions: n,
        source: 'none',
        detail: !price ? `no price for model ${model} and no completed executions to learn from` : 'no completed executions and no expectedTokens hints on these tasks',
      });
      continue;
    }
    const perToken = ((1 - HINT_OUTPUT_SHARE) * price.inputMicrosPerMTok + HINT_OUTPUT_SHARE * price.outputMicrosPerMTok) / 1e6 / 1e6;
    const cost = hinted.reduce((sum, u) => sum + u.expectedTokens! * perToken, 0);
    expected += cost;
    low += cost * HINT_RANGE.low;
    high += cost * HINT_RANGE.high;
    estimated += hinted.length;
    const missing = n - hinted.length;
    basis.push({
      model,
      benchmark,
      executions: hinted.length,
      source: 'hint',
      detail: `task token hints at ${model} prices (95% input, 5% output), range x0.5 to x2${price.note ? `; ${price.note}` : ''}${missing ? `; ${missing} executions have no hint and are not counted` : ''}`,
    });
    if (missing) basis.push({ model, benchmark, executions: missing, source: 'none', detail: 'tasks without an expectedTokens hint' });
  }
  const cents = (v: number) => Math.round(v * 100) / 100;
  return estimated === 0 ? { lowUsd: null, expectedUsd: null, highUsd: null, basis } : { lowUsd: cents(low), expectedUsd: cents(expected), highUsd: cents(high), basis };
}

async function historyOf(dataSource: DataSource, orgId: string, model: string, benchmark: string): Promise<History | null> {
  const [row] = await dataSource.query(
    `SELECT count(*)::int AS k, avg(cost_micros)::float8 AS mean, coalesce(stddev_samp(cost_micros), 0)::float8 AS sd
       FROM executions WHERE org_id = $1 AND model = $2 AND benchmark_key = $3 AND status = 'completed' AND cost_micros IS NOT NULL`,
    [requireOrgId(orgId), model, benchmark],
  );
  return row && row.k > 0 ? { k: row.k, mean: row.mean, sd: row.sd } : null;
}

/** The org's own price in force at `at`, else the platform default. */
async function priceOf(dataSource: DataSource, orgId: string, model: string, at: Date): Promise<ModelPriceEntity | null> {
  return dataSource
    .getRepository(ModelPriceEntity)
    .createQueryBuilder('p')
    .where('p.model = :model AND p.effectiveFrom <= :at AND (p.orgId = :orgId OR p.orgId IS NULL)', { model, at, orgId })
    .orderBy('p.orgId IS NULL', 'ASC')
    .addOrderBy('p.effectiveFrom', 'DESC')
    .getOne();
}
