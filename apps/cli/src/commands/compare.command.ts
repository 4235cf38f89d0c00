import {
  buildComparison,
  DEFAULT_COMPARISON_OPTIONS,
  formatComparison,
  REPORT_FORMATS,
  type Comparison,
  type ComparisonFamily,
  type ComparisonSpec,
  type ReportFormat,
  type SuccessRule,
} from '#libs/metrics';
import { Command, Option } from 'commander';
import { graphql, type ApiOptions } from '../api-client.js';
import { CliError } from '../output.js';
import { nonNegativeInteger, readExecutions, successRule, writeOut } from './report.command.js';

interface CompareCommandOptions {
  input?: string;
  campaign?: string;
  agentConfig?: string;
  format: ReportFormat;
  modeA: string;
  modeB: string;
  agentA?: string;
  agentB?: string;
  mode?: string;
  family: ComparisonFamily;
  resamples: number;
  seed: number;
  success: Record<string, SuccessRule>;
}

const INTERVAL = 'n mean lower upper resamples';
const AB = 'a b';
const PAIR = 'subject campaignId benchmark suite task repetition executionA executionB';
/** Every field of the GraphQL Comparison: the CLI formats exactly what the server computed. */
const COMPARISON_FIELDS = `by sideA sideB resamples seed
  inputs { executions subjects benchmarks pairs unpaired duplicates }
  family { correction family description m }
  benchmarks { subject benchmark n { ${AB} } resolved { ${AB} } taskPass { ${AB} } testPass { ${AB} } shellCalls { ${AB} } minutes { ${AB} }
    tokensMillions { ${AB} } costUsd { ${AB} } tokensPerSolved { ${AB} } costPerSolved { ${AB} } infraFailed { ${AB} } noTests { ${AB} }
    pairs b c pUnadjusted successRule uniqueA uniqueB bothSolved aFaster aFasterShare aFaster20 aFaster20Share benefitPairs testPassDifference { ${INTERVAL} } }
  tests { subject benchmark pairs b c p log10P pAdjusted testPassDifference { ${INTERVAL} } }
  discordantPairs { ${PAIR} resolvedBy }
  benefitPairs { ${PAIR} reasons }
  differenceBySize { benchmark medianReferenceKloc subjects differencePp }`;

type Pair = { campaignId: string | null } & Record<string, unknown>;
interface ServerComparison {
  by: 'mode' | 'agent';
  sideA: string;
  sideB: string;
  resamples: number;
  seed: number;
  inputs: Comparison['inputs'];
  family: Omit<Comparison['family'], 'family'> & { family: 'POOLED' | 'PER_BENCHMARK' };
  benchmarks: Comparison['benchmarks'];
  tests: Comparison['tests'];
  discordantPairs: Pair[];
  benefitPairs: Pair[];
  differenceBySize: { benchmark: string; medianReferenceKloc: number | null; subjects: string[]; differencePp: number | null }[];
}

/** The server's answer back in the libs/metrics shape, so both forms print through one formatter. */
function fromServer(c: ServerComparison, spec: ComparisonSpec, successRules: Record<string, SuccessRule>): Comparison {
  const pair = ({ campaignId, ...rest }: Pair) => ({ ...rest, group: campaignId });
  const family = { ...c.family, family: c.family.family === 'POOLED' ? ('pooled' as const) : ('perBenchmark' as const) };
  return {
    spec,
    options: { family: family.family, resamples: c.resamples, seed: c.seed, successRules },
    sideA: c.sideA,
    sideB: c.sideB,
    inputs: c.inputs,
    benchmarks: c.benchmarks,
    tests: c.tests,
    family,
    discordantPairs: c.discordantPairs.map(pair) as unknown as Comparison['discordantPairs'],
    benefitPairs: c.benefitPairs.map(pair) as unknown as Comparison['benefitPairs'],
    differenceBySize: c.differenceBySize.map(({ subjects, ...rest }) => ({ ...rest, agents: subjects })),
  };
}

function familyOption(value: string): ComparisonFamily {
  if (value !== 'pooled' && value !== 'perBenchmark') throw new CliError(`--family expects pooled or perBenchmark, received "${value}".`);
  return value;
}

/**
 * `fanout compare`: the paired comparison (mode A vs B per agent, or agent A
 * vs B in one mode) from a campaign on the server, an agent config across
 * your campaigns, or a JSONL file offline; the same numbers either way.
 */
