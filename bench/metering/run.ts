// Metering benchmark (issue 7): model calls priced into the ledger with the
// spend counters moved, per second, and exact totals afterwards.
//
//   npm run bench:metering
//
// Two figures, side by side in one run on the same database:
//  - ledger alone: libs/metering recordModelCalls (pricing, ledger insert,
//    campaign and org counters, alert check) in a transaction per batch, from
//    8 concurrent workers, in process;
//  - end to end: the same calls as model.call events posted by 16 runners to
//    the real API over loopback (event rows + ledger + counters in one
//    transaction), then every batch posted again: nothing may count twice.
// Real Postgres (embedded, durability on as in production).
import { claimExecutions, type StartRequest } from '#libs/engine';
import { recordModelCalls, type ModelCallInput } from '#libs/metering';
import { startBenchStack } from '../support/bench-stack.js';

const LEDGER_CALLS = Number(process.env.BENCH_LEDGER_CALLS ?? 200_000);
const LEDGER_WORKERS = 8;
const RUNNERS = 16;
const BATCH = 500;
const BATCHES_PER_RUNNER = Number(process.env.BENCH_BATCHES ?? 15);
const TARGET = 10_000;
const PRICES = { openai: [2_500_000, 250_000, 0, 10_000_000], anthropic: [3_000_000, 300_000, 3_750_000, 15_000_000] } as const;

/** The n-th call, deterministic: alternating OpenAI-style and Anthropic-style usage of two priced models. */
function call(n: number, prefix: string): ModelCallInput {
  const input = 1_000 + ((n * 7919) % 50_000);
  const cached = (n * 104_729) % input;
  const output = 100 + ((n * 31) % 5_000);
  const time = new Date(Date.UTC(2026, 0, 1) + n).toISOString();
  return n % 2 === 0
    ? { eventId: `${prefix}${n}`, agentId: 'main', provider: 'openai', model: 'bench/openai', time, usage: { style: 'openai', inputTokens: input, cachedInputTokens: cached, cacheWriteTokens: 0, outputTokens: output, reasoningTokens: 0 } }
    : { eventId: `${prefix}${n}`, agentId: `sub-${n % 5}`, provider: 'anthropic', model: 'bench/anthropic', time, usage: { style: 'anthropic', inputTokens: input, cacheReadInputTokens: cached, cacheCreationInputTokens: n % 7, outputTokens: output, reasoningTokens: 0 } };
}

/** Its cost computed independently of libs/metrics: exact integers, half up once per call. */
function expectedMicros(c: ModelCallInput): number {
  const u = c.usage as Record<string, number | string>;
  const kinds =
    u.style === 'openai'
      ? [Number(u.inputTokens) - Number(u.cachedInputTokens), Number(u.cachedInputTokens), 0, Number(u.outputTokens)]
      : [Number(u.inputTokens), Number(u.cacheReadInputTokens), Number(u.cacheCreationInputTokens), Number(u.outputTokens)];
  const prices = u.style === 'openai' ? PRICES.openai : PRICES.anthropic;
  const numerator = kinds.reduce((sum, tokens, k) => sum + BigInt(tokens) * BigInt(prices[k]!), 0n);
  return Number((numerator + 500_000n) / 1_000_000n);
}

