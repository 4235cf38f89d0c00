import { compositeKey } from '../grouping.util.js';
import type { OutcomeRow, Report } from './report.types.js';

/** How a cell is shown in text views; CSV writes the raw number. */
export type CellKind = 'text' | 'int' | 'pct' | 'pp' | 'p' | 'usd' | 'num1' | 'num2' | 'num3';

export interface AbValue {
  a: number | null;
  b: number | null;
}

export type Cell = string | number | null | AbValue;

export interface Column {
  key: string;
  header: string;
  kind: CellKind;
}

export interface Section {
  title: string;
  notes: string[];
  columns: Column[];
  rows: Array<Record<string, Cell>>;
}

/** `ab`: the study's A/B layout (one row per agent x benchmark); `long`: one row per mode, raw values. */
export type Layout = 'ab' | 'long';

const OUTCOME_METRICS: ReadonlyArray<{ key: keyof OutcomeRow; header: string; kind: CellKind }> = [
  { key: 'n', header: 'n', kind: 'int' },
  { key: 'taskPass', header: 'Task pass %', kind: 'pct' },
  { key: 'testPass', header: 'Test pass %', kind: 'pct' },
  { key: 'shellCalls', header: 'Shell calls', kind: 'num1' },
  { key: 'minutes', header: 'Minutes', kind: 'num1' },
  { key: 'tokensMillions', header: 'Tokens (M)', kind: 'num2' },
  { key: 'costUsd', header: 'Cost ($)', kind: 'usd' },
  { key: 'tokensPerSolved', header: 'Tokens/solved (M)', kind: 'num2' },
  { key: 'costPerSolved', header: 'Cost/solved ($)', kind: 'usd' },
  { key: 'infraFailed', header: 'Infra failed', kind: 'int' },
  { key: 'noTests', header: 'No tests', kind: 'int' },
];

function outcomeValue(row: OutcomeRow | undefined, key: keyof OutcomeRow): number | null {
  if (!row) return null;
  const value = row[key];
  if (typeof value !== 'number') return null;
  return key === 'tokensPerSolved' ? value / 1e6 : value;
}

function outcomeSection(report: Report, layout: Layout): Section {
  const { modeA, modeB } = report.options;
  const countedAsZero = 'infra_failed executions and those with testsTotal = 0 count as 0 in both pass rates (counts shown)';
  if (layout === 'long') {
    return {
      title: 'Outcomes by agent x benchmark x mode',
      notes: [countedAsZero],
      columns: [
        { key: 'agent', header: 'Agent', kind: 'text' },
        { key: 'benchmark', header: 'Benchmark', kind: 'text' },
        { key: 'mode', header: 'Mode', kind: 'text' },
        ...OUTCOME_METRICS.map(({ key, header, kind }) => ({ key, header: key === 'tokensPerSolved' ? 'Tokens/solved' : header, kind })),
        { key: 'taskPassLower', header: 'Task pass 95% low', kind: 'pct' as const },
        { key: 'taskPassUpper', header: 'Task pass 95% high', kind: 'pct' as const },
      ],
      rows: report.outcomes.map((row) => ({ ...row }) as unknown as Record<string, Cell>),
    };
  }
  const byKey = new Map(report.outcomes.map((row) => [compositeKey(row.agent, row.benchmark, row.mode), row]));
  const seen = new Set<string>();
  const rows: Array<Record<string, Cell>> = [];
  for (const row of report.outcomes) {
    if (row.mode !== modeA && row.mode !== modeB) continue;
    const key = compositeKey(row.agent, row.benchmark);
    if (seen.has(key)) continue;
    seen.add(key);
    const a = byKey.get(compositeKey(row.agent, row.benchmark, modeA));
    const b = byKey.get(compositeKey(row.agent, row.benchmark, modeB));
    const cells: Record<string, Cell> = { agent: row.agent, benchmark: row.benchmark };
    for (const metric of OUTCOME_METRICS) {
      cells[metric.key] = { a: outcomeValue(a, metric.key), b: outcomeValue(b, metric.key) };
    }
    rows.push(cells);
  }
  const others = report.inputs.modes.filter((mode) => mode !== modeA && mode !== modeB);
  return {
    title: `Outcomes (${modeA} / ${modeB})`,
    notes: [
      `each cell is ${modeA} / ${modeB}`,
      countedAsZero,
      ...(others.length > 0 ? [`other modes in the input (${others.join(', ')}) are listed in --format csv and json`] : []),
    ],
    columns: [
      { key: 'agent', header: 'Agent', kind: 'text' },
      { key: 'benchmark', header: 'Benchmark', kind: 'text' },
      ...OUTCOME_METRICS.map(({ key, header, kind }) => ({ key, header, kind })),
    ],
    rows,
  };
}

