import { ExecutionRecordParser, toMetricsExecution } from '#libs/contracts';
import { buildReport, DEFAULT_REPORT_OPTIONS, formatReport, REPORT_FORMATS, type Execution, type Report, type ReportFormat, type SuccessRule } from '#libs/metrics';
import { graphql, type ApiOptions } from '../api-client.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { createReadStream, statSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { CliError } from '../output.js';

const SUCCESS_RULES: readonly SuccessRule[] = ['resolved', 'testPassAboveZero'];

interface ReportCommandOptions {
  input?: string;
  campaign?: string;
  format: ReportFormat;
  modeA: string;
  modeB: string;
  permutations: number;
  seed: number;
  success: Record<string, SuccessRule>;
}

export function nonNegativeInteger(optionName: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const parsed = Number(value);
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed) || parsed > max) {
      throw new InvalidArgumentError(`${optionName} expects an integer from 0 to ${max}, received "${value}".`);
    }
    return parsed;
  };
}

export function successRule(value: string, previous: Record<string, SuccessRule>): Record<string, SuccessRule> {
  const at = value.lastIndexOf('=');
  const benchmark = at > 0 ? value.slice(0, at) : '';
  const rule = value.slice(at + 1);
  if (!benchmark || !rule || !(SUCCESS_RULES as readonly string[]).includes(rule)) {
    throw new InvalidArgumentError(`--success expects BENCHMARK=${SUCCESS_RULES.join('|')}, received "${value}".`);
  }
  return { ...previous, [benchmark]: rule as SuccessRule };
}

/** Streams the file line by line: a 50x study is hundreds of megabytes, more than one string should hold. */
export async function readExecutions(file: string): Promise<{ executions: Execution[]; rejected: number }> {
  let isFile: boolean;
  try {
    isFile = statSync(file).isFile();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`--input ${file}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? (error as Error).message})`}`);
  }
  if (!isFile) throw new CliError(`--input ${file}: not a regular file`);

  const parser = new ExecutionRecordParser({ retain: false });
  const executions: Execution[] = [];
  let reported = 0;
  const lines = createInterface({ input: createReadStream(file, { encoding: 'utf8' }), crlfDelay: Infinity });
  for await (const line of lines) {
    const record = parser.push(line);
    if (record) executions.push(toMetricsExecution(record));
    const { errors } = parser.result();
    for (; reported < errors.length; reported++) {
      const error = errors[reported]!;
      process.stderr.write(`line ${error.line}: ${error.field}: ${error.reason}\n`);
    }
  }
  const rejectedLines = new Set(parser.result().errors.map((e) => e.line)).size;
  return { executions, rejected: rejectedLines };
}

/** Writes to stdout and waits: the CLI exits explicitly right after, and stdout may be an asynchronous pipe. */
export function writeOut(text: string): Promise<void> {
  return new Promise<void>((resolve, reject) => process.stdout.write(text, (error) => (error ? reject(error) : resolve())));
}

/**
 * `fanout report --input FILE.jsonl`: the study's tables from execution
 * records, offline. Exit code 0 when every line was valid, 2 when some were
 * rejected (the report is still printed from the valid ones), 1 on a fatal
 * error.
 */
export function registerReportCommand(program: Command): void {
  program
    .command('report')
    .description('Print the study tables (outcomes, paired comparison, delegation, Spearman) for a JSONL file of execution records (offline), or for a campaign on the server.')
    .option('--input <file>', 'JSONL file, one execution record per line (see docs/formats.md); works offline')
    .option('--campaign <id>', 'a campaign on the server (yours, or a public one); the server computes the same report')
    .addOption(new Option('--format <format>', 'output format').choices(REPORT_FORMATS).default('table'))
    .option('--mode-a <mode>', 'mode A of the paired comparison; delegation metrics use it', DEFAULT_REPORT_OPTIONS.modeA)
    .option('--mode-b <mode>', 'mode B of the paired comparison', DEFAULT_REPORT_OPTIONS.modeB)
    .option('--permutations <n>', 'permutations per Spearman test', nonNegativeInteger('--permutations', 100_000_000), DEFAULT_REPORT_OPTIONS.permutations)
    .option('--seed <s>', 'seed of the permutation tests (0 to 4294967295)', nonNegativeInteger('--seed', 0xffffffff), DEFAULT_REPORT_OPTIONS.seed)
    .option('--success <benchmark=rule>', `a benchmark's success rule for unique successes (${SUCCESS_RULES.join('|')}); repeatable`, successRule, {})
    .action(async (options: ReportCommandOptions, command: Command) => {
      // The program-wide --json flag means JSON here too, unless --format was given explicitly.
      const format: ReportFormat =
        command.optsWithGlobals<{ json?: boolean }>().json === true && command.getOptionValueSource('format') === 'default' ? 'json' : options.format;
      if (options.modeA === options.modeB) throw new CliError(`--mode-a and --mode-b must differ (both are "${options.modeA}")`);
      if ((options.input == null) === (options.campaign == null)) throw new CliError('give exactly one of --input FILE.jsonl or --campaign ID');
      if (options.campaign) {
        const data = await graphql<{ campaignReport: Report }>(
          command.optsWithGlobals<ApiOptions>(),
          'query($id: ID!, $a: String!, $b: String!, $n: Int!, $s: Int!) { campaignReport(id: $id, modeA: $a, modeB: $b, permutations: $n, seed: $s) }',
          { id: options.campaign, a: options.modeA, b: options.modeB, n: options.permutations, s: options.seed },
        );
        await writeOut(formatReport(data.campaignReport, format));
        return;
      }
      const { executions, rejected } = await readExecutions(options.input!);
      const report = buildReport(executions, {
        modeA: options.modeA,
        modeB: options.modeB,
        permutations: options.permutations,
        seed: options.seed,
        successRules: options.success,
      });
      await writeOut(formatReport(report, format));
      if (rejected > 0) {
        process.stderr.write(`fanout: ${rejected} line(s) rejected; the report uses the ${executions.length} valid execution(s)\n`);
        process.exitCode = 2;
      }
    });
}
