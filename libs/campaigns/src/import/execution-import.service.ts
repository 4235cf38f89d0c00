import { DomainException } from '#libs/common';
import { ExecutionRecordParser, type ExecutionRecord } from '#libs/contracts';
import { isUuid, requireOrgId } from '#libs/database';
import { Role, requireRole, type Principal } from '#libs/identity';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CampaignUnits, type Unit, type UnitRow } from './campaign-units.js';
import { ExecutionBatchWriter, type Skipped } from './execution-batch.writer.js';
import { MAX_REPORTED_ERRORS, type ImportLineError, type ImportOptions, type ImportSummary } from './import-summary.js';
import { resultColumns, type ResultColumns } from './record-columns.js';

/** Rows per UPDATE: large enough that round trips do not dominate, small enough to keep each transaction short. */
export const IMPORT_BATCH_SIZE = 1000;

const RUNNING_REASON = 'execution is running; cancel it before importing over it';

interface Pending {
  unit: Unit;
  columns: ResultColumns;
  line: number;
  /** The unit's hash before this import touched it, restored when the write is skipped. */
  hashBefore: string | null;
}

/**
 * Fills a campaign's planned executions from execution records (JSONL), for
 * runs made elsewhere. The import key is campaign + agent + mode + task +
 * repetition: the same file twice changes nothing the second time, a changed
 * line updates its execution, a bad line is reported and skipped while the
 * good ones are kept. Within one input, a later line for the same execution
 * wins.
 */
@Injectable()
export class ExecutionImportService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async importRecords(principal: Principal, campaignId: string, lines: AsyncIterable<string>, options: ImportOptions = {}): Promise<ImportSummary> {
    requireRole(principal, Role.MEMBER, 'importExecutions');
    const orgId = requireOrgId(principal.orgId);
    await this.requireCampaign(orgId, campaignId);
    const run = new ImportRun(campaignId, await this.loadUnits(orgId, campaignId), new ExecutionBatchWriter(this.dataSource, orgId, campaignId), options);
    try {
      for await (const text of lines) await run.push(text);
    } catch (error) {
      // A broken or oversized upload: let the batch being written finish before answering.
      await run.settle();
      throw error;
    }
    const summary = await run.finish();
    // A campaign whose every execution now has a result is complete, whether it ran here or was
    // imported: an imported campaign must look like a run one in every view.
    await this.dataSource.query(
      `UPDATE campaigns SET status = 'completed', updated_at = now()
        WHERE id = $1 AND org_id = $2 AND status IN ('created', 'running')
          AND NOT EXISTS (SELECT 1 FROM executions WHERE campaign_id = $1 AND status IN ('queued', 'dispatching', 'running'))`,
      [campaignId, orgId],
    );
    return summary;
  }

  private async requireCampaign(orgId: string, campaignId: string): Promise<void> {
    const found = isUuid(campaignId) ? await this.dataSource.query('SELECT 1 FROM campaigns WHERE id = $1 AND org_id = $2', [campaignId, orgId]) : [];
    if (found.length === 0) throw DomainException.notFound('campaign', campaignId);
  }

  private async loadUnits(orgId: string, campaignId: string): Promise<CampaignUnits> {
    const rows: UnitRow[] = await this.dataSource.query(
      `SELECT id, agent_name, model, mode, benchmark_key, suite_key, task_key, difficulty, repetition, status, record_hash
         FROM executions WHERE org_id = $1 AND campaign_id = $2`,
      [orgId, campaignId],
    );
    return new CampaignUnits(rows);
  }
}

