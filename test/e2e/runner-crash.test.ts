import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { requireBuild, startProcess, type Started } from '../support/processes.js';

/**
 * Whether any process of the group is alive. Read from /proc, not kill(0):
 * a killed process whose parent died stays a zombie here (this machine's init
 * does not reap), and kill(0) still finds zombies.
 */
const groupAlive = (pgid: number) =>
  readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .some((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(fields[2]) === pgid && fields[0] !== 'Z';
      } catch {
        return false;
      }
    });

/** A runner killed with SIGKILL is an infrastructure failure: its agent is stopped, the execution is retried and completes. */
describe('a runner crash', () => {
  let home: string;
  let api: Started;
  let db: pg.Client;

  beforeAll(async () => {
    requireBuild();
    home = await mkdtemp(join(tmpdir(), 'fanout-runner-crash-'));
    api = await startProcess(
      ['dist/apps/api/src/main.js'],
      { FANOUT_HOME: home, PORT: String(await freePort()), FANOUT_PG_PORT: String(await freePort()), DATABASE_URL: '', FANOUT_DEMO: 'on', FANOUT_RETRY_BACKOFF_SECONDS: '0' },
      /demo campaign launched/,
    );
    const credentials = JSON.parse(await readFile(join(home, 'pg-credentials.json'), 'utf8'));
    db = new pg.Client({ host: '127.0.0.1', port: credentials.port, user: credentials.user, password: credentials.password, database: 'fanout' });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end().catch(() => undefined);
    api.child.kill('SIGINT');
    await api.exited;
    await rm(home, { recursive: true, force: true });
  });

  it('is retried as infrastructure, and its orphaned agent is stopped', async () => {
    // A runner whose agent is running: both pid files are there.
    let victim: { dir: string; runner: number; agent: number } | undefined;
    while (!victim) {
      for (const name of existsSync(join(home, 'work')) ? readdirSync(join(home, 'work')) : []) {
        const dir = join(home, 'work', name);
        const pgidFile = join(dir, 'agent.pgid');
        // An agent that started within the last half second: it has seconds of work left, so only the kill can end it soon.
        if (existsSync(join(dir, 'runner.pid')) && existsSync(pgidFile) && !existsSync(join(dir, 'grader.log')) && Date.now() - statSync(pgidFile).mtimeMs < 500) {
          victim = { dir: name, runner: Number(readFileSync(join(dir, 'runner.pid'), 'utf8')), agent: Number(readFileSync(join(dir, 'agent.pgid'), 'utf8')) };
          break;
        }
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const executionId = victim.dir.slice(0, 36);
    process.kill(victim.runner, 'SIGKILL');
    expect(groupAlive(victim.agent)).toBe(true);
    for (let i = 0; i < 15 && groupAlive(victim.agent); i++) await new Promise((r) => setTimeout(r, 100));
    expect(groupAlive(victim.agent)).toBe(false);

    for (let i = 0; i < 300; i++) {
      const { rows } = await db.query('SELECT status FROM executions WHERE id = $1', [executionId]);
      if (rows[0].status === 'completed') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    const { rows } = await db.query('SELECT status, attempt, outcome FROM executions WHERE id = $1', [executionId]);
    expect(rows[0]).toEqual({ status: 'completed', attempt: 2, outcome: 'completed' });
  }, 5 * 60_000);
});
