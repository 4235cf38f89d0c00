import { Option, type Command } from 'commander';
import { graphql, type ApiOptions } from '../api-client.js';
import { renderRows } from '../output.js';

const FORMATS = ['table', 'markdown', 'csv', 'json'] as const;
type Format = (typeof FORMATS)[number];

const pct = (v: number | null) => (v == null ? '-' : (v * 100).toFixed(1));
const usd = (v: number | null) => (v == null ? '-' : v.toFixed(2));

/** `fanout leaderboard BENCHMARK`: the public board (public campaigns only), from the server. */
export function registerLeaderboardCommand(program: Command): void {
  program
    .command('leaderboard <benchmark>')
    .description('The public leaderboard of a benchmark: one row per agent config version x mode, public campaigns only.')
    .option('--version <version>', 'benchmark version (default: the latest public one)')
    .option('--suite <suite>', 'only this suite')
    .option('--mode <mode>', 'only this mode')
    .addOption(new Option('--difficulty <difficulty>', 'only this difficulty group').choices(['easy', 'medium', 'hard']))
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('table'))
    .action(async (benchmark: string, opts: { version?: string; suite?: string; mode?: string; difficulty?: string; format: Format }, command: Command) => {
      const globals = command.optsWithGlobals<ApiOptions & { json?: boolean }>();
      const data = await graphql<{ leaderboard: { benchmark: string; version: string; rows: any[] } }>(
        globals,
        `query($b: String!, $v: String, $s: String, $m: String, $d: Difficulty) { leaderboard(benchmark: $b, version: $v, suite: $s, mode: $m, difficulty: $d) {
           benchmark version rows { agent agentVersion mode n resolved taskPass taskPassLow taskPassHigh testPass meanMinutes meanTokensMillions meanCostUsd totalCostUsd costPerResolvedUsd infraFailed onParetoFront campaigns { id name } } } }`,
        { b: benchmark, v: opts.version ?? null, s: opts.suite ?? null, m: opts.mode ?? null, d: opts.difficulty?.toUpperCase() ?? null },
      );
      const format = globals.json && command.getOptionValueSource('format') === 'default' ? 'json' : opts.format;
      if (format === 'json') {
        process.stdout.write(`${JSON.stringify(data.leaderboard, null, 2)}\n`);
        return;
      }
      const rows = data.leaderboard.rows.map((r) => ({
        agent: `${r.agent} v${r.agentVersion}`,
        mode: r.mode,
        n: r.n,
        'task pass %': `${pct(r.taskPass)} [${pct(r.taskPassLow)}, ${pct(r.taskPassHigh)}]`,
        'test pass %': pct(r.testPass),
        minutes: r.meanMinutes == null ? '-' : r.meanMinutes.toFixed(1),
        'tokens (M)': r.meanTokensMillions == null ? '-' : r.meanTokensMillions.toFixed(2),
        'cost $': usd(r.meanCostUsd),
        'total $': usd(r.totalCostUsd),
        '$/resolved': usd(r.costPerResolvedUsd),
        'infra failed': r.infraFailed,
        pareto: r.onParetoFront ? 'yes' : '',
        campaigns: r.campaigns.length,
      }));
      const columns = ['agent', 'mode', 'n', 'task pass %', 'test pass %', 'minutes', 'tokens (M)', 'cost $', 'total $', '$/resolved', 'infra failed', 'pareto', 'campaigns'];
      const title = `${data.leaderboard.benchmark} ${data.leaderboard.version} (public campaigns; task pass with its 95% Wilson interval; means per execution)`;
      process.stdout.write(`${format === 'table' ? `${title}\n` : ''}${renderRows(rows, columns, format)}\n`);
    });
}
