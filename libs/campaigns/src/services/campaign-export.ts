import type { ExecutionRecord } from '#libs/contracts';
import type { DataSource } from 'typeorm';
import { ExecutionEntity } from '../entities/index.js';
import { executionToRecord } from '../import/execution-record.mapper.js';

const PAGE = 2_000;

/** An execution with a result as a record; one without a trajectory (an infrastructure failure) gets a zero-length main span. */
export function resultRecord(row: ExecutionEntity): ExecutionRecord | null {
  if (row.outcome !== null && row.agents === null) {
    const at = (row.finishedAt ?? row.updatedAt).toISOString();
    row.agents = [{ id: 'main', parentId: null, start: at, end: at }];
  }
  return executionToRecord(row);
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
