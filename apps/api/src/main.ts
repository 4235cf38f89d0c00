import 'reflect-metadata';
import { ConfigError, loadConfig, resolveJwtSecret, resolveSecretsKey } from '#libs/config';
import { AccountService } from '#libs/identity';
import { createLogger } from '#libs/observability';
import { openDatabase } from '#libs/persistence';
import { createApi } from './bootstrap.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.logLevel);
  const started = performance.now();
  const db = await openDatabase(config, logger, { migrate: config.migrateOnStart });
  const app = await createApi({ config, logger, dataSource: db.dataSource, jwtSecret: await resolveJwtSecret(config), secretsKey: await resolveSecretsKey(config) });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    await app.close();
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen(config.port, config.host);
  const url = `http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port}`;
  if (!(await app.get(AccountService).hasAnyUser())) {
    process.stdout.write(
      [
        '',
        `Fanout is running at ${url} (GraphQL at ${url}/graphql). The database has no users yet.`,
        'Create the first one, with an organization and an API key:',
        '  npx fanout user create --email you@example.com --name "Your Name"     (asks for a password)',
        '  npx fanout org create --name "My Lab" --owner you@example.com',
        '  npx fanout keys create --org <slug printed above> --name ci --role admin',
        'or sign up over GraphQL: mutation { signUp(input: {email: "...", password: "...", name: "..."}) { accessToken } }',
        '',
      ].join('\n'),
    );
  }
  logger.info({ url, ms: Math.round(performance.now() - started), embeddedDatabase: db.embedded }, 'fanout api listening');
}

main().catch((err) => {
  console.error(err instanceof Error ? err.stack : err);
  process.exit(1);
});