/**
 * The columns of the paired figures by benchmark (b, c, the benchmark's own
 * McNemar p, unique successes, speed shares, benefit pairs), shared by the
 * report and the comparison.
 */
export function pairedFigureColumns(subject: { key: string; header: string }, sideA: string, sideB: string): Column[] {
  return [
    { key: subject.key, header: subject.header, kind: 'text' },
    { key: 'benchmark', header: 'Benchmark', kind: 'text' },
    { key: 'pairs', header: 'Pairs', kind: 'int' },
    { key: 'b', header: 'b', kind: 'int' },
    { key: 'c', header: 'c', kind: 'int' },
    { key: 'pUnadjusted', header: 'p', kind: 'p' },
    { key: 'successRule', header: 'Success rule', kind: 'text' },
    { key: 'uniqueA', header: `Unique ${sideA}`, kind: 'int' },
    { key: 'uniqueB', header: `Unique ${sideB}`, kind: 'int' },
    { key: 'bothSolved', header: 'Both solved', kind: 'int' },
    { key: 'aFasterShare', header: 'A faster %', kind: 'pct' },
    { key: 'aFaster20Share', header: 'A >=20% faster %', kind: 'pct' },
    { key: 'benefitPairs', header: 'Benefit pairs', kind: 'int' },
  ];
}

function pairedByBenchmarkSection(report: Report): Section {
  const key = (agent: string, benchmark: string): string => compositeKey(agent, benchmark);
  const unique = new Map(report.uniqueSuccesses.map((row) => [key(row.agent, row.benchmark), row]));
  const speed = new Map(report.bothSolvedSpeed.map((row) => [key(row.agent, row.benchmark), row]));
  const benefits = new Map<string, number>();
  for (const pair of report.benefitPairs) benefits.set(key(pair.agent, pair.benchmark), (benefits.get(key(pair.agent, pair.benchmark)) ?? 0) + 1);
  const { modeA, modeB } = report.options;
  return {
    title: `Paired comparison by benchmark (${modeA} vs ${modeB})`,
    notes: [
      'b: only A resolved; c: only B resolved; p: exact McNemar of this benchmark alone (not corrected)',
      'unique successes use the benchmark success rule; speed shares are over pairs resolved in both modes',
      `benefit pairs: A's test pass higher, or only A resolved, or A's test pass >= B's and A >= 60 s and >= 20% faster`,
    ],
    columns: pairedFigureColumns({ key: 'agent', header: 'Agent' }, modeA, modeB),
    rows: report.pairedByBenchmark.map((row) => {
      const u = unique.get(key(row.agent, row.benchmark));
      const s = speed.get(key(row.agent, row.benchmark));
      return {
        ...row,
        successRule: u?.successRule ?? 'resolved',
        uniqueA: u?.a ?? 0,
        uniqueB: u?.b ?? 0,
        bothSolved: s?.bothSolved ?? 0,
        aFasterShare: s?.aFasterShare ?? null,
        aFaster20Share: s?.aFaster20Share ?? null,
        benefitPairs: benefits.get(key(row.agent, row.benchmark)) ?? 0,
      };
    }),
  };
}

/** A p that underflowed to 0 is shown from its log10, e.g. 3.2e-903. */
export function pFromLog10(p: number, log10P: number): Cell {
  if (p > 0) return p;
  const exponent = Math.floor(log10P);
  return `${(10 ** (log10P - exponent)).toFixed(1)}e${exponent}`;
}

