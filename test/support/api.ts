import { createApi } from '../../apps/api/src/bootstrap.js';
import { loadConfig, type AppConfig } from '#libs/config';
import { createLogger } from '#libs/observability';
import type { INestApplication } from '@nestjs/common';
import { Writable } from 'node:stream';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface GqlResult<T = Record<string, unknown>> {
  status: number;
  data: T | null;
  errors?: { message: string; path?: string[]; extensions?: { code?: string; field?: string } }[];
}

export interface TestApi {
  url: string;
  app: INestApplication;
  db: TestDatabase;
  config: AppConfig;
  /** Every JSON log line the app wrote. */
  logs: string[];
  gql<T = Record<string, unknown>>(query: string, variables?: Record<string, unknown>, token?: string): Promise<GqlResult<T>>;
  close(): Promise<void>;
}

export const JWT_TEST_SECRET = 'test-secret-test-secret-test-secret-0123';

/** The real API (real Postgres, real HTTP on loopback) on a fresh database. */
export async function startTestApi(env: Record<string, string> = {}): Promise<TestApi> {
  const db = await createTestDatabase();
  const config = loadConfig({ NODE_ENV: 'test', PORT: '3000', JWT_SECRET: JWT_TEST_SECRET, LOG_LEVEL: 'info', FANOUT_SCHEDULER: 'off', FANOUT_DEMO: 'off', ...env });
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      logs.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const logger = createLogger(config.logLevel, sink);
  const app = await createApi({ config, logger, dataSource: db.dataSource, jwtSecret: JWT_TEST_SECRET, secretsKey: Buffer.alloc(32, 7) });
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    app,
    db,
    config,
    logs,
    async gql(query, variables = {}, token) {
      const res = await fetch(`${url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await res.json()) as Omit<GqlResult, 'status'>;
      return { status: res.status, data: (body.data ?? null) as never, errors: body.errors };
    },
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

let counter = 0;

/** Signs up a fresh user (with their personal org) and returns the session token. */
export async function signUp(api: TestApi, name = 'user'): Promise<{ token: string; orgId: string; userId: string; email: string }> {
  const email = `${name}-${process.pid}-${++counter}@example.test`;
  const res = await api.gql<{ signUp: { accessToken: string; organization: { id: string }; user: { id: string } } }>(
    'mutation($input: SignUpInput!) { signUp(input: $input) { accessToken organization { id } user { id } } }',
    { input: { email, password: 'correct horse battery', name } },
  );
  if (!res.data) throw new Error(`signUp failed: ${JSON.stringify(res.errors)}`);
  return { token: res.data.signUp.accessToken, orgId: res.data.signUp.organization.id, userId: res.data.signUp.user.id, email };
}

export async function createKey(api: TestApi, token: string, role = 'ADMIN'): Promise<{ key: string; id: string }> {
  const res = await api.gql<{ createApiKey: { key: string; apiKey: { id: string } } }>(
    'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id } } }',
    { input: { name: `key-${++counter}`, role } },
    token,
  );
  if (!res.data) throw new Error(`createApiKey failed: ${JSON.stringify(res.errors)}`);
  return { key: res.data.createApiKey.key, id: res.data.createApiKey.apiKey.id };
}

export function codeOf(res: GqlResult): string | undefined {
  return res.errors?.[0]?.extensions?.code;
}
