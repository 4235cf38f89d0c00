import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, createKey, signUp, startTestApi, type TestApi } from '../support/api.js';

describe('operations: health, readiness, metrics, logs, limits', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi({ FANOUT_AUTH_RATE_LIMIT: '5', FANOUT_GRAPHQL_MAX_DEPTH: '4' });
  });
  afterAll(() => api.close());

  it('/healthz and /readyz answer 200 with migrations applied', async () => {
    expect(await (await fetch(`${api.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${api.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('/readyz answers 503 while a migration is pending', async () => {
    await api.db.dataSource.query(`DELETE FROM migrations WHERE name LIKE 'AddCatalogAndCampaigns%' RETURNING name`);
    try {
      const res = await fetch(`${api.url}/readyz`);
      expect(res.status).toBe(503);
      expect(((await res.json()) as { reason: string }).reason).toMatch(/pending migrations/);
    } finally {
      await api.db.dataSource.query(`INSERT INTO migrations (timestamp, name) VALUES (1795973381362, 'AddCatalogAndCampaigns1795973381362')`);
    }
  });

  it('/metrics exposes Prometheus text with request and GraphQL counters', async () => {
    await api.gql('{ __typename }');
    const text = await (await fetch(`${api.url}/metrics`)).text();
    expect(text).toContain('fanout_http_request_duration_seconds_bucket');
    expect(text).toMatch(/fanout_graphql_operations_total\{type="query",outcome="ok"\} \d+/);
    expect(text).toContain('fanout_process_cpu_user_seconds_total');
  });

  it('every request gets a request id header; a sane caller id is kept', async () => {
    const res = await fetch(`${api.url}/healthz`, { headers: { 'x-request-id': 'trace-123' } });
    expect(res.headers.get('x-request-id')).toBe('trace-123');
    const other = await fetch(`${api.url}/healthz`, { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(other.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('logs are JSON with request id and org id, and never contain passwords, tokens or keys', async () => {
    const u = await signUp(api, 'logger');
    const { key } = await createKey(api, u.token);
    await fetch(`${api.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, 'x-request-id': 'log-check-1' },
      body: JSON.stringify({ query: '{ me { role } }' }),
    });
    const lines = api.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.requestId === 'log-check-1' && l.msg === 'request');
    expect(line).toMatchObject({ requestId: 'log-check-1', orgId: u.orgId, status: 200, path: '/graphql' });
    const all = api.logs.join('\n');
    expect(all).not.toContain(key);
    expect(all).not.toContain(u.token);
    expect(all).not.toContain('correct horse battery');
  });

  it('refuses a query deeper than the limit', async () => {
    const u = await signUp(api, 'deep');
    const res = await api.gql('{ me { organization { members { edges { node { user { email } } } } } } }', {}, u.token);
    expect(codeOf(res)).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(res.errors![0]!.message).toMatch(/exceeds maximum operation depth of 4/);
  });

  it('refuses a query whose complexity (page sizes multiplied) is over the limit', async () => {
    const u = await signUp(api, 'wide');
    const res = await api.gql('{ organizations(first: 100) { nodes { members(first: 100) { nodes { id role } } } } }', {}, u.token);
    expect(codeOf(res)).toBe('QUERY_TOO_COMPLEX');
    const fine = await api.gql('{ organizations(first: 5) { nodes { members(first: 5) { nodes { id role } } } } }', {}, u.token);
    expect(fine.errors).toBeUndefined();
  });

  it('rate-limits failed logins and credential checks per IP with RATE_LIMITED', async () => {
    const codes: (string | undefined)[] = [];
    for (let i = 0; i < 7; i++) {
      codes.push(codeOf(await api.gql('mutation { login(input: {email: "x@example.test", password: "wrong wrong"}) { accessToken } }')));
    }
    expect(codes.slice(0, 5)).toEqual(Array(5).fill('UNAUTHENTICATED'));
    expect(codes.slice(5)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
    expect(codeOf(await api.gql('{ me { role } }', {}, 'fo_aaaaaaaaaa_' + 'A'.repeat(43)))).toBe('RATE_LIMITED');
  });
});
