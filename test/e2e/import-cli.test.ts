import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignFixture, jsonl, recordFor, type CampaignFixture } from '../support/campaign-fixture.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { freePort } from '../support/free-port.js';
import { requireBuild, runCli, startProcess, type Started } from '../support/processes.js';

/** `fanout import`: the real CLI streaming a file to the real API process. */
describe('fanout import', () => {
  let db: TestDatabase;
  let home: string;
  let env: Record<string, string>;
  let api: Started | undefined;
  let target: string[];
  let campaign: CampaignFixture;

  beforeAll(async () => {
    requireBuild();
    db = await createTestDatabase();
    home = await mkdtemp(join(tmpdir(), 'fanout-import-cli-'));
    env = { FANOUT_HOME: home, PORT: String(await freePort()), DATABASE_URL: db.url, FANOUT_SCHEDULER: 'off', FANOUT_DEMO: 'off', FANOUT_API_KEY: '', FANOUT_API: '', FANOUT_PASSWORD: 'a long password' };
    expect((await runCli(['user', 'create', '--email', 'lab@example.test'], env)).code).toBe(0);
    const org = await runCli(['--json', 'org', 'create', '--name', 'Import Lab', '--owner', 'lab@example.test', '--slug', 'import-lab'], env);
    const orgId = JSON.parse(org.stdout).id as string;
    const key = await runCli(['--json', 'keys', 'create', '--org', 'import-lab', '--name', 'ci', '--role', 'member'], env);
    target = ['--api', `http://127.0.0.1:${env.PORT}`, '--api-key', JSON.parse(key.stdout).key];
    campaign = await createCampaignFixture(db.dataSource, { orgId });
    api = await startProcess(['dist/apps/api/src/main.js'], env, 'fanout api listening');
  });
  afterAll(async () => {
    if (api) {
      api.child.kill('SIGINT');
      await api.exited;
    }
    await db?.drop();
    await rm(home, { recursive: true, force: true });
  });

  it('imports a file with exit code 0, and a second time changes nothing', async () => {
    const file = join(home, 'runs.jsonl');
    await writeFile(file, jsonl(campaign.units.map((u) => recordFor(u))));
    const first = await runCli([...target, 'import', '--campaign', campaign.campaignId, file], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe(`imported ${file} into campaign ${campaign.campaignId}: 24 line(s) read, 24 updated, 0 unchanged, 0 rejected`);
    const [{ n }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM executions WHERE campaign_id = $1 AND status = 'completed' AND source = 'import'`, [campaign.campaignId]);
    expect(n).toBe(24);

    const again = await runCli([...target, '--json', 'import', '--campaign', campaign.campaignId, file], env);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual({ campaignId: campaign.campaignId, linesRead: 24, inserted: 0, updated: 0, unchanged: 24, rejected: 0, errors: [] });
  });

  it('exits with 2 when some lines are rejected, printing each problem with its line; the good lines are kept', async () => {
    const file = join(home, 'bad.jsonl');
    const [u1, u2] = campaign.units;
    await writeFile(file, jsonl([recordFor(u1!, 3), 'not json', { ...recordFor(u2!), task: 'nope' }, recordFor(u2!, 3)]));
    const res = await runCli([...target, 'import', '--campaign', campaign.campaignId, file], env);
    expect(res.code).toBe(2);
    expect(res.stdout).toContain('4 line(s) read, 2 updated, 0 unchanged, 2 rejected');
    expect(res.stderr).toContain('line 2: (line): expected one JSON object, received invalid JSON');
    expect(res.stderr).toContain('line 3: task: "nope" is not in this campaign\'s sample for benchmark repo-rebuild');
    expect(res.stderr).toContain('fanout: 2 line(s) rejected; the other lines were imported');

    const json = await runCli([...target, '--json', 'import', '--campaign', campaign.campaignId, file], env);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ updated: 0, unchanged: 2, rejected: 2, errors: [{ line: 2, field: '(line)' }, { line: 3, field: 'task' }] });
  });

  it('fails with exit code 1 and a clear message: missing file, unknown campaign, API unreachable', async () => {
    const missing = await runCli([...target, 'import', '--campaign', campaign.campaignId, join(home, 'nope.jsonl')], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('nope.jsonl: no such file');

    const file = join(home, 'runs.jsonl');
    const unknown = await runCli([...target, 'import', '--campaign', '00000000-0000-4000-8000-000000000000', file], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('NOT_FOUND: campaign 00000000-0000-4000-8000-000000000000 not found');

    const down = await runCli(['--api', 'http://127.0.0.1:9', '--api-key', target[3]!, 'import', '--campaign', campaign.campaignId, file], env);
    expect(down.code).toBe(1);
    expect(down.stderr).toContain('cannot reach the Fanout API at http://127.0.0.1:9');
  });
});
