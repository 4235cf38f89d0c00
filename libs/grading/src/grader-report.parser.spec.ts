import { describe, expect, it } from 'vitest';
import { GraderReportError, type GraderReportFormat } from './grader-report.error.js';
import { parseGraderReport } from './grader-report.parser.js';

describe('parseGraderReport', () => {
  it.each<[GraderReportFormat, string]>([
    ['json', '{"passed": 1, "total": 2}'],
    ['tap', 'TAP version 14\n1..2\nok 1\nnot ok 2\n'],
    ['junit', '<testsuite><testcase name="a"/><testcase name="b"><error/></testcase></testsuite>'],
  ])('dispatches %s', (format, text) => {
    expect(parseGraderReport(format, text)).toEqual({ testsPassed: 1, testsTotal: 2, resolved: false });
  });

  it('refuses an unknown format, including inherited property names', () => {
    expect(() => parseGraderReport('xml' as GraderReportFormat, '')).toThrow(GraderReportError);
    expect(() => parseGraderReport('constructor' as GraderReportFormat, '')).toThrow(/unknown format "constructor"/);
  });

  it('names the format it expected', () => {
    expect(() => parseGraderReport('junit', '{"passed": 1, "total": 1}')).toThrow(/^junit grader report: expected JUnit XML/);
  });
});
