import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { requireBuild, startProcess, type Started } from '../support/processes.js';

/**
 * Boots the platform exactly as `npm start` does (the built API, its own
 * embedded Postgres in a fresh FANOUT_HOME), then signs up, creates an org
 * and a key, uses the key, and stops it with SIGINT (Ctrl-C).
 */
describe('npm start on an empty home', () => {
  let home: string;
  let api: Started;
  let url: string;
  let startedIn: number;

  beforeAll(async () => {
    requireBuild();
    home = await mkdtemp(join(tmpdir(), 'fanout-e2e-'));
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    const t0 = performance.now();
    api = await startProcess(['dist/apps/api/src/main.js'], { FANOUT_HOME: home, PORT: String(port), FANOUT_PG_PORT: String(await freePort()), DATABASE_URL: '', JWT_SECRET: '', FANOUT_DEMO: 'off' }, 'fanout api listening');
    startedIn = performance.now() - t0;
  });
  afterAll(async () => {
    api?.child.kill('SIGKILL');
    await rm(home, { recursive: true, force: true });
  });

  const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    return (await res.json()) as { data: any; errors?: unknown[] };
  };

  it('starts its own database, migrates, and says how to create the first user', () => {
    expect(api.output()).toContain('The database has no users yet');
    expect(existsSync(join(home, 'pg', 'PG_VERSION'))).toBe(true);
    expect(startedIn).toBeLessThan(60_000);
  });

  it('signs up, creates an organization and an API key, and uses the key', async () => {
    const signUp = await gql('mutation { signUp(input: {email: "first@example.test", password: "a long password", name: "First"}) { accessToken user { id } } }');
    expect(signUp.errors).toBeUndefined();
    const token = signUp.data.signUp.accessToken as string;
    const org = await gql('mutation { createOrganization(input: {name: "Research Lab", slug: "research-lab"}) { id slug } }', {}, token);
    expect(org.data.createOrganization.slug).toBe('research-lab');
    const switched = await gql('mutation($id: ID!) { switchOrganization(id: $id) { accessToken } }', { id: org.data.createOrganization.id }, token);
    const key = await gql('mutation { createApiKey(input: {name: "ci", role: ADMIN}) { key } }', {}, switched.data.switchOrganization.accessToken);
    const me = await gql('{ me { kind role organization { slug } } }', {}, key.data.createApiKey.key);
    expect(me).toEqual({ data: { me: { kind: 'API_KEY', role: 'ADMIN', organization: { slug: 'research-lab' } } } });
  });

  it('Ctrl-C stops the API and its database cleanly', async () => {
    api.child.kill('SIGINT');
    expect(await api.exited).toBe(0);
    expect(existsSync(join(home, 'pg', 'postmaster.pid'))).toBe(false);
    expect(api.output()).toContain('shutting down');
  });
});
