import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { requireBuild, runCli, startProcess, type Started } from '../support/processes.js';

/** The `fanout` command: operator commands on the local database, then API commands with the key they made. */
describe('fanout CLI', () => {
  let env: Record<string, string>;
  let home: string;
  let api: Started | undefined;

  beforeAll(async () => {
    requireBuild();
    home = await mkdtemp(join(tmpdir(), 'fanout-cli-'));
    env = { FANOUT_HOME: home, FANOUT_PG_PORT: String(await freePort()), PORT: String(await freePort()), DATABASE_URL: '', FANOUT_SCHEDULER: 'off', FANOUT_DEMO: 'off', FANOUT_API_KEY: '', FANOUT_API: '' };
  });
  afterAll(async () => {
    if (api) {
      api.child.kill('SIGINT');
      await api.exited;
    }
    await rm(home, { recursive: true, force: true });
  });

  it('--help works for every command', async () => {
    for (const args of [['--help'], ['user', 'create', '--help'], ['org', 'create', '--help'], ['keys', 'create', '--help'], ['keys', 'list', '--help'], ['db', 'migrate', '--help'], ['report', '--help'], ['whoami', '--help']]) {
      const res = await runCli(args, env);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stdout).toContain('Usage: fanout');
    }
  });

  let key = '';
  it('creates a user, an org and a key on the local database', async () => {
    expect((await runCli(['db', 'migrate'], env)).stdout).toMatch(/applied CreateIdentity|up to date/);
    const user = await runCli(['user', 'create', '--email', 'Ops@Example.test', '--name', 'Ops'], env, 'a long password\n');
    expect(user.stdout).toContain('created user ops@example.test');
    const org = await runCli(['org', 'create', '--name', 'Ops Lab', '--owner', 'ops@example.test', '--slug', 'ops-lab', '--json'], env);
    expect(JSON.parse(org.stdout)).toMatchObject({ slug: 'ops-lab', name: 'Ops Lab' });
    const created = await runCli(['keys', 'create', '--org', 'ops-lab', '--name', 'ci', '--role', 'admin', '--json'], env);
    expect(created.code).toBe(0);
    key = JSON.parse(created.stdout).key;
    expect(key).toMatch(/^fo_/);
  });

  it('bad arguments fail with a message naming the option, and a non-zero exit', async () => {
    const role = await runCli(['keys', 'create', '--org', 'ops-lab', '--name', 'x', '--role', 'boss'], env);
    expect(role.code).toBe(1);
    expect(role.stderr).toContain('--role: expected one of owner, admin, member, adjudicator, annotator, viewer; got "boss"');
    const owner = await runCli(['org', 'create', '--name', 'X', '--owner', 'nobody@example.test'], env);
    expect(owner.code).toBe(1);
    expect(owner.stderr).toContain('--owner: no user with email nobody@example.test');
    const missing = await runCli(['org', 'create'], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("required option '--name <name>' not specified");
  });

  it('uses the key against the running API, in text and JSON', async () => {
    api = await startProcess(['dist/apps/api/src/main.js'], env, 'fanout api listening');
    const target = ['--api', `http://127.0.0.1:${env.PORT}`, '--api-key', key];
    const who = await runCli(['whoami', ...target], env);
    expect(who.stdout.trim()).toBe('api_key in ops-lab (Ops Lab) as admin');
    const list = await runCli([...target, '--json', 'keys', 'list'], env);
    expect(JSON.parse(list.stdout)).toHaveLength(1);
    const second = await runCli([...target, '--json', 'keys', 'create', '--name', 'viewer', '--role', 'viewer'], env);
    const { id, key: viewerKey } = JSON.parse(second.stdout);
    const revoked = await runCli([...target, 'keys', 'revoke', id], env);
    expect(revoked.stdout).toContain(`revoked ${id}`);
    const denied = await runCli(['whoami', '--api', `http://127.0.0.1:${env.PORT}`, '--api-key', viewerKey], env);
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain('UNAUTHENTICATED');
  });

  it('says clearly when the API cannot be reached', async () => {
    const res = await runCli(['whoami', '--api', 'http://127.0.0.1:9', '--api-key', key], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('cannot reach the Fanout API at http://127.0.0.1:9/graphql');
  });
});
