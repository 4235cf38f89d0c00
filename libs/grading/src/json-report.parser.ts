import { z } from 'zod';
import { GraderReportError, graderResult, type GraderResult } from './grader-report.error.js';

const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const reportSchema = z
  .strictObject({ passed: count, total: count })
  .refine((r) => r.passed <= r.total, { message: 'passed must not exceed total', path: ['passed'] });

const EXPECTED = 'expected one JSON object { "passed": N, "total": M } with integers 0 <= N <= M and no other keys';

/**
 * Reads a JSON grader report, strictly: exactly `{ "passed": N, "total": M }`
 * (surrounding whitespace allowed). Anything else is a broken grader, not
 * a result, so it throws rather than guessing.
 */
export function parseJsonReport(text: string): GraderResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new GraderReportError('json', `${EXPECTED}, but it is not JSON (${(err as Error).message})`, text);
  }
  const parsed = reportSchema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)).join('; ');
    throw new GraderReportError('json', `${EXPECTED} (${issues})`, text);
  }
  return graderResult(parsed.data.passed, parsed.data.total);
}
