import { DomainException, ErrorCode } from '#libs/common';
import { requireOrgId } from '#libs/database';
import type { DataSource } from 'typeorm';
import type { ResultColumns } from './record-columns.js';

export interface BatchRow {
  id: string;
  columns: ResultColumns;
}

/** Why a row of a batch was not written. */
export type Skipped = { id: string; why: 'running' | 'unchanged' | 'gone' } | { id: string; why: 'refused'; message: string };

// One statement per batch: the rows travel as one typed array per column and
// unnest() zips them back into a relation. The WHERE re-checks what the
// import decided from its snapshot, because the scheduler may have started an
// execution since (never overwrite a running one) and another import may
// have written the same record (then nothing changes, updated_at included).
//
// The rows are found by primary key only (`e.id = ANY($1)`), and the tenant
// is checked on what the statement returns, not in the WHERE: right after a
// campaign's executions are created its statistics are stale, and with
// `org_id = $x AND campaign_id = $y` in the WHERE the planner guessed one
// matching row and scanned the whole campaign for every batch (or, worse,
// nested-looped over it). The ids come from a snapshot filtered by org and
// campaign, and an execution never changes either, so the check on RETURNING
// is a guard that rolls the batch back, not a filter.
const UPDATE_BATCH = `
UPDATE executions AS e SET
  outcome = v.outcome, status = v.outcome, source = 'import',
  tests_passed = v.tests_passed, tests_total = v.tests_total, resolved = v.resolved,
  wall_seconds = v.wall_seconds, shell_calls = v.shell_calls,
  input_tokens = v.input_tokens, cache_read_tokens = v.cache_read_tokens, cache_write_tokens = v.cache_write_tokens,
  output_tokens = v.output_tokens, reasoning_tokens = v.reasoning_tokens, cost_micros = v.cost_micros,
  reference_kloc = v.reference_kloc, agents = v.agents, started_at = v.started_at, finished_at = v.finished_at,
  record_hash = v.record_hash, updated_at = now()
FROM (
  SELECT * FROM unnest(
    $1::uuid[], $2::text[], $3::int4[], $4::int4[], $5::bool[], $6::float8[], $7::int4[],
    $8::int8[], $9::int8[], $10::int8[], $11::int8[], $12::int8[], $13::int8[], $14::float8[],
    $15::jsonb[], $16::timestamptz[], $17::timestamptz[], $18::text[])
) AS v(id, outcome, tests_passed, tests_total, resolved, wall_seconds, shell_calls,
       input_tokens, cache_read_tokens, cache_write_tokens, output_tokens, reasoning_tokens, cost_micros, reference_kloc,
       agents, started_at, finished_at, record_hash)
WHERE e.id = v.id AND e.id = ANY($1::uuid[])
  AND e.status NOT IN ('dispatching', 'running')
  AND e.record_hash IS DISTINCT FROM v.record_hash
RETURNING e.id, e.org_id, e.campaign_id`;

function parameters(rows: BatchRow[]): unknown[] {
  const column = <T>(pick: (c: ResultColumns) => T) => rows.map((r) => pick(r.columns));
  return [
    rows.map((r) => r.id),
    column((c) => c.outcome),
    column((c) => c.testsPassed),
    column((c) => c.testsTotal),
    column((c) => c.resolved),
    column((c) => c.wallSeconds),
    column((c) => c.shellCalls),
    column((c) => c.inputTokens),
    column((c) => c.cacheReadTokens),
    column((c) => c.cacheWriteTokens),
    column((c) => c.outputTokens),
    column((c) => c.reasoningTokens),
    column((c) => c.costMicros),
    column((c) => c.referenceKloc),
    column((c) => c.agents),
    column((c) => c.startedAt),
    column((c) => c.finishedAt),
    column((c) => c.recordHash),
  ];
}

/** Postgres refused a value (SQLSTATE class 22, data exception, or 23, integrity constraint): the row is at fault, not the batch. */
function isDataError(error: unknown): error is Error {
  const code = (error as { driverError?: { code?: unknown }; code?: unknown }).driverError?.code ?? (error as { code?: unknown }).code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/** Writes batches of imported results into one campaign's executions of one org. */
export class ExecutionBatchWriter {
  private readonly orgId: string;

  constructor(
    private readonly dataSource: DataSource,
    orgId: string,
    private readonly campaignId: string,
  ) {
    this.orgId = requireOrgId(orgId);
  }

  /**
   * Applies the batch in one transaction and answers the rows it did not
   * write, with the reason. A value Postgres refuses fails the whole
   * statement; then each row is retried alone so that only the bad one is
   * skipped and the rest of the batch is still written.
   */
  async write(rows: BatchRow[]): Promise<Skipped[]> {
    if (rows.length === 0) return [];
    try {
      return await this.writeAll(rows);
    } catch (error) {
      if (!isDataError(error)) throw error;
      if (rows.length === 1) return [{ id: rows[0]!.id, why: 'refused', message: error.message }];
    }
    const skipped: Skipped[] = [];
    for (const row of rows) skipped.push(...(await this.write([row])));
    return skipped;
  }

  private async writeAll(rows: BatchRow[]): Promise<Skipped[]> {
    return this.dataSource.transaction(async (tx) => {
      // TypeORM answers an UPDATE with [returned rows, affected count].
      const [written]: [{ id: string; org_id: string; campaign_id: string }[], number] = await tx.query(UPDATE_BATCH, parameters(rows));
      if (written.some((r) => r.org_id !== this.orgId || r.campaign_id !== this.campaignId)) {
        throw new DomainException(ErrorCode.INTERNAL, `import batch touched an execution outside campaign ${this.campaignId}`);
      }
      if (written.length === rows.length) return [];
      const done = new Set(written.map((r) => r.id));
      const missed = rows.filter((r) => !done.has(r.id));
      const current: { id: string; status: string; record_hash: string | null }[] = await tx.query(
        'SELECT id, status, record_hash FROM executions WHERE id = ANY($1::uuid[]) AND org_id = $2 AND campaign_id = $3',
        [missed.map((r) => r.id), this.orgId, this.campaignId],
      );
      const byId = new Map(current.map((r) => [r.id, r]));
      return missed.map((row): Skipped => {
        const now = byId.get(row.id);
        if (!now) return { id: row.id, why: 'gone' };
        if (now.status === 'dispatching' || now.status === 'running') return { id: row.id, why: 'running' };
        return { id: row.id, why: 'unchanged' };
      });
    });
  }
}
