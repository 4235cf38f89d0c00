import type { ExecutionRecord } from '#libs/contracts';
import type { ExecutionStatus } from '../entities/index.js';
import type { ImportLineError } from './import-summary.js';

/** What an import needs of one planned execution. */
export interface UnitRow {
  id: string;
  agent_name: string;
  model: string;
  mode: string;
  benchmark_key: string;
  suite_key: string;
  task_key: string;
  difficulty: string;
  repetition: number;
  status: ExecutionStatus;
  record_hash: string | null;
}

export interface Unit {
  id: string;
  model: string;
  difficulty: string;
  /** As the database holds them now, or as this import will leave them once its pending batch is written. */
  status: ExecutionStatus;
  recordHash: string | null;
}

const SEP = '\u0000';

function unitKey(agent: string, mode: string, benchmark: string, suite: string, task: string, repetition: number): string {
  return [agent, mode, benchmark, suite, task, repetition].join(SEP);
}

function listOf(values: Iterable<string>): string {
  return [...values].sort().join(', ');
}

/**
 * A campaign's planned executions, keyed by the import key (agent, mode,
 * benchmark, suite, task, repetition), loaded once per import. When a record
 * matches none, the reason names the first field that is not in the plan,
 * so the user knows what to fix.
 */
export class CampaignUnits {
  private readonly units = new Map<string, Unit>();
  private readonly agents = new Map<string, string>();
  private readonly modes = new Set<string>();
  /** benchmark -> suite -> task -> difficulty */
  private readonly tasks = new Map<string, Map<string, Map<string, string>>>();
  private minRepetition = Number.POSITIVE_INFINITY;
  private maxRepetition = Number.NEGATIVE_INFINITY;

  constructor(rows: Iterable<UnitRow>) {
    for (const row of rows) {
      this.units.set(unitKey(row.agent_name, row.mode, row.benchmark_key, row.suite_key, row.task_key, row.repetition), {
        id: row.id,
        model: row.model,
        difficulty: row.difficulty,
        status: row.status,
        recordHash: row.record_hash,
      });
      this.agents.set(row.agent_name, row.model);
      this.modes.add(row.mode);
      let suites = this.tasks.get(row.benchmark_key);
      if (!suites) this.tasks.set(row.benchmark_key, (suites = new Map()));
      let tasks = suites.get(row.suite_key);
      if (!tasks) suites.set(row.suite_key, (tasks = new Map()));
      tasks.set(row.task_key, row.difficulty);
      this.minRepetition = Math.min(this.minRepetition, row.repetition);
      this.maxRepetition = Math.max(this.maxRepetition, row.repetition);
    }
  }

  get size(): number {
    return this.units.size;
  }

  /** The planned execution this record fills, or why there is none (or why the record contradicts the plan). */
  match(record: ExecutionRecord, line: number): Unit | ImportLineError {
    const unit = this.units.get(unitKey(record.agent, record.mode, record.benchmark, record.suite, record.task, record.repetition));
    if (!unit) return { line, ...this.whyUnmatched(record) };
    if (record.difficulty !== unit.difficulty) {
      return {
        line,
        field: 'difficulty',
        reason: `expected "${unit.difficulty}" (the difficulty group of task ${record.task} in benchmark ${record.benchmark}), received "${record.difficulty}"`,
      };
    }
    if (record.model !== unit.model) {
      return {
        line,
        field: 'model',
        reason: `expected "${unit.model}" (the backbone model of agent ${record.agent} in this campaign), received "${record.model}"`,
      };
    }
    return unit;
  }

  private whyUnmatched(record: ExecutionRecord): { field: string; reason: string } {
    if (this.units.size === 0) return { field: '(record)', reason: 'this campaign has no planned executions' };
    if (!this.agents.has(record.agent)) {
      return { field: 'agent', reason: `"${record.agent}" is not one of this campaign's agents (${listOf(this.agents.keys())})` };
    }
    if (!this.modes.has(record.mode)) {
      return { field: 'mode', reason: `"${record.mode}" is not one of this campaign's modes (${listOf(this.modes)})` };
    }
    const suites = this.tasks.get(record.benchmark);
    if (!suites) {
      return { field: 'benchmark', reason: `"${record.benchmark}" is not one of this campaign's benchmarks (${listOf(this.tasks.keys())})` };
    }
    const tasks = suites.get(record.suite);
    if (!tasks) {
      return { field: 'suite', reason: `"${record.suite}" is not a suite of benchmark ${record.benchmark} in this campaign (${listOf(suites.keys())})` };
    }
    if (!tasks.has(record.task)) {
      return { field: 'task', reason: `"${record.task}" is not in this campaign's sample for benchmark ${record.benchmark}, suite ${record.suite}` };
    }
    if (record.repetition < this.minRepetition || record.repetition > this.maxRepetition) {
      return { field: 'repetition', reason: `${record.repetition} is outside this campaign's repetitions (${this.minRepetition}..${this.maxRepetition})` };
    }
    return {
      field: '(record)',
      reason: `this campaign has no execution for agent ${record.agent}, mode ${record.mode}, task ${record.benchmark}/${record.suite}/${record.task}, repetition ${record.repetition}`,
    };
  }
}
