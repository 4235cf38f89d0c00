import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';

describe('accounts, organizations, members and keys over GraphQL', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(() => api.close());

  it('signUp makes a user, a personal org they own, and a working session', async () => {
    const u = await signUp(api, 'sam');
    const me = await api.gql<{ me: { kind: string; role: string; user: { id: string }; organization: { id: string; personal: boolean; viewerRole: string } } }>(
      '{ me { kind role user { id } organization { id personal viewerRole } } }',
      {},
      u.token,
    );
    expect(me.data!.me).toEqual({ kind: 'USER', role: 'OWNER', user: { id: u.userId }, organization: { id: u.orgId, personal: true, viewerRole: 'OWNER' } });
  });

  it('signUp twice with one email (any case) is a CONFLICT on email and writes nothing', async () => {
    const u = await signUp(api, 'dup');
    const before = await api.db.dataSource.query('SELECT count(*)::int AS n FROM organizations');
    const res = await api.gql('mutation($i: SignUpInput!) { signUp(input: $i) { accessToken } }', { i: { email: u.email.toUpperCase(), password: 'another password!', name: 'x' } });
    expect(codeOf(res)).toBe('CONFLICT');
    expect(res.errors![0]!.extensions!.field).toBe('email');
    expect(await api.db.dataSource.query('SELECT count(*)::int AS n FROM organizations')).toEqual(before);
  });

  it('login with a wrong password or unknown email says the same thing', async () => {
    const u = await signUp(api, 'lin');
    const wrong = await api.gql('mutation { login(input: {email: "' + u.email + '", password: "nope nope nope"}) { accessToken } }');
    const unknown = await api.gql('mutation { login(input: {email: "nobody@example.test", password: "nope nope nope"}) { accessToken } }');
    expect(codeOf(wrong)).toBe('UNAUTHENTICATED');
    expect(wrong.errors![0]!.message).toBe(unknown.errors![0]!.message);
    const ok = await api.gql<{ login: { accessToken: string } }>('mutation { login(input: {email: "' + u.email + '", password: "correct horse battery"}) { accessToken } }');
    expect(ok.data!.login.accessToken).toBeTruthy();
  });

  it('logout ends the session at once', async () => {
    const u = await signUp(api, 'out');
    expect((await api.gql('mutation { logout }', {}, u.token)).data).toEqual({ logout: true });
    expect(codeOf(await api.gql('{ me { role } }', {}, u.token))).toBe('UNAUTHENTICATED');
  });

  it('createOrganization, then switchOrganization moves the session to it', async () => {
    const u = await signUp(api, 'sw');
    const created = await api.gql<{ createOrganization: { id: string; slug: string } }>('mutation { createOrganization(input: {name: "Lab Two", slug: "lab-two"}) { id slug } }', {}, u.token);
    expect(created.data!.createOrganization.slug).toBe('lab-two');
    const taken = await api.gql('mutation { createOrganization(input: {name: "Again", slug: "lab-two"}) { id } }', {}, u.token);
    expect(codeOf(taken)).toBe('CONFLICT');
    const sw = await api.gql<{ switchOrganization: { accessToken: string; organization: { id: string } } }>(
      'mutation($id: ID!) { switchOrganization(id: $id) { accessToken organization { id } } }',
      { id: created.data!.createOrganization.id },
      u.token,
    );
    const me = await api.gql<{ me: { organization: { id: string } } }>('{ me { organization { id } } }', {}, sw.data!.switchOrganization.accessToken);
    expect(me.data!.me.organization.id).toBe(created.data!.createOrganization.id);
    const orgs = await api.gql<{ organizations: { totalCount: number } }>('{ organizations { totalCount } }', {}, u.token);
    expect(orgs.data!.organizations.totalCount).toBe(2);
  });

  it('invites: an existing user joins at once; a new email joins at sign-up', async () => {
    const owner = await signUp(api, 'own');
    const existing = await signUp(api, 'ex');
    const now = await api.gql<{ inviteMember: { acceptedAt: string | null } }>('mutation($i: InviteMemberInput!) { inviteMember(input: $i) { acceptedAt } }', { i: { email: existing.email, role: 'ANNOTATOR' } }, owner.token);
    expect(now.data!.inviteMember.acceptedAt).not.toBeNull();
    const later = await api.gql<{ inviteMember: { acceptedAt: string | null } }>('mutation { inviteMember(input: {email: "newbie@example.test", role: VIEWER}) { acceptedAt } }', {}, owner.token);
    expect(later.data!.inviteMember.acceptedAt).toBeNull();
    const again = await api.gql('mutation { inviteMember(input: {email: "newbie@example.test", role: VIEWER}) { id } }', {}, owner.token);
    expect(codeOf(again)).toBe('CONFLICT');
    await api.gql('mutation { signUp(input: {email: "newbie@example.test", password: "correct horse battery", name: "N"}) { accessToken } }');
    const members = await api.gql<{ organization: { members: { nodes: { role: string; user: { email: string } }[] } } }>(
      'query($id: ID!) { organization(id: $id) { members { nodes { role user { email } } } } }',
      { id: owner.orgId },
      owner.token,
    );
    expect(members.data!.organization.members.nodes.map((m) => [m.user.email, m.role])).toEqual([
      [owner.email, 'OWNER'],
      [existing.email, 'ANNOTATOR'],
      ['newbie@example.test', 'VIEWER'],
    ]);
  });

  it('roles: members cannot manage keys or members; admins cannot touch owners; the last owner stays', async () => {
    const owner = await signUp(api, 'o');
    const member = await signUp(api, 'm');
    const admin = await signUp(api, 'a');
    await api.gql('mutation($i: InviteMemberInput!) { inviteMember(input: $i) { id } }', { i: { email: member.email, role: 'MEMBER' } }, owner.token);
    await api.gql('mutation($i: InviteMemberInput!) { inviteMember(input: $i) { id } }', { i: { email: admin.email, role: 'ADMIN' } }, owner.token);
    const memberSession = await api.gql<{ switchOrganization: { accessToken: string } }>('mutation($id: ID!) { switchOrganization(id: $id) { accessToken } }', { id: owner.orgId }, member.token);
    const adminSession = await api.gql<{ switchOrganization: { accessToken: string } }>('mutation($id: ID!) { switchOrganization(id: $id) { accessToken } }', { id: owner.orgId }, admin.token);
    const m = memberSession.data!.switchOrganization.accessToken;
    const ad = adminSession.data!.switchOrganization.accessToken;

    expect(codeOf(await api.gql('mutation { createApiKey(input: {name: "x", role: VIEWER}) { key } }', {}, m))).toBe('FORBIDDEN');
    expect(codeOf(await api.gql('{ apiKeys { totalCount } }', {}, m))).toBe('FORBIDDEN');
    expect(codeOf(await api.gql('mutation { inviteMember(input: {email: "z@example.test", role: VIEWER}) { id } }', {}, m))).toBe('FORBIDDEN');
    expect(codeOf(await api.gql('mutation($i: UpdateMemberRoleInput!) { updateMemberRole(input: $i) { id } }', { i: { userId: owner.userId, role: 'VIEWER' } }, ad))).toBe('FORBIDDEN');
    expect(codeOf(await api.gql('mutation { createApiKey(input: {name: "x", role: OWNER}) { key } }', {}, ad))).toBe('FORBIDDEN');
    expect(codeOf(await api.gql('mutation($i: UpdateMemberRoleInput!) { updateMemberRole(input: $i) { id } }', { i: { userId: owner.userId, role: 'ADMIN' } }, owner.token))).toBe('CONFLICT');
    expect(codeOf(await api.gql('mutation($u: ID!) { removeMember(userId: $u) { id } }', { u: owner.userId }, owner.token))).toBe('CONFLICT');

    // An admin removes the member; the member's session in that org stops working.
    expect((await api.gql('mutation($u: ID!) { removeMember(userId: $u) { role } }', { u: member.userId }, ad)).data).toEqual({ removeMember: { role: 'MEMBER' } });
    expect(codeOf(await api.gql('{ me { role } }', {}, m))).toBe('UNAUTHENTICATED');
  });

  it('API keys: shown once, stored hashed, scoped to their org and role, revocable, last use recorded', async () => {
    const owner = await signUp(api, 'k');
    const { key, id } = await createKey(api, owner.token, 'VIEWER');
    expect(key).toMatch(/^fo_[a-z2-9]{10}_[A-Za-z0-9_-]{43}$/);
    const [row] = await api.db.dataSource.query('SELECT * FROM api_keys WHERE id = $1', [id]);
    expect(JSON.stringify(row)).not.toContain(key.slice(14));
    const me = await api.gql<{ me: { kind: string; role: string; user: null; apiKey: { id: string; lastUsedAt: string | null } } }>('{ me { kind role user { id } apiKey { id lastUsedAt } } }', {}, key);
    expect(me.data!.me).toMatchObject({ kind: 'API_KEY', role: 'VIEWER', user: null, apiKey: { id } });
    expect(me.data!.me.apiKey.lastUsedAt).not.toBeNull();
    expect(codeOf(await api.gql('mutation { createOrganization(input: {name: "nope"}) { id } }', {}, key))).toBe('FORBIDDEN');
    const listed = await api.gql<{ apiKeys: { nodes: { id: string }[] } }>('{ apiKeys { nodes { id } } }', {}, owner.token);
    expect(listed.data!.apiKeys.nodes.map((k) => k.id)).toContain(id);
    const revoked = await api.gql<{ revokeApiKey: { revokedAt: string } }>('mutation($id: ID!) { revokeApiKey(id: $id) { revokedAt } }', { id }, owner.token);
    expect(revoked.data!.revokeApiKey.revokedAt).toBeTruthy();
    expect(codeOf(await api.gql('{ me { role } }', {}, key))).toBe('UNAUTHENTICATED');
  });

  it('lists page with cursors', async () => {
    const owner = await signUp(api, 'p');
    for (let i = 0; i < 5; i++) await createKey(api, owner.token, 'VIEWER');
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 5; page++) {
      const res: Awaited<ReturnType<typeof api.gql<{ apiKeys: { nodes: { id: string }[]; totalCount: number; pageInfo: { endCursor: string; hasNextPage: boolean } } }>>> =
        await api.gql('query($after: String) { apiKeys(first: 2, after: $after) { totalCount nodes { id } pageInfo { endCursor hasNextPage } } }', { after }, owner.token);
      seen.push(...res.data!.apiKeys.nodes.map((n) => n.id));
      expect(res.data!.apiKeys.totalCount).toBe(5);
      if (!res.data!.apiKeys.pageInfo.hasNextPage) break;
      after = res.data!.apiKeys.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
  });
});
