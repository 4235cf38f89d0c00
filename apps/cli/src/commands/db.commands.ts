import { loadConfig } from '#libs/config';
import { createLogger } from '#libs/observability';
import { openDatabase } from '#libs/persistence';
import type { Command } from 'commander';
import { print, type OutputOptions } from '../output.js';

export function registerDbCommands(program: Command): void {
  const db = program.command('db').description('The platform database (embedded under FANOUT_HOME, or DATABASE_URL).');
  db.command('migrate')
    .description('Apply pending migrations (the API also does this on start).')
    .action(async () => {
      const config = loadConfig();
      const database = await openDatabase(config, createLogger(process.env.LOG_LEVEL ?? 'warn'), { migrate: false, poolSize: 2 });
      try {
        const { migrate } = await import('#libs/database');
        const applied = await migrate(database.dataSource);
        print(program.opts<OutputOptions>(), { applied }, () => (applied.length ? `applied ${applied.join(', ')}` : 'database is up to date'));
      } finally {
        await database.close();
      }
    });
}
