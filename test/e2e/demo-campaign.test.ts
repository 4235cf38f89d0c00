import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { requireBuild, startProcess, type Started } from '../support/processes.js';

/**
 * The first-run experience, as `npm start` on an empty database does it:
 * fanout-mini and the demo agent are registered, the public demo campaign
 * (both modes, every task) runs with real processes, real files and real
 * tests, and ends with graded executions and trajectories in both modes.
 */
describe('npm start on an empty database runs the demo campaign', () => {
  let home: string;
  let api: Started;
  let url: string;
  let campaignId: string;
  const DEMO_TIMEOUT_MS = 9 * 60_000;

  beforeAll(async () => {
    requireBuild();
    home = await mkdtemp(join(tmpdir(), 'fanout-demo-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    api = await startProcess(
      ['dist/apps/api/src/main.js'],
      { FANOUT_HOME: home, PORT: String(port), FANOUT_PG_PORT: String(await freePort()), DATABASE_URL: '', FANOUT_DEMO: 'on', FANOUT_SCHEDULER: 'embedded', LOG_LEVEL: 'info' },
      /demo campaign launched/,
    );
    campaignId = /"campaignId":"([0-9a-f-]{36})"/.exec(api.output())![1]!;
  });
  afterAll(async () => {
    if (api && api.child.exitCode === null) {
      api.child.kill('SIGINT');
      await api.exited;
    }
    await rm(home, { recursive: true, force: true });
  });

  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as { data: any; errors?: unknown[] };
  };

  it(
    'runs to completion, anonymous callers can watch it, and both modes are graded with trajectories',
    async () => {
      const started = Date.now();
      let status = '';
      let progress: Record<string, number> = {};
      while (Date.now() - started < DEMO_TIMEOUT_MS) {
        const res = await gql('query($id: ID!) { campaign(id: $id) { status progress { queued running completed infraFailed total } } }', { id: campaignId });
        expect(res.errors).toBeUndefined();
        ({ status, progress } = res.data.campaign);
        if (status === 'COMPLETED') break;
        await new Promise((r) => setTimeout(r, 2000));
      }
      const minutes = (Date.now() - started) / 60_000;
      console.log(`demo campaign: ${status} after ${minutes.toFixed(2)} min`, progress);
      expect(status).toBe('COMPLETED');
      expect(progress.completed).toBe(progress.total);

      const executions = await gql(
        'query($f: ExecutionFilterInput) { executions(filter: $f, first: 100) { nodes { id mode task status testsPassed testsTotal resolved shellCalls wallSeconds costUsd tokens { input output } } } }',
        { f: { campaignId } },
      );
      const nodes = executions.data.executions.nodes as { id: string; mode: string; testsTotal: number; tokens: { input: number }; costUsd: number }[];
      for (const mode of ['concurrent', 'sequential']) {
        const ofMode = nodes.filter((n) => n.mode === mode);
        expect(ofMode.length, mode).toBe(12);
        expect(ofMode.every((n) => n.testsTotal > 0), `${mode}: every execution graded by real tests`).toBe(true);
        expect(ofMode.every((n) => n.tokens.input > 0 && n.costUsd > 0), `${mode}: usage and cost recorded`).toBe(true);
      }

      const credentials = JSON.parse(await readFile(join(home, 'pg-credentials.json'), 'utf8'));
      const client = new pg.Client({ host: '127.0.0.1', port: credentials.port, user: credentials.user, password: credentials.password, database: 'fanout' });
      await client.connect();
      try {
        const { rows } = await client.query(
          `SELECT e.mode, count(DISTINCT e.id)::int AS executions, count(t.*)::int AS events,
                  count(*) FILTER (WHERE t.type = 'agent.start' AND t.data->>'parentAgentId' IS NOT NULL)::int AS sub_agents
             FROM executions e JOIN trajectory_events t ON t.execution_id = e.id
            WHERE e.campaign_id = $1 GROUP BY e.mode ORDER BY e.mode`,
          [campaignId],
        );
        expect(rows.map((r) => [r.mode, r.executions])).toEqual([
          ['concurrent', 12],
          ['sequential', 12],
        ]);
        const concurrent = rows.find((r) => r.mode === 'concurrent');
        const sequential = rows.find((r) => r.mode === 'sequential');
        expect(concurrent.sub_agents).toBeGreaterThan(12);
        expect(sequential.sub_agents).toBe(0);
      } finally {
        await client.end();
      }
    },
    DEMO_TIMEOUT_MS + 60_000,
  );

  it('Ctrl-C afterwards stops everything cleanly', async () => {
    api.child.kill('SIGINT');
    expect(await api.exited).toBe(0);
  });
});
