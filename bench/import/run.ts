// Benchmark of `fanout import`: a campaign of 100,000 planned executions
// (2 agents x 2 modes x 5,000 tasks x 5 repetitions) on an embedded
// Postgres, the API in this process, and the real CLI streaming JSONL files
// to it: a first import (every line updates its execution), the same file
// again (every line unchanged) and a changed file with 1% bad lines.
// Run: node scripts/build.mjs && node dist/bench/import/run.js
import { loadConfig } from '#libs/config';
import { EmbeddedPostgresManager, createDataSource, migrate } from '#libs/database';
import { createLogger } from '#libs/observability';
import { entities, migrations } from '#libs/persistence';
import type { INestApplication } from '@nestjs/common';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pino } from 'pino';
import type { DataSource } from 'typeorm';
import { createApi } from '../../apps/api/src/bootstrap.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const AGENTS = [
  { name: 'codex', model: 'gpt-5-codex' },
  { name: 'claude', model: 'claude-sonnet-4-5' },
];
const MODES = ['concurrent', 'sequential'];
const TASKS = 5_000;
const REPETITIONS = 5;
const TARGET_SECONDS = 60;
const DIFFICULTIES = ['easy', 'medium', 'hard'] as const;

interface Summary {
  linesRead: number;
  updated: number;
  unchanged: number;
  rejected: number;
  errors: { line: number; field: string; reason: string }[];
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** The catalog, the campaign and its 100,000 queued executions, in SQL (the planner is not what is measured). */
async function seedCampaign(ds: DataSource, orgId: string): Promise<string> {
  const [{ id: campaignId }] = await ds.query(`SELECT gen_random_uuid() AS id`);
  await ds.transaction(async (tx) => {
    const [{ id: benchmarkId }] = await tx.query(`INSERT INTO benchmarks (id, org_id, key) VALUES (gen_random_uuid(), $1, 'repo-rebuild') RETURNING id`, [orgId]);
    const [{ id: versionId }] = await tx.query(
      `INSERT INTO benchmark_versions (id, org_id, benchmark_id, key, version, seq, fingerprint, name, visibility, success_rule, task_count, manifest)
       VALUES (gen_random_uuid(), $1, $2, 'repo-rebuild', '1.0.0', 1, 'bench', 'repo-rebuild', 'private', 'taskPass', $3, '{}') RETURNING id`,
      [orgId, benchmarkId, TASKS],
    );
    await tx.query(
      `INSERT INTO tasks (id, org_id, benchmark_version_id, suite_key, task_key, difficulty, reference_kloc, time_budget_minutes, ordinal)
       SELECT gen_random_uuid(), $1, $2, 'suite-' || (i % 4), 'task-' || i, (ARRAY['easy','medium','hard'])[i % 3 + 1], 10 + i % 50, 60, i
       FROM generate_series(0, $3 - 1) AS i`,
      [orgId, versionId, TASKS],
    );
    for (const agent of AGENTS) {
      const [{ id: configId }] = await tx.query(`INSERT INTO agent_configs (id, org_id, name) VALUES (gen_random_uuid(), $1, $2) RETURNING id`, [orgId, agent.name]);
      await tx.query(
        `INSERT INTO agent_config_versions (id, org_id, agent_config_id, name, version, fingerprint, scaffold, model, manifest)
         VALUES (gen_random_uuid(), $1, $2, $3, 1, 'bench', 'codex', $4, '{}')`,
        [orgId, configId, agent.name, agent.model],
      );
    }
    const plan = { agents: [], modes: MODES, benchmarks: [], repetitions: REPETITIONS, seed: 1, timeBudgetMinutes: null, executionCount: 0, estimate: { lowUsd: null, expectedUsd: null, highUsd: null, basis: [] } };
    await tx.query(
      `INSERT INTO campaigns (id, org_id, name, status, visibility, seed, repetitions, max_concurrency, budget_micros, execution_count, plan)
       VALUES ($1, $2, 'import bench', 'created', 'private', 1, $3, 8, 1000000000000, $4, $5)`,
      [campaignId, orgId, REPETITIONS, AGENTS.length * MODES.length * TASKS * REPETITIONS, JSON.stringify(plan)],
    );
    await tx.query(
      `INSERT INTO executions (id, org_id, campaign_id, agent_config_version_id, agent_name, model, mode, benchmark_version_id, benchmark_key,
                               task_id, suite_key, task_key, difficulty, repetition, status)
       SELECT gen_random_uuid(), $1, $2, v.id, v.name, v.model, m.mode, t.benchmark_version_id, 'repo-rebuild',
              t.id, t.suite_key, t.task_key, t.difficulty, r.rep, 'queued'
       FROM agent_config_versions v
       CROSS JOIN unnest($3::text[]) AS m(mode)
       CROSS JOIN tasks t
       CROSS JOIN generate_series(0, $4 - 1) AS r(rep)
       WHERE v.org_id = $1 AND t.benchmark_version_id = $5`,
      [orgId, campaignId, MODES, REPETITIONS, versionId],
    );
  });
  return campaignId;
}

/** One record per planned execution; `variant` changes the numbers; every 100th line is broken when `bad` is set. */
function writeFile(path: string, variant: number, bad: boolean): Promise<void> {
  const out = createWriteStream(path);
  let i = 0;
  const lines = function* () {
    for (const agent of AGENTS)
      for (const mode of MODES)
        for (let t = 0; t < TASKS; t++)
          for (let rep = 0; rep < REPETITIONS; rep++) {
            const n = i++;
            const subAgents = mode === 'concurrent' ? 2 + (n % 5) : 0;
            const agents: { id: string; parentId: string | null; start: string; end: string }[] = [{ id: 'main', parentId: null, start: '2025-06-01T10:00:00Z', end: '2025-06-01T10:40:00Z' }];
            for (let s = 0; s < subAgents; s++) agents.push({ id: `sub-${s}`, parentId: 'main', start: `2025-06-01T10:0${s}:00Z`, end: `2025-06-01T10:2${s}:30.5Z` });
            const record: Record<string, unknown> = {
              agent: agent.name,
              model: agent.model,
              benchmark: 'repo-rebuild',
              suite: `suite-${t % 4}`,
              task: `task-${t}`,
              difficulty: DIFFICULTIES[t % 3],
              mode,
              repetition: rep,
              outcome: n % 50 === 0 ? 'infra_failed' : 'completed',
              testsPassed: (n + variant) % 40,
              testsTotal: 40,
              resolved: (n + variant) % 40 === 39,
              wallSeconds: 600 + (n % 1800) + variant,
              shellCalls: 20 + (n % 300),
              usage: { inputTokens: 2_000_000 + n, cacheReadTokens: 1_500_000, cacheWriteTokens: 10_000, outputTokens: 80_000 + variant, reasoningTokens: 50_000 },
              costUsd: 1.25 + (n % 1000) / 1000 + variant,
              referenceKloc: 10 + (t % 50),
              agents,
            };
            if (bad && n % 100 === 99) {
              const kind = (n / 100) % 5 | 0;
              if (kind === 0) yield '{"agent": "codex", "model": ';
              else if (kind === 1) yield JSON.stringify({ ...record, testsTotal: '40' });
              else if (kind === 2) yield JSON.stringify({ ...record, task: 'no-such-task' });
              else if (kind === 3) yield JSON.stringify({ ...record, mode: 'turbo' });
              else yield JSON.stringify({ ...record, repetition: REPETITIONS });
            } else {
              yield JSON.stringify(record);
            }
          }
  };
  return new Promise((done, fail) => {
    const it = lines();
    const pump = () => {
      for (let r = it.next(); !r.done; r = it.next()) if (!out.write(`${r.value}\n`)) return void out.once('drain', pump);
      out.end(done);
    };
    out.on('error', fail);
    pump();
  });
}

/** The CLI as users run it, asynchronously: the API answering it lives in this process. */
function runImport(apiUrl: string, key: string, campaignId: string, file: string): Promise<{ seconds: number; code: number | null; summary: Summary; stderr: string }> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(root, 'bin/fanout.js'), '--api', apiUrl, '--api-key', key, '--json', 'import', '--campaign', campaignId, file], { cwd: root });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((done) =>
    child.on('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      let summary: Summary;
      try {
        summary = JSON.parse(stdout) as Summary;
      } catch {
        throw new Error(`fanout import failed (${code}): ${stderr}`);
      }
      done({ seconds, code, summary, stderr });
    }),
  );
}

