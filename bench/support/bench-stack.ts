// A benchmark's stack: an embedded Postgres (durability on, as in
// production), migrated, and the built API as a separate process over it,
// on loopback ports. Shared by bench/engine and bench/metering.
import { EmbeddedPostgresManager, createDataSource, migrate } from '#libs/database';
import { entities, migrations } from '#libs/persistence';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';

export interface BenchStack {
  ds: DataSource;
  /** The API's base URL. */
  url: string;
  /** A GraphQL call; throws on errors. */
  gql(query: string, variables?: Record<string, unknown>, token?: string): Promise<any>;
  /** Signs up the bench user; its session token and organization id. */
  signUp(): Promise<{ token: string; orgId: string }>;
  stop(): Promise<void>;
}

export const freePort = () =>
  new Promise<number>((resolve) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });

export async function startBenchStack(name: string, poolSize = 10): Promise<BenchStack> {
  const home = await mkdtemp(join(tmpdir(), `fanout-bench-${name}-`));
  const pg = await new EmbeddedPostgresManager({ home, port: await freePort(), logger: pino({ level: 'warn' }), settings: { max_connections: '200' } }).start();
  const ds = createDataSource(pg.url, { entities, migrations }, poolSize);
  await ds.initialize();
  await migrate(ds);
  const apiPort = await freePort();
  const api = spawn(process.execPath, ['dist/apps/api/src/main.js'], {
    env: { ...process.env, DATABASE_URL: pg.url, PORT: String(apiPort), FANOUT_HOME: home, FANOUT_SCHEDULER: 'off', FANOUT_DEMO: 'off', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${apiPort}`;
  const stop = async () => {
    api.kill('SIGINT');
    if (api.exitCode === null) await new Promise((r) => api.once('exit', r));
    await ds.destroy();
    await pg.stop();
    await rm(home, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      if ((await fetch(`${url}/readyz`).catch(() => null))?.ok) break;
      if (i > 200) throw new Error('the API did not become ready');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stop();
    throw err;
  }
  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query, variables }) });
    const body = (await res.json()) as { data: any; errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  const signUp = async () => {
    const data = await gql('mutation { signUp(input: {email: "bench@example.test", password: "a long password", name: "Bench"}) { accessToken organization { id } } }');
    return { token: data.signUp.accessToken as string, orgId: data.signUp.organization.id as string };
  };
  return { ds, url, gql, signUp, stop };
}
