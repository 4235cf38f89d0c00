import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { createTestDatabase, type TestDatabase } from './database.js';
import { freePort } from './free-port.js';
import { requireBuild, runCli, startProcess, type Started } from './processes.js';

/** A lab as a newcomer makes one with the CLI (user, org, member key), and the real API process over its database. */
export interface CliLab {
  db: TestDatabase;
  home: string;
  env: Record<string, string>;
  orgId: string;
  apiKey: string;
  /** `--api URL --api-key KEY`, to put before a command. */
  target: string[];
  close(): Promise<void>;
}

export async function startCliLab(name: string, slug: string): Promise<CliLab> {
  requireBuild();
  const db = await createTestDatabase();
  const home = await mkdtemp(join(tmpdir(), `fanout-${slug}-`));
  const env = { FANOUT_HOME: home, PORT: String(await freePort()), DATABASE_URL: db.url, FANOUT_SCHEDULER: 'off', FANOUT_DEMO: 'off', FANOUT_API_KEY: '', FANOUT_API: '', FANOUT_PASSWORD: 'a long password' };
  const email = `${slug}@example.test`;
  expect((await runCli(['user', 'create', '--email', email], env)).code).toBe(0);
  const orgId = JSON.parse((await runCli(['--json', 'org', 'create', '--name', name, '--owner', email, '--slug', slug], env)).stdout).id as string;
  const apiKey = JSON.parse((await runCli(['--json', 'keys', 'create', '--org', slug, '--name', 'ci', '--role', 'member'], env)).stdout).key as string;
  let api: Started | undefined;
  try {
    api = await startProcess(['dist/apps/api/src/main.js'], env, 'fanout api listening');
  } catch (err) {
    await db.drop();
    throw err;
  }
  return {
    db,
    home,
    env,
    orgId,
    apiKey,
    target: ['--api', `http://127.0.0.1:${env.PORT}`, '--api-key', apiKey],
    async close() {
      api?.child.kill('SIGINT');
      await api?.exited;
      await db.drop();
      await rm(home, { recursive: true, force: true });
    },
  };
}
