/** The formats a grader may report in (docs/runner-protocol.md "The grade"). */
export type GraderReportFormat = 'junit' | 'tap' | 'json';

/** What a grader report says, in the units the grade is recorded in. */
export interface GraderResult {
  testsPassed: number;
  testsTotal: number;
  /** `testsTotal > 0 && testsPassed == testsTotal`. */
  resolved: boolean;
}

/**
 * A grader report that cannot be read. The message says which format was
 * expected, what was wrong, and shows the start of what was received: the
 * runner logs it and the attempt is retried as an infrastructure failure.
 */
export class GraderReportError extends Error {
  constructor(
    readonly format: GraderReportFormat,
    problem: string,
    received: string,
  ) {
    super(`${format} grader report: ${problem}; received ${snippet(received)}`);
    this.name = 'GraderReportError';
  }
}

const SNIPPET_CHARS = 200;

/** The start of a report, JSON-quoted so that control characters and blank reports stay visible. */
export function snippet(text: string): string {
  if (text.trim() === '') return text === '' ? 'an empty report' : `a blank report (${text.length} whitespace characters)`;
  if (text.length <= SNIPPET_CHARS) return JSON.stringify(text);
  return `${JSON.stringify(text.slice(0, SNIPPET_CHARS))}... (${text.length} characters)`;
}

export function graderResult(testsPassed: number, testsTotal: number): GraderResult {
  return { testsPassed, testsTotal, resolved: testsTotal > 0 && testsPassed === testsTotal };
}
