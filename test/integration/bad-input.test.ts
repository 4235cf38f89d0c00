import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_TEST_SECRET, codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';

/** Every bad input gets its code and a message naming the field, and writes nothing. */
describe('bad input', () => {
  let api: TestApi;
  let owner: Awaited<ReturnType<typeof signUp>>;
  const counts = async () =>
    (await api.db.dataSource.query(
      `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM organizations)::int AS orgs,
              (SELECT count(*) FROM api_keys)::int AS keys, (SELECT count(*) FROM memberships)::int AS members,
              (SELECT count(*) FROM invitations)::int AS invitations`,
    ))[0];

  beforeAll(async () => {
    api = await startTestApi();
    owner = await signUp(api, 'owner');
  });
  afterAll(() => api.close());

  async function expectNothingWritten(run: () => Promise<void>) {
    const before = await counts();
    await run();
    expect(await counts()).toEqual(before);
  }

  it('malformed GraphQL: GRAPHQL_PARSE_FAILED with the position', async () => {
    await expectNothingWritten(async () => {
      const res = await api.gql('mutation { createOrganization(input: {name: "x" }', {}, owner.token);
      expect(res.status).toBe(400);
      expect(codeOf(res)).toBe('GRAPHQL_PARSE_FAILED');
      expect(res.errors![0]!.message).toMatch(/Syntax Error/);
    });
  });

  it('a body that is not JSON is refused', async () => {
    const res = await fetch(`${api.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query": ' });
    expect(res.status).toBe(400);
  });

  it('wrong types in variables: BAD_USER_INPUT naming the path', async () => {
    await expectNothingWritten(async () => {
      const res = await api.gql('mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }', { i: { name: 42 } }, owner.token);
      expect(codeOf(res)).toBe('BAD_USER_INPUT');
      expect(res.errors![0]!.message).toContain('"i.name"');
    });
  });

  it('unknown enum value: BAD_USER_INPUT naming the path', async () => {
    await expectNothingWritten(async () => {
      const res = await api.gql('mutation($i: CreateApiKeyInput!) { createApiKey(input: $i) { key } }', { i: { name: 'k', role: 'SUPERUSER' } }, owner.token);
      expect(codeOf(res)).toBe('BAD_USER_INPUT');
      expect(res.errors![0]!.message).toMatch(/"SUPERUSER" at "i.role".*Role/);
    });
  });

  it('unknown field in an input: BAD_USER_INPUT naming it', async () => {
    await expectNothingWritten(async () => {
      const res = await api.gql('mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }', { i: { name: 'ok', owner: 'me' } }, owner.token);
      expect(codeOf(res)).toBe('BAD_USER_INPUT');
      expect(res.errors![0]!.message).toContain('"owner"');
    });
  });

  it('over-long strings: BAD_USER_INPUT with field, limit and what was received', async () => {
    await expectNothingWritten(async () => {
      const res = await api.gql('mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }', { i: { name: 'x'.repeat(5000) } }, owner.token);
      expect(codeOf(res)).toBe('BAD_USER_INPUT');
      expect(res.errors![0]!.extensions!.field).toBe('input.name');
      expect(res.errors![0]!.message).toBe('input.name: must be shorter than or equal to 120 characters (got a string of 5000 characters)');
    });
  });

  it('invalid email, short password, bad slug: each names its field', async () => {
    await expectNothingWritten(async () => {
      const cases: [string, Record<string, unknown>, string][] = [
        ['mutation($i: SignUpInput!) { signUp(input: $i) { accessToken } }', { i: { email: 'not-an-email', password: 'long enough password', name: 'n' } }, 'input.email'],
        ['mutation($i: SignUpInput!) { signUp(input: $i) { accessToken } }', { i: { email: 'a@b.io', password: 'short', name: 'n' } }, 'input.password'],
        ['mutation($i: CreateOrganizationInput!) { createOrganization(input: $i) { id } }', { i: { name: 'n', slug: 'Bad Slug!' } }, 'input.slug'],
        ['mutation($i: InviteMemberInput!) { inviteMember(input: $i) { id } }', { i: { email: 'nope', role: 'VIEWER' } }, 'input.email'],
      ];
      for (const [query, variables, field] of cases) {
        const res = await api.gql(query, variables, owner.token);
        expect(codeOf(res), field).toBe('BAD_USER_INPUT');
        expect(res.errors![0]!.extensions!.field).toBe(field);
        expect(res.errors![0]!.message.startsWith(`${field}: `)).toBe(true);
      }
    });
  });

  it('page arguments out of range and foreign cursors name the argument', async () => {
    const big = await api.gql('{ apiKeys(first: 1000) { totalCount } }', {}, owner.token);
    expect(big.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'first' });
    const cursor = await api.gql('{ apiKeys(after: "garbage") { totalCount } }', {}, owner.token);
    expect(cursor.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'after' });
  });

  it('an expiry in the past is refused', async () => {
    await expectNothingWritten(async () => {
      const res = await api.gql('mutation($i: CreateApiKeyInput!) { createApiKey(input: $i) { key } }', { i: { name: 'k', role: 'VIEWER', expiresAt: '2001-01-01T00:00:00Z' } }, owner.token);
      expect(res.errors![0]!.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'expiresAt' });
    });
  });

  it('a revoked key, a mangled key and an unknown key: UNAUTHENTICATED, all alike', async () => {
    const { key, id } = await createKey(api, owner.token);
    await api.gql('mutation($id: ID!) { revokeApiKey(id: $id) { id } }', { id }, owner.token);
    const revoked = await api.gql('{ me { role } }', {}, key);
    const mangled = await api.gql('{ me { role } }', {}, `${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`);
    const unknown = await api.gql('{ me { role } }', {}, 'fo_aaaaaaaaaa_' + 'A'.repeat(43));
    for (const res of [revoked, mangled, unknown]) {
      expect(codeOf(res)).toBe('UNAUTHENTICATED');
      expect(res.errors![0]!.message).toBe(revoked.errors![0]!.message);
    }
  });

  it('an expired or forged token: UNAUTHENTICATED', async () => {
    const [session] = await api.db.dataSource.query('SELECT id, user_id FROM sessions LIMIT 1');
    const expired = jwt.sign({ sid: session.id, exp: Math.floor(Date.now() / 1000) - 60 }, JWT_TEST_SECRET, { subject: session.user_id });
    const forged = jwt.sign({ sid: session.id }, 'another-secret-another-secret-0000', { subject: session.user_id, expiresIn: 600 });
    const none = jwt.sign({ sid: session.id }, '', { subject: session.user_id, algorithm: 'none' });
    for (const token of [expired, forged, none]) {
      expect(codeOf(await api.gql('{ me { role } }', {}, token))).toBe('UNAUTHENTICATED');
    }
  });

  it('no credential on a protected operation: UNAUTHENTICATED', async () => {
    expect(codeOf(await api.gql('{ organizations { totalCount } }'))).toBe('UNAUTHENTICATED');
    expect(codeOf(await api.gql('mutation { createOrganization(input: {name: "x"}) { id } }'))).toBe('UNAUTHENTICATED');
  });
});
