import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import { parseEnvironment } from './environment.js';

/** Never echoed back in an error message. */
const SECRET_VARIABLES = new Set(['JWT_SECRET', 'DATABASE_URL', 'FANOUT_SECRETS_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']);

const port = z.coerce.number().int().min(1).max(65535);
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'expected a postgres:// or postgresql:// URL' }).optional(),
  FANOUT_HOME: z.string().min(1).default('.fanout'),
  FANOUT_PG_PORT: port.default(54329),
  JWT_SECRET: z.string().min(32, 'expected at least 32 characters').optional(),
  FANOUT_SECRETS_KEY: z
    .string()
    .regex(/^[A-Za-z0-9_-]{43}=?$/, 'expected 32 bytes in base64url (43 characters), e.g. from `openssl rand -base64 32 | tr "+/" "-_"`')
    .optional(),
  FANOUT_ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 24 * 3600).default(12 * 3600),
  FANOUT_AUTH_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  FANOUT_GRAPHQL_MAX_DEPTH: z.coerce.number().int().min(2).max(50).default(10),
  FANOUT_GRAPHQL_MAX_COMPLEXITY: z.coerce.number().int().min(10).max(1_000_000).default(2_000),
  FANOUT_MIGRATE_ON_START: bool.default(true),
  FANOUT_SCHEDULER: z.enum(['embedded', 'off']).default('embedded'),
  FANOUT_DEMO: z.enum(['on', 'off']).default('on'),
  FANOUT_MAX_LOCAL_RUNS: z.coerce.number().int().min(1).max(256).optional(),
  FANOUT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  FANOUT_RETRY_BACKOFF_SECONDS: z.coerce.number().min(0).max(3600).default(5),
  FANOUT_PUBLIC_URL: z.url({ error: 'expected the http(s) URL runners use to reach this API' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, 'expected a Stripe secret or restricted key (sk_test_..., sk_live_..., rk_...)').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_[A-Za-z0-9+/=_-]+$/, "expected the endpoint's signing secret (whsec_...)").optional(),
  STRIPE_API_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL of a Stripe-compatible server, e.g. http://127.0.0.1:12111' }).refine((u) => new URL(u).pathname === '/', 'expected no path (the client adds /v1/...)').optional(),
  // Meter identifiers are `<name>:<org uuid>:<hour ISO>`: 38 characters keep them within Stripe's 100.
  STRIPE_METER_EVENT_NAME: z.string().regex(/^[A-Za-z0-9_.-]{1,38}$/, 'expected 1 to 38 letters, digits, _ . or -').default('fanout_spend'),
  FANOUT_EXECUTOR: z.enum(['local', 'kubernetes']).default('local'),
  FANOUT_KUBECONFIG: z.string().min(1).optional(),
  FANOUT_RUNNER_IMAGE: z.string().regex(/^[a-z0-9][a-z0-9._/:@-]*$/, 'expected a container image reference, e.g. ghcr.io/acme/fanout-runner:0.1.0').max(512).optional(),
  // A dash and the org id (36 characters) follow: 26 keep namespace names within DNS-1123's 63.
  FANOUT_K8S_NAMESPACE_PREFIX: z.string().regex(/^[a-z]([-a-z0-9]{0,24}[a-z0-9])?-?$/, 'expected 1 to 26 lowercase letters, digits or - (and an optional trailing -), starting with a letter').default('fanout-'),
  FANOUT_K8S_MAX_JOBS: z.coerce.number().int().min(1).max(100_000).default(100),
  FANOUT_K8S_QPS: z.coerce.number().min(1).max(10_000).default(20),
  FANOUT_K8S_SYSTEM_NAMESPACE: z.string().regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'expected a namespace name (DNS-1123 label)').optional(),
  FANOUT_K8S_UNSCHEDULABLE_SECONDS: z.coerce.number().int().min(10).max(86_400).default(600),
  FANOUT_K8S_JOB_TTL_SECONDS: z.coerce.number().int().min(0).max(30 * 86_400).default(3600),
  FANOUT_KUEUE_QUEUE: z.string().regex(/^[a-z0-9]([-a-z0-9.]{0,61}[a-z0-9])?$/, 'expected a Kueue LocalQueue name').optional(),
  FANOUT_KUEUE_MAX_PENDING: z.coerce.number().int().min(1).max(100_000).default(50),
});

export type AppConfig = Readonly<{
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  databaseUrl: string | undefined;
  home: string;
  embeddedPgPort: number;
  jwtSecret: string | undefined;
  secretsKey: string | undefined;
  accessTokenTtlSeconds: number;
  authRateLimitPerMinute: number;
  graphqlMaxDepth: number;
  graphqlMaxComplexity: number;
  migrateOnStart: boolean;
  logLevel: string;
  /** `embedded`: the API process also runs the scheduler (one machine). */
  scheduler: 'embedded' | 'off';
  /** Register fanout-mini and launch the demo campaign on a database without campaigns. */
  demo: boolean;
  maxLocalRuns: number;
  maxAttempts: number;
  retryBackoffSeconds: number;
  /** URL runners call back; default http://127.0.0.1:PORT. */
  publicUrl: string;
  /** Stripe billing; null (off) unless STRIPE_SECRET_KEY is set. */
  stripe: StripeConfig | null;
  /** Where runners run: local processes, or Kubernetes Jobs (then `kubernetes` is set). */
  executor: 'local' | 'kubernetes';
  kubernetes: KubernetesConfig | null;
}>;

