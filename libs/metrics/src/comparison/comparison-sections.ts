import { pFromLog10, pairedFigureColumns, type Cell, type CellKind, type Layout, type Section } from '../report/report-sections.js';
import type { AB, Comparison, ComparisonBenchmarkRow } from './comparison.types.js';

type AbKey = { [K in keyof ComparisonBenchmarkRow]: ComparisonBenchmarkRow[K] extends AB ? K : never }[keyof ComparisonBenchmarkRow];

const TABLE2: ReadonlyArray<{ key: AbKey; header: string; kind: CellKind }> = [
  { key: 'n', header: 'n', kind: 'int' },
  { key: 'taskPass', header: 'Task pass %', kind: 'pct' },
  { key: 'testPass', header: 'Test pass %', kind: 'pct' },
  { key: 'shellCalls', header: 'Shell calls', kind: 'num1' },
  { key: 'minutes', header: 'Minutes', kind: 'num1' },
  { key: 'tokensMillions', header: 'Tokens (M)', kind: 'num2' },
  { key: 'costUsd', header: 'Cost ($)', kind: 'usd' },
  { key: 'infraFailed', header: 'Infra failed', kind: 'int' },
];

/**
 * The comparison as titled tables in reading order. `ab`: the study's Table 2
 * with A / B cells; `long`: one column per side and raw values (CSV).
 */
