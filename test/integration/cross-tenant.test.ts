import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { CREATE, PLAN, REGISTER_AGENT, REGISTER_BENCHMARK, agentManifest, benchmarkManifest, campaignManifest } from '../support/manifests.js';

/**
 * The cross-tenant suite: a caller of org B uses org A's ids in every
 * tenant-owned query and mutation and must get NOT_FOUND (exactly like a
 * missing id), and lists must never include org A's rows. Later issues add
 * their operations here.
 */
describe('cross-tenant isolation', () => {
  let api: TestApi;
  let a: Awaited<ReturnType<typeof signUp>>;
  let b: Awaited<ReturnType<typeof signUp>>;
  let aKey: { key: string; id: string };
  let bKey: { key: string; id: string };
  let aMember: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    api = await startTestApi();
    a = await signUp(api, 'alice');
    b = await signUp(api, 'bob');
    aMember = await signUp(api, 'amy');
    aKey = await createKey(api, a.token);
    bKey = await createKey(api, b.token);
    const invited = await api.gql('mutation($i: InviteMemberInput!) { inviteMember(input: $i) { id } }', { i: { email: aMember.email, role: 'MEMBER' } }, a.token);
    expect(invited.errors).toBeUndefined();
  });
  afterAll(() => api.close());

  const missing = '00000000-0000-4000-8000-000000000000';

  for (const credential of ['session', 'key'] as const) {
    describe(`as org B's ${credential}`, () => {
      const tokenB = () => (credential === 'session' ? b.token : bKey.key);

      it('organization(id) of org A answers NOT_FOUND, like a missing id', async () => {
        const other = await api.gql('query($id: ID!) { organization(id: $id) { id name } }', { id: a.orgId }, tokenB());
        const none = await api.gql('query($id: ID!) { organization(id: $id) { id name } }', { id: missing }, tokenB());
        expect(codeOf(other)).toBe('NOT_FOUND');
        expect(codeOf(none)).toBe('NOT_FOUND');
        expect(other.errors![0]!.message.replace(a.orgId, 'X')).toBe(none.errors![0]!.message.replace(missing, 'X'));
      });

      it('revokeApiKey of org A\'s key answers NOT_FOUND and the key keeps working', async () => {
        const res = await api.gql('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id: aKey.id }, tokenB());
        expect(codeOf(res)).toBe('NOT_FOUND');
        const still = await api.gql('{ me { organization { id } } }', {}, aKey.key);
        expect(still.data).toEqual({ me: { organization: { id: a.orgId } } });
      });

      it('updateMemberRole and removeMember of org A\'s member answer NOT_FOUND and change nothing', async () => {
        const up = await api.gql('mutation($i: UpdateMemberRoleInput!) { updateMemberRole(input: $i) { id } }', { i: { userId: aMember.userId, role: 'ADMIN' } }, tokenB());
        const rm = await api.gql('mutation($u: ID!) { removeMember(userId: $u) { id } }', { u: aMember.userId }, tokenB());
        expect(codeOf(up)).toBe('NOT_FOUND');
        expect(codeOf(rm)).toBe('NOT_FOUND');
        const [row] = await api.db.dataSource.query('SELECT role FROM memberships WHERE org_id = $1 AND user_id = $2', [a.orgId, aMember.userId]);
        expect(row).toEqual({ role: 'member' });
      });

      it('lists never include org A\'s rows', async () => {
        const res = await api.gql<{
          organizations: { nodes: { id: string; members: { nodes: { user: { id: string } }[] } }[] };
          apiKeys: { nodes: { id: string }[] };
        }>('{ organizations(first: 10) { nodes { id members(first: 50) { nodes { user { id } } } } } apiKeys(first: 100) { nodes { id } } }', {}, tokenB());
        expect(res.errors).toBeUndefined();
        expect(res.data!.organizations.nodes.map((o) => o.id)).toEqual([b.orgId]);
        const memberIds = res.data!.organizations.nodes.flatMap((o) => o.members.nodes.map((m) => m.user.id));
        expect(memberIds).not.toContain(a.userId);
        expect(memberIds).not.toContain(aMember.userId);
        const keyIds = res.data!.apiKeys.nodes.map((k) => k.id);
        expect(keyIds).toContain(bKey.id);
        expect(keyIds).not.toContain(aKey.id);
      });

      it('switchOrganization into org A answers NOT_FOUND', async () => {
        const res = await api.gql('mutation($id: ID!) { switchOrganization(id: $id) { accessToken } }', { id: a.orgId }, tokenB());
        // Keys cannot switch at all (FORBIDDEN); a session of a non-member gets NOT_FOUND.
        expect(codeOf(res)).toBe(credential === 'session' ? 'NOT_FOUND' : 'FORBIDDEN');
      });
    });
  }

  it('inviting org A\'s member into org B does not grant B any view of org A', async () => {
    const res = await api.gql('mutation($i: InviteMemberInput!) { inviteMember(input: $i) { acceptedAt } }', { i: { email: aMember.email, role: 'VIEWER' } }, b.token);
    expect(res.errors).toBeUndefined();
    const view = await api.gql('query($id: ID!) { organization(id: $id) { id } }', { id: a.orgId }, b.token);
    expect(codeOf(view)).toBe('NOT_FOUND');
  });
});