export type KubernetesConfig = Readonly<{
  /** A kubeconfig file; null: the in-cluster service account. */
  kubeconfig: string | null;
  runnerImage: string;
  namespacePrefix: string;
  maxJobs: number;
  /** Client-side API calls per second (burst: twice that). */
  qps: number;
  /** Where the platform runs (the Lease, the API pods the NetworkPolicy lets runners reach); null: in-cluster namespace, else `fanout`. */
  systemNamespace: string | null;
  unschedulableSeconds: number;
  jobTtlSeconds: number;
  /** Kueue LocalQueue; null: Jobs start at once. */
  kueueQueue: string | null;
  kueueMaxPending: number;
}>;

export type StripeConfig = Readonly<{
  secretKey: string;
  /** Null: the webhook endpoint answers 404 (metering still runs). */
  webhookSecret: string | null;
  /** A Stripe-compatible server instead of api.stripe.com (tests, stand-ins). */
  api: Readonly<{ host: string; port: number; protocol: 'http' | 'https' }> | null;
  meterEventName: string;
}>;

export class ConfigError extends Error {}

/**
 * Reads and validates the environment once. An invalid value stops the
 * process with a message that names the variable, what was expected and
 * what was received.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = parseEnvironment(schema, env, SECRET_VARIABLES);
  if (!parsed.ok) throw new ConfigError(`Invalid configuration:\n${parsed.problems.join('\n')}`);
  const e = parsed.value;
  if (e.NODE_ENV === 'production' && !e.JWT_SECRET) {
    throw new ConfigError('Invalid configuration:\n  JWT_SECRET: required when NODE_ENV=production (at least 32 characters)');
  }
  if (e.NODE_ENV === 'production' && !e.FANOUT_SECRETS_KEY) {
    throw new ConfigError('Invalid configuration:\n  FANOUT_SECRETS_KEY: required when NODE_ENV=production (32 bytes, base64url)');
  }
  return Object.freeze({
    env: e.NODE_ENV,
    host: e.HOST,
    port: e.PORT,
    databaseUrl: e.DATABASE_URL,
    home: resolve(e.FANOUT_HOME),
    embeddedPgPort: e.FANOUT_PG_PORT,
    jwtSecret: e.JWT_SECRET,
    secretsKey: e.FANOUT_SECRETS_KEY?.replace(/=$/, ''),
    accessTokenTtlSeconds: e.FANOUT_ACCESS_TOKEN_TTL_SECONDS,
    authRateLimitPerMinute: e.FANOUT_AUTH_RATE_LIMIT,
    graphqlMaxDepth: e.FANOUT_GRAPHQL_MAX_DEPTH,
    graphqlMaxComplexity: e.FANOUT_GRAPHQL_MAX_COMPLEXITY,
    migrateOnStart: e.FANOUT_MIGRATE_ON_START,
    logLevel: e.LOG_LEVEL,
    scheduler: e.FANOUT_SCHEDULER,
    demo: e.FANOUT_DEMO === 'on',
    maxLocalRuns: e.FANOUT_MAX_LOCAL_RUNS ?? availableParallelism(),
    maxAttempts: e.FANOUT_MAX_ATTEMPTS,
    retryBackoffSeconds: e.FANOUT_RETRY_BACKOFF_SECONDS,
    publicUrl: (e.FANOUT_PUBLIC_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, ''),
    stripe: e.STRIPE_SECRET_KEY ? stripeConfig(e.STRIPE_SECRET_KEY, e.STRIPE_WEBHOOK_SECRET, e.STRIPE_API_URL, e.STRIPE_METER_EVENT_NAME) : null,
    executor: e.FANOUT_EXECUTOR,
    kubernetes: e.FANOUT_EXECUTOR === 'kubernetes' ? kubernetesConfig(e) : null,
  });
}

function kubernetesConfig(e: z.infer<typeof schema>): KubernetesConfig {
  if (!e.FANOUT_RUNNER_IMAGE) throw new ConfigError('Invalid configuration:\n  FANOUT_RUNNER_IMAGE: required when FANOUT_EXECUTOR=kubernetes (the runner image, e.g. ghcr.io/acme/fanout-runner:0.1.0)');
  return Object.freeze({
    kubeconfig: e.FANOUT_KUBECONFIG ? resolve(e.FANOUT_KUBECONFIG) : null,
    runnerImage: e.FANOUT_RUNNER_IMAGE,
    namespacePrefix: e.FANOUT_K8S_NAMESPACE_PREFIX,
    maxJobs: e.FANOUT_K8S_MAX_JOBS,
    qps: e.FANOUT_K8S_QPS,
    systemNamespace: e.FANOUT_K8S_SYSTEM_NAMESPACE ?? null,
    unschedulableSeconds: e.FANOUT_K8S_UNSCHEDULABLE_SECONDS,
    jobTtlSeconds: e.FANOUT_K8S_JOB_TTL_SECONDS,
    kueueQueue: e.FANOUT_KUEUE_QUEUE ?? null,
    kueueMaxPending: e.FANOUT_KUEUE_MAX_PENDING,
  });
}

function stripeConfig(secretKey: string, webhookSecret: string | undefined, apiUrl: string | undefined, meterEventName: string): StripeConfig {
  const url = apiUrl ? new URL(apiUrl) : null;
  const protocol = url?.protocol === 'http:' ? 'http' : 'https';
  const api = url ? Object.freeze({ host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: Number(url.port || (protocol === 'http' ? 80 : 443)), protocol }) : null;
  return Object.freeze({ secretKey, webhookSecret: webhookSecret ?? null, api, meterEventName });
}

/** Injection token for the frozen config object. */
export const APP_CONFIG = Symbol('APP_CONFIG');