export function comparisonSections(comparison: Comparison, layout: Layout): Section[] {
  const { sideA, sideB, inputs, family } = comparison;
  const subject = comparison.spec.by === 'mode' ? 'Agent' : 'Mode';
  const table2Columns = TABLE2.flatMap(({ key, header, kind }) =>
    layout === 'ab'
      ? [{ key, header, kind }]
      : [
          { key: `${key}A`, header: `${header} ${sideA}`, kind },
          { key: `${key}B`, header: `${header} ${sideB}`, kind },
        ],
  );
  const table2Cells = (row: ComparisonBenchmarkRow): Record<string, Cell> => {
    const cells: Record<string, Cell> = {};
    for (const { key } of TABLE2) {
      if (layout === 'ab') cells[key] = row[key];
      else {
        cells[`${key}A`] = row[key].a;
        cells[`${key}B`] = row[key].b;
      }
    }
    return cells;
  };
  const sections: Section[] = [
    {
      title: 'Input',
      notes: [],
      columns: [
        { key: 'item', header: 'Item', kind: 'text' },
        { key: 'value', header: 'Value', kind: 'text' },
      ],
      rows: [
        { item: 'A / B', value: `${sideA} / ${sideB}` },
        { item: 'executions', value: String(inputs.executions) },
        { item: `${subject.toLowerCase()}s`, value: inputs.subjects.join(', ') },
        { item: 'benchmarks', value: inputs.benchmarks.join(', ') },
        { item: 'pairs (unpaired, duplicates ignored)', value: `${inputs.pairs} (${inputs.unpaired}, ${inputs.duplicates})` },
        { item: 'bootstrap resamples, seed', value: `${comparison.options.resamples}, ${comparison.options.seed}` },
      ],
    },
    {
      title: `Outcomes by benchmark (${sideA} / ${sideB})`,
      notes: [
        ...(layout === 'ab' ? [`each cell is ${sideA} / ${sideB}`] : []),
        'infra_failed executions and those with testsTotal = 0 count as 0 in both pass rates (counts shown)',
      ],
      columns: [{ key: 'subject', header: subject, kind: 'text' }, { key: 'benchmark', header: 'Benchmark', kind: 'text' }, ...table2Columns],
      rows: comparison.benchmarks.map((row) => ({ subject: row.subject, benchmark: row.benchmark, ...table2Cells(row) })),
    },
    {
      title: `Paired comparison: exact McNemar, Holm over ${family.m} tests`,
      notes: [family.description, 'b: only A resolved; c: only B resolved; test pass A - B: mean over pairs with its 95% paired bootstrap interval (pp)'],
      columns: [
        { key: 'subject', header: subject, kind: 'text' },
        ...(family.family === 'perBenchmark' ? [{ key: 'benchmark', header: 'Benchmark', kind: 'text' as const }] : []),
        { key: 'pairs', header: 'Pairs', kind: 'int' },
        { key: 'b', header: 'b', kind: 'int' },
        { key: 'c', header: 'c', kind: 'int' },
        { key: 'p', header: 'p', kind: 'p' },
        { key: 'pAdjusted', header: 'p (Holm)', kind: 'p' },
        { key: 'difference', header: 'Test pass A-B (pp)', kind: 'pp' },
        { key: 'low', header: '95% low', kind: 'pp' },
        { key: 'high', header: '95% high', kind: 'pp' },
      ],
      rows: comparison.tests.map((t) => ({
        subject: t.subject,
        benchmark: t.benchmark,
        pairs: t.pairs,
        b: t.b,
        c: t.c,
        p: layout === 'ab' ? pFromLog10(t.p, t.log10P) : t.p,
        pAdjusted: t.pAdjusted,
        difference: t.testPassDifference ? t.testPassDifference.mean * 100 : null,
        low: t.testPassDifference ? t.testPassDifference.lower * 100 : null,
        high: t.testPassDifference ? t.testPassDifference.upper * 100 : null,
      })),
    },
    {
      title: 'Paired figures by benchmark',
      notes: [
        'p: exact McNemar of this benchmark alone (not corrected)',
        'unique successes use the benchmark success rule; speed shares are over pairs resolved in both',
        `benefit pairs: A's test pass higher, or only A resolved, or A's test pass >= B's and A >= 60 s and >= 20% faster`,
      ],
      columns: pairedFigureColumns({ key: 'subject', header: subject }, sideA, sideB),
      rows: comparison.benchmarks.map((row) => ({
        subject: row.subject,
        benchmark: row.benchmark,
        pairs: row.pairs,
        b: row.b,
        c: row.c,
        pUnadjusted: row.pUnadjusted,
        successRule: row.successRule,
        uniqueA: row.uniqueA,
        uniqueB: row.uniqueB,
        bothSolved: row.bothSolved,
        aFasterShare: row.aFasterShare,
        aFaster20Share: row.aFaster20Share,
        benefitPairs: row.benefitPairs,
      })),
    },
    {
      title: 'Difference by size',
      notes: [`test pass A - B in percentage points, mean over ${subject.toLowerCase()}s (equal weight), benchmarks by median reference kLOC`],
      columns: [
        { key: 'benchmark', header: 'Benchmark', kind: 'text' },
        { key: 'medianReferenceKloc', header: 'Median kLOC', kind: 'num1' },
        { key: 'subjects', header: `${subject}s`, kind: 'int' },
        { key: 'differencePp', header: 'Test pass A-B (pp)', kind: 'pp' },
      ],
      rows: comparison.differenceBySize.map((row) => ({ benchmark: row.benchmark, medianReferenceKloc: row.medianReferenceKloc, subjects: row.agents.length, differencePp: row.differencePp })),
    },
  ];
  const pairColumns = [
    { key: 'subject', header: subject, kind: 'text' as const },
    { key: 'benchmark', header: 'Benchmark', kind: 'text' as const },
    { key: 'suite', header: 'Suite', kind: 'text' as const },
    { key: 'task', header: 'Task', kind: 'text' as const },
    { key: 'repetition', header: 'Rep', kind: 'int' as const },
  ];
  const ids = [
    { key: 'executionA', header: `Execution ${sideA}`, kind: 'text' as const },
    { key: 'executionB', header: `Execution ${sideB}`, kind: 'text' as const },
  ];
  sections.push(
    {
      title: 'Discordant pairs',
      notes: ['resolved in one side only: A counts in b, B in c'],
      columns: [...pairColumns, { key: 'resolvedBy', header: 'Resolved by', kind: 'text' }, ...(layout === 'long' ? ids : [])],
      rows: comparison.discordantPairs.map((p) => ({ ...p, resolvedBy: p.resolvedBy === 'A' ? sideA : sideB })),
    },
    {
      title: `Benefit pairs (${sideA} over ${sideB})`,
      notes: [],
      columns: [...pairColumns, { key: 'reasons', header: 'Reasons', kind: 'text' }, ...(layout === 'long' ? ids : [])],
      rows: comparison.benefitPairs.map((p) => ({ ...p, reasons: p.reasons.join(' ') })),
    },
  );
  return sections;
}
