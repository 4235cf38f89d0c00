// A stand-alone `fanout report` for the benchmark, used only while the main
// CLI entry (apps/cli/src/main.ts) does not register the command yet. It
// mirrors main.ts's error handling: CliError -> its exit code, commander
// usage errors -> commander's code.
import { Command, CommanderError } from 'commander';
import { registerReportCommand } from '../../apps/cli/src/commands/report.command.js';
import { CliError } from '../../apps/cli/src/output.js';

const program = new Command('fanout').option('--json', 'print JSON for machines (as main.ts)').exitOverride();
registerReportCommand(program);
let code: number;
try {
  await program.parseAsync(process.argv);
  code = process.exitCode === undefined ? 0 : Number(process.exitCode);
} catch (err) {
  if (err instanceof CommanderError) code = err.exitCode;
  else if (err instanceof CliError) {
    process.stderr.write(`fanout: ${err.message}\n`);
    code = err.exitCode;
  } else {
    process.stderr.write(`fanout: ${(err as Error).stack ?? String(err)}\n`);
    code = 1;
  }
}
process.exitCode = code;
