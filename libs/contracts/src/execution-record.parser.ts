import type { z } from 'zod';
import { executionRecordSchema, type ExecutionRecord } from './execution-record.schema.js';

export interface RecordError {
  /** 1-based line number in the input. */
  line: number;
  /** Path of the offending field, e.g. `usage.outputTokens` or `agents[2].start`; `(record)` or `(line)` for the whole line. */
  field: string;
  /** What was expected and what was received. */
  reason: string;
}

export interface ParsedRecords {
  records: ExecutionRecord[];
  /** 1-based line number of each record, same order. */
  lines: number[];
  errors: RecordError[];
}

function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let text = '';
  for (const part of path) {
    if (typeof part === 'number') text += `[${part}]`;
    else text += text === '' ? String(part) : `.${String(part)}`;
  }
  return text === '' ? '(record)' : text;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  const shown = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `${typeof value} ${shown}`;
}

function issueErrors(line: number, issue: z.core.$ZodIssue): RecordError[] {
  const input = (issue as { input?: unknown }).input;
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ line, field: fieldPath([...issue.path, key]), reason: 'unknown field: not part of the execution record' }));
    case 'invalid_type':
      return [
        {
          line,
          field: fieldPath(issue.path),
          reason: input === undefined ? `required field missing (expected ${issue.expected})` : `expected ${issue.expected}, received ${describe(input)}`,
        },
      ];
    case 'invalid_value':
      return [{ line, field: fieldPath(issue.path), reason: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, received ${describe(input)}` }];
    case 'invalid_format':
      return [
        {
          line,
          field: fieldPath(issue.path),
          reason:
            issue.format === 'datetime'
              ? `expected an ISO-8601 date-time with a time zone (e.g. 2025-01-31T12:00:00Z), received ${describe(input)}`
              : `expected format ${issue.format}, received ${describe(input)}`,
        },
      ];
    case 'too_small': {
      const bound = `${issue.inclusive === false ? '>' : '>='} ${String(issue.minimum)}`;
      const what = issue.origin === 'array' ? `at least ${String(issue.minimum)} item(s)` : issue.origin === 'string' ? 'a non-empty string' : `a value ${bound}`;
      return [{ line, field: fieldPath(issue.path), reason: `expected ${what}, received ${describe(input)}` }];
    }
    case 'custom':
      return [{ line, field: fieldPath(issue.path), reason: issue.message }];
    default:
      return [{ line, field: fieldPath(issue.path), reason: `${issue.message}; received ${describe(input)}` }];
  }
}

/** Identity of an execution: two lines with the same one are a duplicate, and the later one is rejected. */
function identity(record: ExecutionRecord): string {
  return JSON.stringify([record.agent, record.benchmark, record.suite, record.task, record.mode, record.repetition]);
}

/**
 * Incremental parser for JSONL execution records, one line at a time (for
 * streams). Blank lines are skipped; every other line is either a record or
 * one or more errors with its line number, field and reason.
 */
export class ExecutionRecordParser {
  /** retain: false keeps only errors (a stream consumer handles each record as push returns it). */
  constructor(private readonly options: { retain?: boolean } = {}) {}

  private readonly records: ExecutionRecord[] = [];
  private readonly lines: number[] = [];
  private readonly errors: RecordError[] = [];
  private readonly seen = new Map<string, number>();
  private lineNumber = 0;

  /** Parses the next line; returns the record, or null when the line was blank or rejected. */
  push(text: string): ExecutionRecord | null {
    const line = ++this.lineNumber;
    const trimmed = text.trim();
    if (trimmed === '') return null;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (error) {
      this.errors.push({ line, field: '(line)', reason: `expected one JSON object, received invalid JSON (${(error as Error).message})` });
      return null;
    }
    const parsed = executionRecordSchema.safeParse(value, { reportInput: true });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) this.errors.push(...issueErrors(line, issue));
      return null;
    }
    const key = identity(parsed.data);
    const earlier = this.seen.get(key);
    if (earlier !== undefined) {
      this.errors.push({
        line,
        field: '(record)',
        reason: `expected one execution per agent, benchmark, suite, task, mode and repetition, received a duplicate of line ${earlier}`,
      });
      return null;
    }
    this.seen.set(key, line);
    if (this.options.retain !== false) {
      this.records.push(parsed.data);
      this.lines.push(line);
    }
    return parsed.data;
  }

  /** Lines read so far, blank ones included. */
  get linesRead(): number {
    return this.lineNumber;
  }

  result(): ParsedRecords {
    return { records: this.records, lines: this.lines, errors: this.errors };
  }
}

/** Parses JSONL text (or its lines): valid records are returned even when other lines are rejected. */
export function parseExecutionRecords(input: string | Iterable<string>): ParsedRecords {
  const parser = new ExecutionRecordParser();
  const lines = typeof input === 'string' ? input.split('\n') : input;
  for (const line of lines) parser.push(line);
  return parser.result();
}