export function registerCompareCommand(program: Command): void {
  program
    .command('compare')
    .description('Paired comparison (Table 2 as A / B, McNemar with Holm, unique successes, speed, benefit pairs, difference by size, bootstrap interval) of a campaign, an agent config, or a JSONL file (offline).')
    .option('--campaign <id>', 'a campaign on the server (yours, or a public one)')
    .option('--agent-config <id>', 'an agent config: mode A vs B across the campaigns you can see (pairs stay inside a campaign)')
    .option('--input <file>', 'JSONL file of execution records (docs/formats.md); works offline')
    .addOption(new Option('--format <format>', 'output format').choices(REPORT_FORMATS).default('table'))
    .option('--mode-a <mode>', 'mode A', 'concurrent')
    .option('--mode-b <mode>', 'mode B', 'sequential')
    .option('--agent-a <name>', 'compare two agents instead: agent A (with --agent-b and --mode)')
    .option('--agent-b <name>', 'agent B')
    .option('--mode <mode>', 'the mode both agents ran in')
    .option('--family <family>', 'McNemar tests corrected together: pooled (one per agent, the study) or perBenchmark', familyOption, DEFAULT_COMPARISON_OPTIONS.family)
    .option('--resamples <n>', 'paired bootstrap resamples', nonNegativeInteger('--resamples', 100_000), DEFAULT_COMPARISON_OPTIONS.resamples)
    .option('--seed <s>', 'bootstrap seed (0 to 4294967295)', nonNegativeInteger('--seed', 0xffffffff), DEFAULT_COMPARISON_OPTIONS.seed)
    .option('--success <benchmark=rule>', "a benchmark's success rule for unique successes (offline; the server uses the benchmark's)", successRule, {})
    .action(async (options: CompareCommandOptions, command: Command) => {
      const format: ReportFormat =
        command.optsWithGlobals<{ json?: boolean }>().json === true && command.getOptionValueSource('format') === 'default' ? 'json' : options.format;
      const sources = [options.input, options.campaign, options.agentConfig].filter((s) => s != null).length;
      if (sources !== 1) throw new CliError('give exactly one of --campaign ID, --agent-config ID or --input FILE.jsonl');
      const byAgent = options.agentA != null || options.agentB != null || options.mode != null;
      if (byAgent && (options.agentA == null || options.agentB == null || options.mode == null)) throw new CliError('comparing agents needs all of --agent-a, --agent-b and --mode');
      if (byAgent && options.agentConfig) throw new CliError('--agent-config compares modes; compare agents with --campaign or --input');
      if (options.resamples < 1) throw new CliError('--resamples expects an integer from 1 to 100000, received "0".');
      const spec: ComparisonSpec = byAgent
        ? { by: 'agent', agentA: options.agentA!, agentB: options.agentB!, mode: options.mode! }
        : { by: 'mode', modeA: options.modeA, modeB: options.modeB };
      if (spec.by === 'mode' && spec.modeA === spec.modeB) throw new CliError(`--mode-a and --mode-b must differ (both are "${spec.modeA}")`);
      if (spec.by === 'agent' && spec.agentA === spec.agentB) throw new CliError(`--agent-a and --agent-b must differ (both are "${spec.agentA}")`);
      const settings = { family: options.family, resamples: options.resamples, seed: options.seed };

      if (options.input) {
        const { executions, rejected } = await readExecutions(options.input);
        await writeOut(formatComparison(buildComparison(executions, spec, { ...settings, successRules: options.success }), format));
        if (rejected > 0) {
          process.stderr.write(`fanout: ${rejected} line(s) rejected; the comparison uses the ${executions.length} valid execution(s)\n`);
          process.exitCode = 2;
        }
        return;
      }
      const api = command.optsWithGlobals<ApiOptions>();
      const family = options.family === 'pooled' ? 'POOLED' : 'PER_BENCHMARK';
      const common = { family, resamples: options.resamples, seed: options.seed };
      const server =
        spec.by === 'agent'
          ? (
              await graphql<{ agentComparison: ServerComparison }>(
                api,
                `query($c: ID!, $a: String!, $b: String!, $m: String!, $family: ComparisonFamily!, $resamples: Int!, $seed: Int!) {
                  agentComparison(campaign: $c, agentA: $a, agentB: $b, mode: $m, family: $family, resamples: $resamples, seed: $seed) { ${COMPARISON_FIELDS} } }`,
                { c: options.campaign, a: spec.agentA, b: spec.agentB, m: spec.mode, ...common },
              )
            ).agentComparison
          : (
              await graphql<{ comparison: ServerComparison }>(
                api,
                `query($c: ID, $cfg: ID, $a: String!, $b: String!, $family: ComparisonFamily!, $resamples: Int!, $seed: Int!) {
                  comparison(campaign: $c, agentConfig: $cfg, modeA: $a, modeB: $b, family: $family, resamples: $resamples, seed: $seed) { ${COMPARISON_FIELDS} } }`,
                { c: options.campaign ?? null, cfg: options.agentConfig ?? null, a: spec.modeA, b: spec.modeB, ...common },
              )
            ).comparison;
      const successRules = Object.fromEntries(server.benchmarks.filter((r) => r.successRule !== 'resolved').map((r) => [r.benchmark, r.successRule]));
      await writeOut(formatComparison(fromServer(server, spec, successRules), format));
    });
}