/** The state of one import: counts, the first errors, and the batch not yet written. */
class ImportRun {
  private line = 0;
  private updated = 0;
  private unchanged = 0;
  private rejected = 0;
  private readonly errors: ImportLineError[] = [];
  private pending = new Map<string, Pending>();
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly campaignId: string,
    private readonly units: CampaignUnits,
    private readonly writer: ExecutionBatchWriter,
    private readonly options: ImportOptions,
  ) {}

  async push(text: string): Promise<void> {
    const line = ++this.line;
    const record = this.parse(text, line);
    if (record) this.apply(record, line);
    if (this.pending.size >= IMPORT_BATCH_SIZE) await this.flush();
  }

  async finish(): Promise<ImportSummary> {
    await this.flush();
    await this.inFlight;
    this.options.onProgress?.(this.line);
    return {
      campaignId: this.campaignId,
      linesRead: this.line,
      inserted: 0,
      updated: this.updated,
      unchanged: this.unchanged,
      rejected: this.rejected,
      errors: this.errors.sort((a, b) => a.line - b.line),
    };
  }

  /** Waits for the batch in flight, whatever its outcome. */
  async settle(): Promise<void> {
    await this.inFlight.catch(() => undefined);
  }

  /**
   * One parser per line: the shared parser rejects a repeated execution as a
   * duplicate (right for a report), while an import lets the later line win.
   */
  private parse(text: string, line: number): ExecutionRecord | null {
    if (text.trim() === '') return null;
    const parser = new ExecutionRecordParser({ retain: false });
    const record = parser.push(text);
    if (!record) this.reject(parser.result().errors.map((e) => ({ ...e, line })));
    return record;
  }

  private apply(record: ExecutionRecord, line: number): void {
    const unit = this.units.match(record, line);
    if (!('id' in unit)) return this.reject([unit]);
    if (unit.status === 'dispatching' || unit.status === 'running') return this.reject([{ line, field: '(record)', reason: RUNNING_REASON }]);
    const columns = resultColumns(record, line);
    if (Array.isArray(columns)) return this.reject(columns);
    if (columns.recordHash === unit.recordHash) {
      this.unchanged++;
      return;
    }
    const earlier = this.pending.get(unit.id);
    this.pending.set(unit.id, { unit, columns, line, hashBefore: earlier ? earlier.hashBefore : unit.recordHash });
    // Later lines compare with what this one will have written.
    unit.recordHash = columns.recordHash;
    this.updated++;
  }

  /**
   * Hands the pending batch to the database and goes on reading while it is
   * written: at most one batch in flight, so parsing the next one overlaps
   * the previous UPDATE. Later lines already compare with the hashes this
   * batch will write; a row it could not write is settled when it returns.
   */
  private async flush(): Promise<void> {
    await this.inFlight;
    if (this.pending.size === 0) return;
    const batch = [...this.pending.values()];
    this.pending = new Map();
    const write = this.write(batch);
    // Marked handled now: the error, if any, is thrown by the next `await this.inFlight`.
    write.catch(() => undefined);
    this.inFlight = write;
    this.options.onProgress?.(this.line);
  }

  private async write(batch: Pending[]): Promise<void> {
    const skipped = await this.writer.write(batch.map((p) => ({ id: p.unit.id, columns: p.columns })));
    const byId = new Map(batch.map((p) => [p.unit.id, p]));
    for (const s of skipped) this.settleSkipped(byId.get(s.id)!, s);
    for (const p of batch) if (p.unit.recordHash === p.columns.recordHash) p.unit.status = p.columns.outcome;
  }

  /** A row the database did not take after all: the line moves from updated to what really happened. */
  private settleSkipped(p: Pending, skipped: Skipped): void {
    this.updated--;
    if (skipped.why === 'unchanged') {
      this.unchanged++;
      return;
    }
    // Unless a later line (read while this batch was written) has taken over the execution.
    if (p.unit.recordHash === p.columns.recordHash) p.unit.recordHash = p.hashBefore;
    if (skipped.why === 'running') {
      p.unit.status = 'running';
      this.reject([{ line: p.line, field: '(record)', reason: RUNNING_REASON }]);
    } else if (skipped.why === 'gone') {
      this.reject([{ line: p.line, field: '(record)', reason: 'the execution was deleted during the import' }]);
    } else if (skipped.why === 'refused') {
      this.reject([{ line: p.line, field: '(record)', reason: `the database refused the record: ${skipped.message}` }]);
    }
  }

  /** Called once per rejected line, with every problem found on it. */
  private reject(errors: ImportLineError[]): void {
    this.rejected++;
    for (const error of errors) if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push(error);
  }
}
