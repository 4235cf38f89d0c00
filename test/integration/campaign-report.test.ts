import { parseExecutionRecords, toMetricsExecution } from '#libs/contracts';
import { buildReport } from '#libs/metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { createCampaignFixture, jsonl, recordFor, type CampaignFixture } from '../support/campaign-fixture.js';

/** One campaign, one set of numbers: the server's report equals the offline report of its export. */
describe('campaign export and report', () => {
  let api: TestApi;
  let key: string;
  let campaign: CampaignFixture;

  beforeAll(async () => {
    api = await startTestApi();
    const owner = await signUp(api, 'reporter');
    key = (await createKey(api, owner.token, 'MEMBER')).key;
    campaign = await createCampaignFixture(api.db.dataSource, { orgId: owner.orgId });
    const records = campaign.units.map((unit, i) => recordFor(unit, i));
    const res = await fetch(`${api.url}/v1/campaigns/${campaign.campaignId}/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` },
      body: jsonl(records),
    });
    expect(res.status).toBe(200);
  });
  afterAll(() => api.close());

  const exportOf = async (id: string, token?: string) =>
    fetch(`${api.url}/v1/campaigns/${id}/export`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('exports every execution with a result as a valid execution record', async () => {
    const res = await exportOf(campaign.campaignId, key);
    expect(res.status).toBe(200);
    const parsed = parseExecutionRecords(await res.text());
    expect(parsed.errors).toEqual([]);
    expect(parsed.records).toHaveLength(campaign.units.length);
  });

  it('GraphQL campaignReport gives exactly the numbers of the offline report of the export', async () => {
    const exported = parseExecutionRecords(await (await exportOf(campaign.campaignId, key)).text());
    const offline = buildReport(exported.records.map(toMetricsExecution), { permutations: 2_000, seed: 5 });
    const server = await api.gql<{ campaignReport: unknown }>('query($id: ID!) { campaignReport(id: $id, permutations: 2000, seed: 5) }', { id: campaign.campaignId }, key);
    expect(server.errors).toBeUndefined();
    expect(server.data!.campaignReport).toEqual(JSON.parse(JSON.stringify(offline)));
  });

  it('a private campaign is NOT_FOUND to other orgs and anonymous callers, for export and report alike', async () => {
    const other = await signUp(api, 'outsider');
    for (const token of [other.token, undefined]) {
      expect((await exportOf(campaign.campaignId, token)).status).toBe(404);
      expect(codeOf(await api.gql('query($id: ID!) { campaignReport(id: $id) }', { id: campaign.campaignId }, token))).toBe('NOT_FOUND');
    }
  });

  it('refuses out-of-range report options, naming them', async () => {
    const res = await api.gql('query($id: ID!) { campaignReport(id: $id, permutations: 0) }', { id: campaign.campaignId }, key);
    expect(res.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'permutations' });
  });
});
