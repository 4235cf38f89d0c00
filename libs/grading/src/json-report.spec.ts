import { describe, expect, it } from 'vitest';
import { GraderReportError } from './grader-report.error.js';
import { parseJsonReport } from './json-report.parser.js';

describe('parseJsonReport', () => {
  it.each([
    ['{"passed": 3, "total": 3}', { testsPassed: 3, testsTotal: 3, resolved: true }],
    ['  {"total": 5, "passed": 2}\n', { testsPassed: 2, testsTotal: 5, resolved: false }],
    ['{"passed": 0, "total": 0}', { testsPassed: 0, testsTotal: 0, resolved: false }],
  ])('reads %s', (text, expected) => {
    expect(parseJsonReport(text)).toEqual(expected);
  });

  it.each([
    ['', /not JSON.*received an empty report/],
    ['passed: 3', /not JSON.*received "passed: 3"/],
    ['{"passed": 4, "total": 3}', /passed: passed must not exceed total/],
    ['{"passed": 1, "total": 3, "failed": 2}', /Unrecognized key.*"failed"/],
    ['{"passed": 1.5, "total": 3}', /passed: .*expected int/],
    ['{"passed": -1, "total": 3}', /passed: /],
    ['{"passed": "1", "total": 3}', /passed: .*number/],
    ['[1, 3]', /expected one JSON object/],
    ['{"passed": 1}', /total: /],
  ])('rejects %j with a message that says what was expected and received', (text, message) => {
    expect(() => parseJsonReport(text)).toThrow(GraderReportError);
    expect(() => parseJsonReport(text)).toThrow(message);
  });

  it('shows only the start of a long report', () => {
    const text = `oops ${'x'.repeat(5000)}`;
    expect(() => parseJsonReport(text)).toThrow(/received "oops x+"\.\.\. \(5005 characters\)$/);
  });
});