/** The report as titled tables, in reading order. */
export function reportSections(report: Report, layout: Layout): Section[] {
  const { options, inputs, familyOfTests } = report;
  const sections: Section[] = [
    {
      title: 'Input',
      notes: [],
      columns: [
        { key: 'item', header: 'Item', kind: 'text' },
        { key: 'value', header: 'Value', kind: 'text' },
      ],
      rows: [
        { item: 'executions', value: String(inputs.executions) },
        { item: 'agents', value: inputs.agents.join(', ') },
        { item: 'benchmarks', value: inputs.benchmarks.join(', ') },
        { item: 'mode A / mode B', value: `${options.modeA} / ${options.modeB}` },
        { item: 'pairs (unpaired, duplicates ignored)', value: `${inputs.pairs} (${inputs.unpaired}, ${inputs.duplicates})` },
        { item: 'permutations, seed', value: `${options.permutations}, ${options.seed}` },
      ],
    },
    outcomeSection(report, layout),
    {
      title: `Paired comparison: exact McNemar, Holm over ${familyOfTests.mcnemar.m} agents`,
      notes: [familyOfTests.mcnemar.description],
      columns: [
        { key: 'agent', header: 'Agent', kind: 'text' },
        { key: 'pairs', header: 'Pairs', kind: 'int' },
        { key: 'b', header: 'b', kind: 'int' },
        { key: 'c', header: 'c', kind: 'int' },
        { key: 'p', header: 'p', kind: 'p' },
        { key: 'pAdjusted', header: 'p (Holm)', kind: 'p' },
      ],
      rows: report.mcnemar.map((row) => ({ ...row, p: layout === 'ab' ? pFromLog10(row.p, row.log10P) : row.p })),
    },
    pairedByBenchmarkSection(report),
  ];
  if (layout === 'long') {
    sections.push({
      title: 'Benefit pairs',
      notes: [],
      columns: [
        { key: 'agent', header: 'Agent', kind: 'text' },
        { key: 'benchmark', header: 'Benchmark', kind: 'text' },
        { key: 'suite', header: 'Suite', kind: 'text' },
        { key: 'task', header: 'Task', kind: 'text' },
        { key: 'repetition', header: 'Repetition', kind: 'int' },
        { key: 'reasons', header: 'Reasons', kind: 'text' },
      ],
      rows: report.benefitPairs.map((row) => ({ ...row, reasons: row.reasons.join(' ') })),
    });
  }
  sections.push(
    {
      title: 'Difference by size',
      notes: ['test pass A - B in percentage points, mean over agents (equal weight), benchmarks by median reference kLOC'],
      columns: [
        { key: 'benchmark', header: 'Benchmark', kind: 'text' },
        { key: 'medianReferenceKloc', header: 'Median kLOC', kind: 'num1' },
        { key: 'agents', header: 'Agents', kind: 'int' },
        { key: 'differencePp', header: 'Test pass A-B (pp)', kind: 'pp' },
      ],
      rows: report.differenceBySize.map((row) => ({ ...row, agents: row.agents.length })),
    },
    {
      title: `Delegation by difficulty (${options.modeA})`,
      notes: ['positions are fractions of the execution span; medians of positions over executions that have them; overlap ratio median over all executions'],
      columns: [
        { key: 'agent', header: 'Agent', kind: 'text' },
        { key: 'benchmark', header: 'Benchmark', kind: 'text' },
        { key: 'difficulty', header: 'Difficulty', kind: 'text' },
        { key: 'n', header: 'n', kind: 'int' },
        { key: 'meanCreated', header: 'Mean created', kind: 'num1' },
        { key: 'meanPeak', header: 'Mean peak', kind: 'num1' },
        { key: 'medianOverlapRatio', header: 'Median overlap ratio', kind: 'num3' },
        { key: 'medianFirstSpawnPosition', header: 'First spawn', kind: 'num3' },
        { key: 'medianFirstOverlapPosition', header: 'First overlap', kind: 'num3' },
        { key: 'medianLastEndPosition', header: 'Last end', kind: 'num3' },
        { key: 'neverOverlapping', header: 'Never overlapping', kind: 'int' },
      ],
      rows: report.delegation.map((row) => ({ ...row })),
    },
    {
      title: `Created but never overlapping (${options.modeA})`,
      notes: ['executions with >= 1 sub-agent and no overlap, over all executions of the agent in the mode'],
      columns: [
        { key: 'agent', header: 'Agent', kind: 'text' },
        { key: 'n', header: 'n', kind: 'int' },
        { key: 'neverOverlapping', header: 'Never overlapping', kind: 'int' },
        { key: 'rate', header: 'Rate %', kind: 'pct' },
      ],
      rows: report.neverOverlapping.map((row) => ({ ...row })),
    },
    {
      title: `Delegation vs difficulty: Spearman, Holm over ${familyOfTests.spearman.m} tests`,
      notes: [familyOfTests.spearman.description, `two-sided permutation test, ${options.permutations} permutations, seed ${options.seed}`],
      columns: [
        { key: 'agent', header: 'Agent', kind: 'text' },
        { key: 'benchmark', header: 'Benchmark', kind: 'text' },
        { key: 'variable', header: 'Variable', kind: 'text' },
        { key: 'n', header: 'n', kind: 'int' },
        { key: 'rho', header: 'rho', kind: 'num3' },
        { key: 'p', header: 'p', kind: 'p' },
        { key: 'pAdjusted', header: 'p (Holm)', kind: 'p' },
      ],
      rows: report.spearman.map((row) => ({ ...row })),
    },
    {
      title: 'Families of tests (corrected together)',
      notes: [],
      columns: [
        { key: 'family', header: 'Family', kind: 'text' },
        { key: 'correction', header: 'Correction', kind: 'text' },
        { key: 'm', header: 'm', kind: 'int' },
        { key: 'description', header: 'Members', kind: 'text' },
      ],
      rows: [
        { family: 'mcnemar', correction: 'holm', m: familyOfTests.mcnemar.m, description: familyOfTests.mcnemar.description },
        { family: 'spearman', correction: 'holm', m: familyOfTests.spearman.m, description: familyOfTests.spearman.description },
      ],
    },
  );
  return sections;
}
