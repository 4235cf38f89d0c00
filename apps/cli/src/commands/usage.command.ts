import { formatUsdFromMicros } from '#libs/metrics';
import { Option, type Command } from 'commander';
import { graphql, type ApiOptions } from '../api-client.js';
import { CliError, renderRows } from '../output.js';

const FORMATS = ['table', 'markdown', 'csv', 'json'] as const;
type Format = (typeof FORMATS)[number];
const DIMENSIONS = ['campaign', 'agent', 'model', 'mode', 'day'] as const;

interface UsageRow {
  campaignId: string | null;
  campaignName: string | null;
  agent: string | null;
  model: string | null;
  mode: string | null;
  day: string | null;
  calls: number;
  executions: number;
  tokens: { uncachedInput: number; cacheRead: number; cacheWrite: number; output: number; reasoning: number; total: number };
  costUsd: number;
  unpricedCalls: number;
  resolved: number | null;
  costPerResolvedUsd: number | null;
}

/** Dollars with 2 decimals, rounded half up from the exact micro-dollars the API summed. */
const usd = (v: number | null) => (v == null ? '-' : formatUsdFromMicros(Math.round(v * 1e6)));
const millions = (v: number) => (v / 1e6).toFixed(3);

function parseDimensions(value: string): string[] {
  const dims = value.split(',').map((d) => d.trim().toLowerCase()).filter(Boolean);
  for (const d of dims) {
    if (!(DIMENSIONS as readonly string[]).includes(d)) throw new CliError(`--by: expected a comma-separated list of ${DIMENSIONS.join(', ')}; got "${d}"`);
  }
  return [...new Set(dims)];
}

function parseTime(flag: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  // A bare date is its UTC midnight.
  const time = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(time.getTime())) throw new CliError(`${flag}: expected an ISO 8601 date or time (2025-06-01 or 2025-06-01T12:00:00Z), got "${value}"`);
  return time.toISOString();
}

/** `fanout usage`: the key's organization's usage from the ledger, grouped as asked. */
export function registerUsageCommand(program: Command): void {
  program
    .command('usage')
    .description("Your organization's usage from recorded model calls: calls, tokens by kind, dollars and cost per resolved execution (uses the API).")
    .option('--by <dimensions>', `group by a comma-separated list of ${DIMENSIONS.join(', ')} (default: none, the organization's total)`, '')
    .option('--from <time>', 'calls at or after this time (ISO 8601; a date is its UTC midnight)')
    .option('--to <time>', 'calls before this time (ISO 8601; a date is its UTC midnight)')
    .option('--campaign <id>', 'only this campaign')
    .addOption(new Option('--format <format>', 'output format').choices(FORMATS).default('table'))
    .action(async (opts: { by: string; from?: string; to?: string; campaign?: string; format: Format }, command: Command) => {
      const globals = command.optsWithGlobals<ApiOptions & { json?: boolean }>();
      const dims = parseDimensions(opts.by);
      const data = await graphql<{ usage: UsageRow[] }>(
        globals,
        `query($by: [UsageDimension!]!, $from: DateTime, $to: DateTime, $campaign: ID) { usage(groupBy: $by, from: $from, to: $to, campaign: $campaign) {
           campaignId campaignName agent model mode day calls executions
           tokens { uncachedInput cacheRead cacheWrite output reasoning total } costUsd unpricedCalls resolved costPerResolvedUsd } }`,
        { by: dims.map((d) => d.toUpperCase()), from: parseTime('--from', opts.from), to: parseTime('--to', opts.to), campaign: opts.campaign ?? null },
      );
      const format = globals.json && command.getOptionValueSource('format') === 'default' ? 'json' : opts.format;
      if (format === 'json') {
        process.stdout.write(`${JSON.stringify(data.usage, null, 2)}\n`);
        return;
      }
      const showResolved = dims.every((d) => d === 'campaign' || d === 'agent' || d === 'mode');
      const rows = data.usage.map((r) => ({
        ...(dims.includes('campaign') ? { campaign: `${r.campaignName ?? ''} (${r.campaignId})` } : {}),
        ...(dims.includes('agent') ? { agent: r.agent ?? '-' } : {}),
        ...(dims.includes('model') ? { model: r.model ?? '-' } : {}),
        ...(dims.includes('mode') ? { mode: r.mode ?? '-' } : {}),
        ...(dims.includes('day') ? { day: r.day ?? '-' } : {}),
        calls: r.calls,
        executions: r.executions,
        'uncached in (M)': millions(r.tokens.uncachedInput),
        'cache read (M)': millions(r.tokens.cacheRead),
        'cache write (M)': millions(r.tokens.cacheWrite),
        'output (M)': millions(r.tokens.output),
        'reasoning (M)': millions(r.tokens.reasoning),
        'cost $': usd(r.costUsd),
        unpriced: r.unpricedCalls,
        ...(showResolved ? { resolved: r.resolved ?? '-', '$/resolved': usd(r.costPerResolvedUsd) } : {}),
      }));
      const columns = [
        ...dims,
        'calls',
        'executions',
        'uncached in (M)',
        'cache read (M)',
        'cache write (M)',
        'output (M)',
        'reasoning (M)',
        'cost $',
        'unpriced',
        ...(showResolved ? ['resolved', '$/resolved'] : []),
      ];
      process.stdout.write(`${renderRows(rows, columns, format)}\n`);
      const unpriced = data.usage.reduce((n, r) => n + r.unpricedCalls, 0);
      if (format === 'table' && unpriced > 0) process.stdout.write(`${unpriced} call(s) of models without a price in force are counted at $0 (see modelPrices).\n`);
    });
}
