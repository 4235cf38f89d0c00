import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { requireBuild, startProcess, type Started } from '../support/processes.js';

/**
 * kill -9 of the platform (API + scheduler in one process) in the middle of
 * the demo campaign, then a restart on the same home: every execution ends
 * exactly once, none is lost, no attempt is wasted by the crash.
 */
describe('kill -9 in the middle of a campaign, then a restart', () => {
  let home: string;
  let env: Record<string, string>;
  let api: Started;
  let db: pg.Client;
  let campaignId: string;

  beforeAll(async () => {
    requireBuild();
    home = await mkdtemp(join(tmpdir(), 'fanout-crash-'));
    env = { FANOUT_HOME: home, PORT: String(await freePort()), FANOUT_PG_PORT: String(await freePort()), DATABASE_URL: '', FANOUT_DEMO: 'on', FANOUT_SCHEDULER: 'embedded' };
    api = await startProcess(['dist/apps/api/src/main.js'], env, /demo campaign launched/);
    campaignId = /"campaignId":"([0-9a-f-]{36})"/.exec(api.output())![1]!;
    const credentials = JSON.parse(await readFile(join(home, 'pg-credentials.json'), 'utf8'));
    db = new pg.Client({ host: '127.0.0.1', port: credentials.port, user: credentials.user, password: credentials.password, database: 'fanout' });
    await db.connect();
  });
  afterAll(async () => {
    await db?.end().catch(() => undefined);
    if (api && api.child.exitCode === null) {
      api.child.kill('SIGINT');
      await api.exited;
    }
    await rm(home, { recursive: true, force: true });
  });

  const counts = async () =>
    Object.fromEntries((await db.query('SELECT status, count(*)::int AS n FROM executions WHERE campaign_id = $1 GROUP BY status', [campaignId])).rows.map((r) => [r.status, r.n]));

  it('loses nothing and runs nothing twice', async () => {
    // Wait until work is in flight and some is done, then kill the platform without warning.
    for (;;) {
      const c = await counts();
      if ((c.completed ?? 0) >= 3 && (c.running ?? 0) + (c.dispatching ?? 0) >= 1) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    api.child.kill('SIGKILL');
    await api.exited;
    const inFlight = (await db.query(`SELECT id, attempt FROM executions WHERE campaign_id = $1 AND status IN ('running', 'dispatching')`, [campaignId])).rows;
    expect(inFlight.length).toBeGreaterThan(0);

    // Restart on the same home: the database (still running, orphaned) is adopted; the detached runners finish and report.
    api = await startProcess(['dist/apps/api/src/main.js'], env, /fanout api listening/);
    const deadline = Date.now() + 6 * 60_000;
    while (Date.now() < deadline) {
      const { rows } = await db.query('SELECT status FROM campaigns WHERE id = $1', [campaignId]);
      if (rows[0].status === 'completed') break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect(await counts()).toEqual({ completed: 24 });
    // Exactly once: every execution graded once, by its first attempt (the crash cost no retry).
    const { rows } = await db.query('SELECT attempt, count(*)::int AS n FROM executions WHERE campaign_id = $1 GROUP BY attempt', [campaignId]);
    expect(rows).toEqual([{ attempt: 1, n: 24 }]);
    const events = await db.query(
      `SELECT count(*)::int AS n FROM executions e WHERE e.campaign_id = $1 AND NOT EXISTS (SELECT 1 FROM trajectory_events t WHERE t.execution_id = e.id)`,
      [campaignId],
    );
    expect(events.rows[0].n).toBe(0);
  }, 8 * 60_000);
});
