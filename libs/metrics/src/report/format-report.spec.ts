import { describe, expect, it } from 'vitest';
import { makeExecution } from '../../../../test/fixtures/metrics/execution.factory.js';
import { buildReport } from './build-report.js';
import { formatReport, isReportFormat } from './format-report.js';

const report = buildReport(
  [
    makeExecution({ mode: 'concurrent', resolved: true, testsPassed: 10, costUsd: 1.234 }),
    makeExecution({ mode: 'sequential', testsPassed: 5, costUsd: 2 }),
    makeExecution({ mode: 'concurrent', task: 't2', outcome: 'infra_failed' }),
    makeExecution({ mode: 'sequential', task: 't2' }),
    makeExecution({ mode: 'other', task: 't2' }),
  ],
  { permutations: 99 },
);

describe('formatReport', () => {
  it('table: aligned text with A/B cells', () => {
    const text = formatReport(report, 'table');
    expect(text).toContain('Outcomes (concurrent / sequential)');
    expect(text).toMatch(/codex\s+bench\s+2 \/ 2\s+50\.0 \/ 0\.0\s+50\.0 \/ 25\.0/);
    expect(text).toContain('1 / 0'); // infra failed A / B
    expect(text).toContain('other modes in the input (other)');
    expect(text).toContain('Families of tests');
  });

  it('markdown: one pipe table per section', () => {
    const text = formatReport(report, 'markdown');
    expect(text).toContain('## Paired comparison: exact McNemar, Holm over 1 agents');
    expect(text).toContain('| Agent | Pairs | b | c | p | p (Holm) |');
    expect(text).toContain('| codex | 2 | 1 | 0 | 1.0000 | 1.0000 |');
  });

  it('csv: one section per table, one row per mode, raw numbers', () => {
    const text = formatReport(report, 'csv');
    const outcome = text.split('\n\n').find((s) => s.startsWith('# Outcomes by agent x benchmark x mode'))!;
    const lines = outcome.split('\n');
    expect(lines[1]).toMatch(/^Agent,Benchmark,Mode,n,Task pass %/);
    expect(lines.slice(2).map((l) => l.split(',')[2])).toEqual(['concurrent', 'sequential', 'other']);
    expect(lines[2]).toContain(',0.5,');
    expect(text).toContain('# Benefit pairs');
  });

  it('json: the report itself', () => {
    expect(JSON.parse(formatReport(report, 'json'))).toEqual(JSON.parse(JSON.stringify(report)));
  });

  it('knows its formats', () => {
    expect(isReportFormat('csv')).toBe(true);
    expect(isReportFormat('xml')).toBe(false);
  });
});