const stack = await startBenchStack('metering', LEDGER_WORKERS + 2);
const { ds, url, gql } = stack;
try {
  for (const [model, p] of [['bench/openai', PRICES.openai], ['bench/anthropic', PRICES.anthropic]] as const) {
    await ds.query(
      `INSERT INTO model_prices (id, org_id, model, effective_from, input_micros_per_mtok, cache_read_micros_per_mtok, cache_write_micros_per_mtok, output_micros_per_mtok)
       VALUES (gen_random_uuid(), NULL, $1, '2025-01-01', $2, $3, $4, $5)`,
      [model, ...p],
    );
  }
  const { token, orgId } = await stack.signUp();
  await ds.query('UPDATE organizations SET max_concurrency = 1000, monthly_budget_micros = 1e15 WHERE id = $1', [orgId]);
  const manifest = {
    id: 'bench', name: 'Bench', version: '1.0.0',
    suites: [{ id: 's', name: 'S', tasks: Array.from({ length: RUNNERS + 1 }, (_, i) => ({ id: `t${i}`, difficulty: 'easy', instruction: 'x', workspace: 'w', grader: { command: 'true', format: 'json' }, timeBudgetMinutes: 1 })) }],
  };
  await gql('mutation($m: JSONObject!) { registerBenchmark(input: {manifest: $m}) { created } }', { m: manifest }, token);
  await gql('mutation($m: JSONObject!) { createAgentConfig(input: {manifest: $m}) { created } }', { m: { name: 'a', scaffold: 'custom', model: 'bench/openai', command: ['true'], modes: { sequential: {} } } }, token);
  const campaign = (
    await gql('mutation($m: JSONObject!) { createCampaign(input: {manifest: $m}) { id } }', {
      m: { name: 'bench', agents: [{ config: 'a' }], modes: ['sequential'], benchmarks: [{ id: 'bench', fraction: 1 }], budgetUsd: 1e9, maxConcurrency: 1000 },
    }, token)
  ).createCampaign;
  await gql('mutation($id: ID!) { launchCampaign(id: $id) { status } }', { id: campaign.id }, token);
  const runs: StartRequest[] = await claimExecutions(ds, RUNNERS + 1);
  const local = runs.pop()!;

  // 1. The ledger alone, in process: 8 workers, a transaction per batch of 500 calls.
  let next = 0;
  const t1 = performance.now();
  await Promise.all(
    Array.from({ length: LEDGER_WORKERS }, async () => {
      for (;;) {
        const start = next;
        next += BATCH;
        if (start >= LEDGER_CALLS) return;
        const calls = Array.from({ length: Math.min(BATCH, LEDGER_CALLS - start) }, (_, i) => call(start + i, 'l'));
        await ds.transaction((tx) => recordModelCalls(tx, { id: local.executionId, attempt: local.attempt, orgId: local.orgId, campaignId: campaign.id }, calls));
      }
    }),
  );
  const ledgerSeconds = (performance.now() - t1) / 1000;
  let ledgerExpected = 0;
  for (let n = 0; n < LEDGER_CALLS; n++) ledgerExpected += expectedMicros(call(n, 'l'));

  // 2. End to end over HTTP, then everything again (duplicates must not count).
  const bodies = runs.map((_, r) =>
    Array.from({ length: BATCHES_PER_RUNNER }, (_, b) =>
      Array.from({ length: BATCH }, (_, i) => {
        const c = call((r * BATCHES_PER_RUNNER + b) * BATCH + i, 'h');
        return JSON.stringify({ id: c.eventId, type: 'model.call', time: c.time, agentId: c.agentId, provider: c.provider, model: c.model, durationMs: 5, usage: c.usage });
      }).join('\n'),
    ),
  );
  const send = async () => {
    const t = performance.now();
    await Promise.all(
      runs.map(async (run, r) => {
        for (const body of bodies[r]!) {
          const res = await fetch(`${url}/v1/executions/${run.executionId}/events`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${run.token}` }, body });
          if (res.status !== 200) throw new Error(`events answered ${res.status}: ${await res.text()}`);
          await res.arrayBuffer();
        }
      }),
    );
    return (performance.now() - t) / 1000;
  };
  const httpCalls = RUNNERS * BATCHES_PER_RUNNER * BATCH;
  const httpSeconds = await send();
  const resendSeconds = await send();
  let httpExpected = 0;
  for (let n = 0; n < httpCalls; n++) httpExpected += expectedMicros(call(n, 'h'));

  const [ledger] = await ds.query('SELECT count(*)::int AS n, sum(cost_micros)::bigint AS cost FROM usage_ledger');
  const [spent] = await ds.query('SELECT spent_micros::bigint AS spent FROM campaigns WHERE id = $1', [campaign.id]);
  const [org] = await ds.query('SELECT sum(spent_micros)::bigint AS spent FROM org_spend WHERE org_id = $1', [orgId]);
  const total = ledgerExpected + httpExpected;
  const exact = ledger.n === LEDGER_CALLS + httpCalls && Number(ledger.cost) === total && Number(spent.spent) === total && Number(org.spent) === total;
  const ledgerRate = LEDGER_CALLS / ledgerSeconds;
  const httpRate = httpCalls / httpSeconds;
  console.log(`fanout metering benchmark (node ${process.version}, ${new Date().toISOString()})`);
  console.log('');
  console.log(`ledger (pricing + ledger insert + campaign and org counters + alert check), ${LEDGER_WORKERS} workers, ${BATCH} calls per transaction: ${LEDGER_CALLS.toLocaleString('en-US')} calls in ${ledgerSeconds.toFixed(2)} s = ${Math.round(ledgerRate).toLocaleString('en-US')} calls/s (target >= ${TARGET.toLocaleString('en-US')}/s: ${ledgerRate >= TARGET ? 'met' : 'NOT met'})`);
  console.log(`end to end (${RUNNERS} runners posting model.call events to the API, events + ledger + counters per batch): ${httpCalls.toLocaleString('en-US')} calls in ${httpSeconds.toFixed(2)} s = ${Math.round(httpRate).toLocaleString('en-US')} calls/s (${(httpRate / ledgerRate).toFixed(2)}x the ledger alone); every batch re-sent: ${resendSeconds.toFixed(2)} s`);
  console.log(`totals: ${ledger.n.toLocaleString('en-US')} ledger rows (expected ${(LEDGER_CALLS + httpCalls).toLocaleString('en-US')}), $${(Number(ledger.cost) / 1e6).toFixed(6)} (expected $${(total / 1e6).toFixed(6)}); campaign counter $${(Number(spent.spent) / 1e6).toFixed(6)}, org counter $${(Number(org.spent) / 1e6).toFixed(6)}: ${exact ? 'exact' : 'MISMATCH'}`);
  if (!exact) process.exitCode = 1;
} finally {
  await stack.stop();
}
