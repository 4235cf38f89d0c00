// An embedded Postgres in a temporary home and the built API as a child
// process on loopback, as `npm start` runs it (scheduler and demo off). The
// API runs in its own process so the load generator never shares its event
// loop; it can be restarted on the same database to measure a cold start.
import { EmbeddedPostgresManager, createDataSource, migrate, type RunningDatabase } from '#libs/database';
import { entities, migrations } from '#libs/persistence';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { access, copyFile, cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';

export interface GqlAnswer<T> {
  status: number;
  data: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
  bytes: number;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

export class BenchServer {
  private api: ChildProcess | null = null;
  /** The API's last output lines, shown when it dies. */
  private readonly tail: string[] = [];
  /** Set when the API process ended without being asked to. */
  crashed: string | null = null;
  url = '';
  /** Production mode needs both; the same across restarts, so sessions stay valid. */
  private readonly jwtSecret = randomBytes(32).toString('hex');
  private readonly secretsKey = randomBytes(32).toString('base64url');

  private constructor(
    /** A private copy of the built app (see `start`). */
    private readonly app: string,
    readonly home: string,
    private readonly pg: RunningDatabase,
    readonly dataSource: DataSource,
  ) {}

  /**
   * A fresh temporary home: never the user's database. The API runs from a
   * copy of dist/ taken now, so a rebuild in the working tree while the
   * benchmark runs (which empties dist/) cannot break the restart.
   */
  static async start(root: string): Promise<BenchServer> {
    const home = await mkdtemp(join(tmpdir(), 'fanout-bench-results-'));
    const app = join(home, 'app');
    await cp(join(root, 'dist'), join(app, 'dist'), { recursive: true });
    await copyFile(join(root, 'package.json'), join(app, 'package.json'));
    await symlink(join(root, 'node_modules'), join(app, 'node_modules'));
    await access(join(app, 'dist/apps/api/src/main.js'));
    const pg = await new EmbeddedPostgresManager({ home, port: await freePort(), logger: pino({ level: 'warn' }), settings: { max_connections: '100' } }).start();
    const dataSource = createDataSource(pg.url, { entities, migrations }, 2);
    await dataSource.initialize();
    await migrate(dataSource);
    return new BenchServer(app, home, pg, dataSource);
  }

  /** Starts the API and resolves once /readyz answers, with the milliseconds it took. */
  async startApi(): Promise<number> {
    const port = await freePort();
    const started = performance.now();
    this.crashed = null;
    const api = spawn(process.execPath, [join(this.app, 'dist/apps/api/src/main.js')], {
      cwd: this.app,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        JWT_SECRET: this.jwtSecret,
        FANOUT_SECRETS_KEY: this.secretsKey,
        DATABASE_URL: this.pg.url,
        PORT: String(port),
        HOST: '127.0.0.1',
        FANOUT_HOME: this.home,
        FANOUT_SCHEDULER: 'off',
        FANOUT_DEMO: 'off',
        FANOUT_MIGRATE_ON_START: 'false',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.api = api;
    const keep = (chunk: Buffer) => {
      this.tail.push(...chunk.toString().split('\n').filter(Boolean));
      this.tail.splice(0, Math.max(0, this.tail.length - 40));
    };
    api.stdout!.on('data', keep);
    api.stderr!.on('data', keep);
    api.once('exit', (code, signal) => {
      if (this.api === api) this.crashed = `the API exited (code ${code}, signal ${signal}); its last output:\n${this.tail.join('\n')}`;
    });
    this.url = `http://127.0.0.1:${port}`;
    for (let i = 0; ; i++) {
      if (this.crashed) throw new Error(this.crashed);
      if ((await fetch(`${this.url}/readyz`).catch(() => null))?.ok) return performance.now() - started;
      if (i > 600) throw new Error('the API did not become ready in 60 s');
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stopApi(): Promise<void> {
    const api = this.api;
    if (!api) return;
    this.api = null;
    if (api.exitCode !== null || api.signalCode !== null) return;
    const exited = new Promise((r) => api.once('exit', r));
    api.kill('SIGINT');
    const timer = setTimeout(() => api.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }

  /** CPU seconds the API process has used (user + system), from /proc; null where there is none. */
  async apiCpuSeconds(): Promise<number | null> {
    if (!this.api?.pid) return null;
    try {
      const stat = await readFile(`/proc/${this.api.pid}/stat`, 'utf8');
      // Fields after "(comm)": state is the first, utime and stime the 12th and 13th, in clock ticks (100 per second on Linux).
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    } catch {
      return null;
    }
  }

  async gql<T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<GqlAnswer<T>> {
    const res = await fetch(`${this.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const text = await res.text();
    let body: { data?: T; errors?: GqlAnswer<T>['errors'] };
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      body = { errors: [{ message: `not JSON (HTTP ${res.status}): ${text.slice(0, 200)}` }] };
    }
    return { status: res.status, data: body.data ?? null, errors: body.errors, bytes: Buffer.byteLength(text) };
  }

  /** The data of a setup call; any error stops the benchmark. */
  async must<T>(query: string, variables: Record<string, unknown> = {}, token?: string): Promise<T> {
    const answer = await this.gql<T>(query, variables, token);
    if (answer.status !== 200 || answer.errors?.length || !answer.data) throw new Error(`GraphQL failed (HTTP ${answer.status}): ${JSON.stringify(answer.errors)}`);
    return answer.data;
  }

  /** POST /v1/campaigns/:id/import with a JSONL body, as `fanout import` does. */
  async importJsonl(campaignId: string, key: string, jsonl: string): Promise<{ linesRead: number; updated: number; unchanged: number; rejected: number; errors: unknown[] }> {
    const res = await fetch(`${this.url}/v1/campaigns/${campaignId}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: jsonl,
    });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`import into ${campaignId} failed (HTTP ${res.status}): ${text.slice(0, 500)}`);
    return JSON.parse(text) as never;
  }

  async close(keep: boolean): Promise<void> {
    await this.stopApi();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.pg.stop();
    if (!keep) await rm(this.home, { recursive: true, force: true });
  }
}