describe('cross-tenant isolation: catalog and campaigns', () => {
  let api: TestApi;
  let a: Awaited<ReturnType<typeof signUp>>;
  let b: Awaited<ReturnType<typeof signUp>>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    api = await startTestApi();
    a = await signUp(api, 'lab-a');
    b = await signUp(api, 'lab-b');
    const reg = async (query: string, m: unknown, token: string) => {
      const res = await api.gql<any>(query, { m }, token);
      expect(res.errors).toBeUndefined();
      return res.data;
    };
    ids.privateBench = (await reg(REGISTER_BENCHMARK, benchmarkManifest({ id: 'secret-bench' }), a.token)).registerBenchmark.benchmark.id;
    ids.publicBench = (await reg(REGISTER_BENCHMARK, benchmarkManifest({ id: 'open-bench', visibility: 'public' }), a.token)).registerBenchmark.benchmark.id;
    ids.agent = (await reg(REGISTER_AGENT, agentManifest({ name: 'a-agent' }), a.token)).createAgentConfig.agentConfig.id;
    await api.gql('mutation { setSecret(name: "A_PROVIDER_KEY", value: "a-value") { name } }', {}, a.token);
    ids.campaign = (await reg(CREATE, campaignManifest({ benchmark: 'secret-bench', agent: 'a-agent' }), a.token)).createCampaign.id;
    await reg(REGISTER_AGENT, agentManifest({ name: 'b-agent' }), b.token);
  });
  afterAll(() => api.close());

  it('org B cannot see org A\'s private benchmark, agent config or campaign by id (NOT_FOUND)', async () => {
    for (const [query, id] of [
      ['query($id: ID!) { benchmark(id: $id) { id } }', ids.privateBench],
      ['query($id: ID!) { agentConfig(id: $id) { id } }', ids.agent],
      ['query($id: ID!) { campaign(id: $id) { id } }', ids.campaign],
    ] as const) {
      expect(codeOf(await api.gql(query, { id }, b.token)), query).toBe('NOT_FOUND');
    }
  });

  it('org B cannot launch, pause, resume or cancel org A\'s campaign, and nothing changes', async () => {
    for (const verb of ['launch', 'pause', 'resume', 'cancel']) {
      expect(codeOf(await api.gql(`mutation($id: ID!) { ${verb}Campaign(id: $id) { id } }`, { id: ids.campaign }, b.token))).toBe('NOT_FOUND');
    }
    const [row] = await api.db.dataSource.query('SELECT status FROM campaigns WHERE id = $1', [ids.campaign]);
    expect(row.status).toBe('created');
  });

  it('lists never include org A\'s private rows, secrets or executions', async () => {
    const res = await api.gql<any>(
      `{ benchmarks(first: 100) { nodes { id key } } agentConfigs(first: 100) { nodes { id name } }
         campaigns(first: 100) { nodes { id } } secrets { name } executions(first: 100) { totalCount } }`,
      {},
      b.token,
    );
    const filtered = await api.gql('query($f: ExecutionFilterInput) { executions(filter: $f) { totalCount } }', { f: { campaignId: ids.campaign } }, b.token);
    expect(codeOf(filtered)).toBe('NOT_FOUND');
    expect(res.errors).toBeUndefined();
    expect(res.data.benchmarks.nodes.map((n: { key: string }) => n.key)).toEqual(['open-bench']);
    expect(res.data.agentConfigs.nodes.map((n: { name: string }) => n.name)).toEqual(['b-agent']);
    expect(res.data.campaigns.nodes).toEqual([]);
    expect(res.data.secrets).toEqual([]);
    expect(res.data.executions.totalCount).toBe(0);
  });

  it('org B cannot use org A\'s private benchmark or agent config in a campaign, but can use the public benchmark', async () => {
    const priv = await api.gql(PLAN, { m: campaignManifest({ benchmark: 'secret-bench', agent: 'b-agent' }) }, b.token);
    expect(codeOf(priv)).toBe('NOT_FOUND');
    expect(priv.errors![0]!.extensions!.field).toBe('benchmarks[0].id');
    const agent = await api.gql(PLAN, { m: campaignManifest({ benchmark: 'open-bench', agent: 'a-agent' }) }, b.token);
    expect(codeOf(agent)).toBe('NOT_FOUND');
    expect(agent.errors![0]!.extensions!.field).toBe('agents[0].config');
    const pub = await api.gql<any>(CREATE, { m: campaignManifest({ benchmark: 'open-bench', agent: 'b-agent' }) }, b.token);
    expect(pub.errors).toBeUndefined();
    expect(pub.data.createCampaign.executionCount).toBe(24);
  });

  it('a public campaign is readable by org B and anonymously, but only its org changes it', async () => {
    const pub = await api.gql<any>(CREATE, { m: { ...campaignManifest({ benchmark: 'open-bench', agent: 'a-agent' }), visibility: 'public' } }, a.token);
    const id = pub.data.createCampaign.id;
    for (const token of [b.token, undefined]) {
      const read = await api.gql<any>('query($id: ID!, $f: ExecutionFilterInput) { campaign(id: $id) { id status } executions(filter: $f) { totalCount } }', { id, f: { campaignId: id } }, token);
      expect(read.errors).toBeUndefined();
      expect(read.data.executions.totalCount).toBe(24);
    }
    expect(codeOf(await api.gql('query($id: ID!) { campaign(id: $id) { id } }', { id: ids.campaign }))).toBe('NOT_FOUND');
    for (const verb of ['launch', 'cancel']) {
      expect(codeOf(await api.gql(`mutation($id: ID!) { ${verb}Campaign(id: $id) { id } }`, { id }, b.token))).toBe('NOT_FOUND');
    }
    expect(codeOf(await api.gql('{ executions { totalCount } }'))).toBe('BAD_USER_INPUT');
  });

  it('org B cannot delete org A\'s secret', async () => {
    expect(codeOf(await api.gql('mutation { deleteSecret(name: "A_PROVIDER_KEY") }', {}, b.token))).toBe('NOT_FOUND');
    const [row] = await api.db.dataSource.query(`SELECT count(*)::int AS n FROM org_secrets WHERE name = 'A_PROVIDER_KEY'`);
    expect(row.n).toBe(1);
  });
});
