import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCampaignFixture, jsonl, recordFor, type CampaignFixture } from '../support/campaign-fixture.js';
import { startCliLab, type CliLab } from '../support/cli-lab.js';
import { runCli } from '../support/processes.js';

/** `fanout import`: the real CLI streaming a file to the real API process. */
describe('fanout import', () => {
  let lab: CliLab | undefined;
  let home: string;
  let env: Record<string, string>;
  let target: string[];
  let campaign: CampaignFixture;

  beforeAll(async () => {
    lab = await startCliLab('Import Lab', 'import-lab');
    ({ home, env, target } = lab);
    campaign = await createCampaignFixture(lab.db.dataSource, { orgId: lab.orgId });
  });
  afterAll(() => lab?.close());

  it('imports a file with exit code 0, and a second time changes nothing', async () => {
    const file = join(home, 'runs.jsonl');
    await writeFile(file, jsonl(campaign.units.map((u) => recordFor(u))));
    const first = await runCli([...target, 'import', '--campaign', campaign.campaignId, file], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe(`imported ${file} into campaign ${campaign.campaignId}: 24 line(s) read, 24 updated, 0 unchanged, 0 rejected`);
    const [{ n }] = await lab!.db.dataSource.query(`SELECT count(*)::int AS n FROM executions WHERE campaign_id = $1 AND status = 'completed' AND source = 'import'`, [campaign.campaignId]);
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
