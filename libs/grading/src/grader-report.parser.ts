import { GraderReportError, type GraderReportFormat, type GraderResult } from './grader-report.error.js';
import { parseJsonReport } from './json-report.parser.js';
import { parseJunitReport } from './junit-report.parser.js';
import { parseTapReport } from './tap-report.parser.js';

const PARSERS: Record<GraderReportFormat, (text: string) => GraderResult> = {
  junit: parseJunitReport,
  tap: parseTapReport,
  json: parseJsonReport,
};

/** Reads a grader report in the task's declared format; throws `GraderReportError` when it cannot. */
export function parseGraderReport(format: GraderReportFormat, text: string): GraderResult {
  if (!Object.hasOwn(PARSERS, format)) throw new GraderReportError(format, `unknown format ${JSON.stringify(format)} (expected junit, tap or json)`, text);
  return PARSERS[format](text);
}