async function gql<T>(url: string, query: string, variables: Record<string, unknown>, token?: string): Promise<T> {
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: unknown };
  if (!body.data) throw new Error(JSON.stringify(body.errors));
  return body.data;
}

async function main(): Promise<void> {
  const keep = process.argv.includes('--keep');
  const home = await mkdtemp(join(tmpdir(), 'fanout-bench-import-'));
  const server = await new EmbeddedPostgresManager({ home, port: await freePort(), logger: pino({ level: 'warn' }) }).start();
  let app: INestApplication | undefined;
  let ds: DataSource | undefined;
  try {
    ds = createDataSource(server.url, { entities, migrations }, 10);
    await ds.initialize();
    await migrate(ds);
    const config = loadConfig({ NODE_ENV: 'test', PORT: '3000', JWT_SECRET: randomBytes(24).toString('hex'), LOG_LEVEL: 'warn', FANOUT_HOME: home });
    app = await createApi({ config, logger: createLogger('warn'), dataSource: ds, jwtSecret: randomBytes(24).toString('hex'), secretsKey: randomBytes(32) });
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as { port: number };
    const apiUrl = `http://127.0.0.1:${port}`;

    const signUp = await gql<{ signUp: { accessToken: string; organization: { id: string } } }>(
      apiUrl,
      'mutation($input: SignUpInput!) { signUp(input: $input) { accessToken organization { id } } }',
      { input: { email: 'bench@example.test', password: 'a long bench password', name: 'bench' } },
    );
    const created = await gql<{ createApiKey: { key: string } }>(
      apiUrl,
      'mutation($input: CreateApiKeyInput!) { createApiKey(input: $input) { key } }',
      { input: { name: 'bench', role: 'MEMBER' } },
      signUp.signUp.accessToken,
    );
    const key = created.createApiKey.key;

    let t = performance.now();
    const campaignId = await seedCampaign(ds, signUp.signUp.organization.id);
    const [{ n: executions }] = await ds.query('SELECT count(*)::int AS n FROM executions WHERE campaign_id = $1', [campaignId]);
    console.log(`seeded a campaign of ${fmt(executions)} planned executions in ${fmt((performance.now() - t) / 1000, 1)} s`);

    t = performance.now();
    const first = join(home, 'runs.jsonl');
    const changed = join(home, 'runs-changed-1pct-bad.jsonl');
    await writeFile(first, 0, false);
    await writeFile(changed, 1, true);
    const size = (await stat(first)).size;
    console.log(`wrote 2 files of ${fmt(executions)} lines (${fmt(size / 1024 ** 2, 1)} MiB each) in ${fmt((performance.now() - t) / 1000, 1)} s${keep ? ` to ${home}` : ''}`);

    const runs = [
      { name: 'first import (all updated)', file: first, expect: { updated: executions, unchanged: 0, rejected: 0 } },
      { name: 're-import (all unchanged)', file: first, expect: { updated: 0, unchanged: executions, rejected: 0 } },
      { name: 'changed file, 1% bad lines', file: changed, expect: { updated: executions * 0.99, unchanged: 0, rejected: executions * 0.01 } },
    ];
    const rows: string[][] = [];
    let worst = 0;
    let wrong = false;
    for (const run of runs) {
      const result = await runImport(apiUrl, key, campaignId, run.file);
      const s = result.summary;
      const ok = s.updated === run.expect.updated && s.unchanged === run.expect.unchanged && s.rejected === run.expect.rejected && s.linesRead === executions;
      wrong ||= !ok;
      worst = Math.max(worst, result.seconds);
      rows.push([run.name, fmt(s.linesRead), fmt(result.seconds, 2), fmt(s.linesRead / result.seconds), fmt(s.updated), fmt(s.unchanged), fmt(s.rejected), String(result.code), ok ? 'yes' : 'NO']);
    }
    const header = ['run', 'lines', 'seconds', 'lines/s', 'updated', 'unchanged', 'rejected', 'exit', 'counts ok'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
    console.log(`\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
    for (const row of rows) console.log(line(row));

    const [check] = await ds.query(
      `SELECT count(*) FILTER (WHERE source = 'import')::int AS imported, count(*) FILTER (WHERE status = 'queued')::int AS queued FROM executions WHERE campaign_id = $1`,
      [campaignId],
    );
    console.log(`\nexecutions imported: ${fmt(check.imported)}, still queued: ${fmt(check.queued)}`);
    console.log(
      `${worst < TARGET_SECONDS && !wrong ? 'target met' : 'TARGET MISSED'}: slowest run ${fmt(worst, 1)} s for ${fmt(executions)} lines (target < ${TARGET_SECONDS} s)${wrong ? '; some counts were not as expected' : ''}`,
    );
  } finally {
    await app?.close();
    if (ds?.isInitialized) await ds.destroy();
    await server.stop();
    if (!keep) await rm(home, { recursive: true, force: true });
  }
}

await main();
process.exit(0);
