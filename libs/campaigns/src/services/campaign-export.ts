import { toMetricsExecution, type ExecutionRecord } from '#libs/contracts';
import { buildReport, type Report } from '#libs/metrics';
import type { DataSource } from 'typeorm';
import { ExecutionEntity, type CampaignEntity } from '../entities/index.js';
import { executionToRecord } from '../import/execution-record.mapper.js';

const PAGE = 2_000;

/** An execution with a result as a record; one without a trajectory (an infrastructure failure) gets a zero-length main span. */
export function resultRecord(row: ExecutionEntity): ExecutionRecord | null {
  if (row.outcome === null || row.agents !== null) return executionToRecord(row);
  const at = (row.finishedAt ?? row.updatedAt).toISOString();
  return executionToRecord({ ...row, agents: [{ id: 'main', parentId: null, start: at, end: at }] });
}

/**
 * A campaign's executions with a result, as execution records (the JSONL
 * users import and `fanout report --input` reads), in a stable order. An
 * infrastructure failure that never produced a trajectory gets a zero-length
 * main agent span, so it still counts (as 0) in every denominator.
 */
export async function* exportCampaignRecords(dataSource: DataSource, campaignId: string): AsyncGenerator<ExecutionRecord> {
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows = await dataSource
      .getRepository(ExecutionEntity)
      .createQueryBuilder('e')
      .where('e.campaignId = :campaignId AND e.id > :after AND e.outcome IS NOT NULL', { campaignId, after })
      .orderBy('e.id')
      .limit(PAGE)
      .getMany();
    for (const row of rows) {
      const record = resultRecord(row);
      if (record) yield record;
    }
    if (rows.length < PAGE) return;
    after = rows.at(-1)!.id;
  }
}

export interface CampaignReportOptions {
  modeA: string;
  modeB: string;
  permutations: number;
  seed: number;
}

/**
 * The study's report of a campaign: libs/metrics on exactly the records
 * `exportCampaignRecords` yields, with the pinned benchmarks' success rules.
 * Only non-default rules are passed, so the report equals `fanout report
 * --input` of the export, option for option.
 */
export async function buildCampaignReport(dataSource: DataSource, campaign: CampaignEntity, options: CampaignReportOptions): Promise<Report> {
  const executions = [];
  for await (const record of exportCampaignRecords(dataSource, campaign.id)) executions.push(toMetricsExecution(record));
  const rules: { key: string }[] = await dataSource.query(
    `SELECT DISTINCT key FROM benchmark_versions WHERE id = ANY($1::uuid[]) AND success_rule = 'testPassAboveZero'`,
    [campaign.plan.benchmarks.map((b) => b.benchmarkVersionId)],
  );
  const successRules = Object.fromEntries(rules.map((r) => [r.key, 'testPassAboveZero' as const]));
  return buildReport(executions, { ...options, successRules });
}
