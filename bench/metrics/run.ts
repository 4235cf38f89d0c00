// Benchmark of `fanout report`: generates a study-sized input (354 tasks x 3
// agents x 2 modes) and a 50x one, times the report in-process and as the
// CLI subprocess, and compares the Spearman permutation test and exact
// McNemar with scipy. Run: node scripts/build.mjs && node dist/bench/metrics/run.js
import { ExecutionRecordParser, toMetricsExecution } from '#libs/contracts';
import {
  buildReport,
  DIFFICULTY_SCORE,
  delegationMetrics,
  formatReport,
  mcnemarExact,
  seedFrom,
  spearmanPermutationTest,
  type Execution,
} from '#libs/metrics';
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runScipy } from './scipy-compare.js';
import { STUDY_TASKS, writeStudy } from './generate-study.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PERMUTATIONS = 10_000;
const SUCCESS = ['--success', 'spec-impl=testPassAboveZero'];

function ms(start: number): number {
  return performance.now() - start;
}

function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function printTable(title: string, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(`\n${title}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
}

async function readExecutions(file: string): Promise<{ executions: Execution[]; errors: number }> {
  const parser = new ExecutionRecordParser({ retain: false });
  const executions: Execution[] = [];
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    const record = parser.push(line);
    if (record) executions.push(toMetricsExecution(record));
  }
  return { executions, errors: parser.result().errors.length };
}

/** The CLI as users run it: `node bin/fanout.js report`. */
function runCli(file: string): { ms: number; how: string; status: number | null; stderr: string } {
  const args = ['report', '--input', file, '--format', 'json', ...SUCCESS];
  const start = performance.now();
  const result = spawnSync(process.execPath, [join(root, 'bin/fanout.js'), ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 30 });
  return { ms: ms(start), how: 'node bin/fanout.js report', status: result.status, stderr: result.stderr };
}

interface SizeResult {
  label: string;
  executions: number;
  subAgents: number;
  megabytes: number;
  parseMs: number;
  reportMs: number;
  spearmanMs: number;
  formatMs: number;
  cliMs: number | null;
  cliHow: string;
}

async function measure(dir: string, label: string, repetitions: number): Promise<{ result: SizeResult; executions: Execution[] }> {
  const file = join(dir, `study-${repetitions}x.jsonl`);
  const generated = writeStudy(file, repetitions);
  let start = performance.now();
  const { executions, errors } = await readExecutions(file);
  const parseMs = ms(start);
  if (errors > 0) throw new Error(`${errors} generated lines were rejected`);
  start = performance.now();
  const report = buildReport(executions, { permutations: PERMUTATIONS, seed: 1, successRules: { 'spec-impl': 'testPassAboveZero' } });
  const reportMs = ms(start);
  start = performance.now();
  formatReport(report, 'json');
  const formatMs = ms(start);
  if (report.spearman.length !== 30) throw new Error(`expected 30 Spearman tests, got ${report.spearman.length}`);

  // The 30 permutation tests alone, as buildReport runs them.
  const concurrent = executions.filter((e) => e.mode === 'concurrent');
  const groups = new Map<string, { x: number[]; created: number[]; peak: number[] }>();
  for (const e of concurrent) {
    const key = `${e.agent}\u001f${e.benchmark}`;
    const group = groups.get(key) ?? { x: [], created: [], peak: [] };
    const m = delegationMetrics(e.agents);
    group.x.push(DIFFICULTY_SCORE[e.difficulty]);
    group.created.push(m.created);
    group.peak.push(m.peak);
    groups.set(key, group);
  }
  start = performance.now();
  for (const [key, group] of groups) {
    for (const variable of ['created', 'peak'] as const) {
      spearmanPermutationTest(group.x, group[variable], { permutations: PERMUTATIONS, seed: seedFrom(1, key, variable) });
    }
  }
  const spearmanMs = ms(start);

  const cli = runCli(file);
  if (cli.status !== 0) console.error(`CLI run failed (${cli.how}, exit ${cli.status}):\n${cli.stderr.slice(0, 2000)}`);
  return {
    executions,
    result: {
      label,
      executions: generated.executions,
      subAgents: generated.subAgents,
      megabytes: generated.bytes / 1e6,
      parseMs,
      reportMs,
      spearmanMs,
      formatMs,
      cliMs: cli.status === 0 ? cli.ms : null,
      cliHow: cli.how,
    },
  };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'fanout-bench-'));
  console.log(`fanout metrics benchmark: node ${process.version}, ${STUDY_TASKS} tasks x 3 agents x 2 modes, ${PERMUTATIONS} permutations; files in ${dir}`);
  try {
    const study = await measure(dir, 'study (1x)', 1);
    const big = await measure(dir, '50x', 50);
    const results = [study.result, big.result];
    printTable(
      'fanout report (times in ms; in-process = parse + validate + buildReport)',
      ['input', 'executions', 'sub-agents', 'MB', 'parse', 'buildReport', '30 Spearman', 'format json', 'in-process', 'CLI subprocess'],
      results.map((r) => [
        r.label,
        fmt(r.executions),
        fmt(r.subAgents),
        fmt(r.megabytes, 1),
        fmt(r.parseMs),
        fmt(r.reportMs),
        fmt(r.spearmanMs),
        fmt(r.formatMs),
        fmt(r.parseMs + r.reportMs),
        r.cliMs === null ? 'failed' : fmt(r.cliMs),
      ]),
    );
    console.log(`CLI run as: ${study.result.cliHow}`);
    const growth = (f: (r: SizeResult) => number | null): string => {
      const a = f(study.result);
      const b = f(big.result);
      return a && b ? `${fmt(b / a, 1)}x` : 'n/a';
    };
    console.log(`growth 1x -> 50x: in-process ${growth((r) => r.parseMs + r.reportMs)}, CLI ${growth((r) => r.cliMs)} (50x input; linear would be 50x)`);
    const studyCli = study.result.cliMs ?? Infinity;
    const bigCli = big.result.cliMs ?? Infinity;
    console.log(`targets: study-sized CLI report < 2,000 ms: ${studyCli < 2000 ? 'met' : 'MISSED'}; 50x < 30,000 ms: ${bigCli < 30_000 ? 'met' : 'MISSED'}`);

    // Side by side with scipy on one real study group (codex x repo-rebuild, concurrent).
    const group = study.executions.filter((e) => e.mode === 'concurrent' && e.agent === 'codex' && e.benchmark === 'repo-rebuild');
    const x = group.map((e) => DIFFICULTY_SCORE[e.difficulty]);
    const y = group.map((e) => delegationMetrics(e.agents).created);
    const repeats = 20;
    let start = performance.now();
    let fanoutTest = spearmanPermutationTest(x, y, { permutations: PERMUTATIONS, seed: 1 });
    for (let i = 1; i < repeats; i++) fanoutTest = spearmanPermutationTest(x, y, { permutations: PERMUTATIONS, seed: 1 });
    const fanoutSpearmanMs = ms(start) / repeats;
    const mcnemarCases: Array<[number, number]> = [[12, 30], [400, 470], [1200, 1350], [0, 3000]];
    const mcnemarRepeats = 2000;
    const fanoutMcnemar = mcnemarCases.map(([b, c]) => {
      start = performance.now();
      let p = 0;
      for (let i = 0; i < mcnemarRepeats; i++) p = mcnemarExact(b, c).p;
      return { b, c, p, log10P: mcnemarExact(b, c).log10P, msPerCall: ms(start) / mcnemarRepeats };
    });
    const scipy = runScipy({ x, y, permutations: PERMUTATIONS, mcnemar: mcnemarCases, mcnemarRepeats: 200 });
    if ('skipped' in scipy) {
      console.log(`\nscipy comparison skipped: ${scipy.skipped}`);
      console.log(`fanout alone: Spearman permutation test (n = ${x.length}, ${PERMUTATIONS} permutations) ${fmt(fanoutSpearmanMs, 2)} ms`);
      return;
    }
    const t = scipy.timings;
    const ratio = (scipyMs: number, fanoutMs: number) => `${fmt(scipyMs / fanoutMs, 1)}x`;
    printTable(
      `Fanout vs scipy ${t.scipy} (time per test; ratio = scipy / fanout, > 1 means Fanout is faster)`,
      ['test', 'fanout', 'scipy', 'ratio'],
      [
        [`Spearman perm. test n=${x.length}, N=${PERMUTATIONS} (scipy permutation_test, vectorized), ms`, fmt(fanoutSpearmanMs, 2), fmt(t.spearmanVectorizedMs, 2), ratio(t.spearmanVectorizedMs, fanoutSpearmanMs)],
        [`Spearman perm. test n=${x.length}, N=${PERMUTATIONS} (scipy permutation_test + spearmanr), ms`, fmt(fanoutSpearmanMs, 2), fmt(t.spearmanPerPermutationMs, 2), ratio(t.spearmanPerPermutationMs, fanoutSpearmanMs)],
        ...fanoutMcnemar.map((f, i) => {
          const s = t.mcnemar[i]!;
          return [`exact McNemar b=${f.b}, c=${f.c} (scipy binomtest), microseconds`, fmt(f.msPerCall * 1000, 2), fmt(s.msPerCall * 1000, 1), ratio(s.msPerCall, f.msPerCall)];
        }),
      ],
    );
    console.log(`same statistic: rho fanout ${fanoutTest.rho?.toFixed(12)} vs scipy ${t.rho.toFixed(12)}; p fanout ${fanoutTest.p?.toFixed(4)} vs scipy ${t.pVectorized.toFixed(4)} (different generators)`);
    console.log(
      `McNemar p: ${fanoutMcnemar.map((f, i) => `(${f.b},${f.c}) fanout ${f.p.toExponential(6)} (log10 ${f.log10P.toFixed(4)}) scipy ${t.mcnemar[i]!.p.toExponential(6)}`).join('; ')}`,
    );
  } finally {
    if (!process.argv.includes('--keep')) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
