import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './app-config.js';

describe('loadConfig', () => {
  it('gives defaults and a frozen object', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: '127.0.0.1', databaseUrl: undefined, embeddedPgPort: 54329, migrateOnStart: true });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, /PORT: .*number.*\(got "eighty"\)/],
    [{ PORT: '70000' }, /PORT: .*65535.*\(got "70000"\)/],
    [{ DATABASE_URL: "mysql://x" }, /DATABASE_URL: expected a postgres:\/\/ or postgresql:\/\/ URL$/m],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL: .*\(got "loud"\)/],
    [{ JWT_SECRET: 'short' }, /JWT_SECRET: expected at least 32 characters/],
    [{ FANOUT_MIGRATE_ON_START: 'yes' }, /FANOUT_MIGRATE_ON_START/],
  ])('names the bad variable %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes the secret value in its message', () => {
    expect(() => loadConfig({ JWT_SECRET: 'tooshort-secret' })).toThrow(/JWT_SECRET/);
    expect(() => loadConfig({ JWT_SECRET: 'tooshort-secret' })).not.toThrow(/tooshort-secret/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://user:pw@host/db' })).not.toThrow(/pw@host/);
  });

  it('requires JWT_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/JWT_SECRET: required when NODE_ENV=production/);
    expect(() => loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) })).toThrow(/FANOUT_SECRETS_KEY: required/);
    expect(loadConfig({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), FANOUT_SECRETS_KEY: 'A'.repeat(43) }).env).toBe('production');
  });

  it('turns Stripe on only with STRIPE_SECRET_KEY, parses STRIPE_API_URL, never echoes the keys', () => {
    expect(loadConfig({}).stripe).toBeNull();
    expect(loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_abc' }).stripe).toBeNull();
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc' }).stripe).toEqual({ secretKey: 'sk_test_abc', webhookSecret: null, api: null, meterEventName: 'fanout_spend' });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_API_URL: 'http://127.0.0.1:12111', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_METER_EVENT_NAME: 'spend' }).stripe).toEqual({
      secretKey: 'sk_test_abc',
      webhookSecret: 'whsec_x',
      api: { host: '127.0.0.1', port: 12111, protocol: 'http' },
      meterEventName: 'spend',
    });
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_abc', STRIPE_API_URL: 'https://stripe.internal' }).stripe?.api).toEqual({ host: 'stripe.internal', port: 443, protocol: 'https' });
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_public' })).toThrow(/STRIPE_SECRET_KEY: expected a Stripe secret/);
    expect(() => loadConfig({ STRIPE_SECRET_KEY: 'pk_test_public' })).not.toThrow(/pk_test_public/);
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'secret-value' })).not.toThrow(/secret-value/);
    expect(() => loadConfig({ STRIPE_API_URL: 'http://127.0.0.1:1/base' })).toThrow(/STRIPE_API_URL: expected no path/);
    expect(() => loadConfig({ STRIPE_METER_EVENT_NAME: 'a:b' })).toThrow(/STRIPE_METER_EVENT_NAME/);
  });

  it('chooses the executor; Kubernetes needs a runner image and valid names', () => {
    expect(loadConfig({})).toMatchObject({ executor: 'local', kubernetes: null });
    expect(() => loadConfig({ FANOUT_EXECUTOR: 'kubernetes' })).toThrow(/FANOUT_RUNNER_IMAGE: required when FANOUT_EXECUTOR=kubernetes/);
    expect(() => loadConfig({ FANOUT_EXECUTOR: 'nomad' })).toThrow(/FANOUT_EXECUTOR/);
    const k = loadConfig({ FANOUT_EXECUTOR: 'kubernetes', FANOUT_RUNNER_IMAGE: 'ghcr.io/acme/fanout-runner:0.1.0', FANOUT_KUBECONFIG: '/etc/kube/config', FANOUT_KUEUE_QUEUE: 'agents' }).kubernetes;
    expect(k).toEqual({
      kubeconfig: '/etc/kube/config',
      runnerImage: 'ghcr.io/acme/fanout-runner:0.1.0',
      namespacePrefix: 'fanout-',
      maxJobs: 100,
      qps: 20,
      systemNamespace: null,
      unschedulableSeconds: 600,
      jobTtlSeconds: 3600,
      kueueQueue: 'agents',
      kueueMaxPending: 50,
    });
    expect(Object.isFrozen(k)).toBe(true);
    const image = { FANOUT_EXECUTOR: 'kubernetes', FANOUT_RUNNER_IMAGE: 'runner:1' };
    expect(() => loadConfig({ ...image, FANOUT_K8S_NAMESPACE_PREFIX: 'Fanout_' })).toThrow(/FANOUT_K8S_NAMESPACE_PREFIX: expected 1 to 26 lowercase/);
    expect(() => loadConfig({ ...image, FANOUT_K8S_NAMESPACE_PREFIX: 'a'.repeat(27) })).toThrow(/FANOUT_K8S_NAMESPACE_PREFIX/);
    expect(loadConfig({ ...image, FANOUT_K8S_NAMESPACE_PREFIX: `${'a'.repeat(26)}-` }).kubernetes?.namespacePrefix).toHaveLength(27);
    expect(() => loadConfig({ ...image, FANOUT_K8S_MAX_JOBS: '0' })).toThrow(/FANOUT_K8S_MAX_JOBS/);
    expect(() => loadConfig({ ...image, FANOUT_RUNNER_IMAGE: 'Runner Image' })).toThrow(/FANOUT_RUNNER_IMAGE: expected a container image reference/);
  });
});
