// Closed-loop load on one GraphQL query with autocannon: N connections, each
// sending its next request as soon as the last is answered. Latency
// percentiles are exact (every response time is kept and sorted), not read
// off autocannon's histogram, which has no p95. A response counts as an
// error when it is not HTTP 200, not JSON, carries GraphQL `errors`, or fails
// the view's own check (row counts).
import autocannon from 'autocannon';

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  max: number;
}

export interface LoadResult {
  connections: number;
  seconds: number;
  /** Responses received (good or bad) before the end. */
  completed: number;
  /** Of those, parsed and checked whole (row counts, figures). */
  verified: number;
  requestsPerSecond: number;
  latencyMs: Latency | null;
  errors: {
    total: number;
    non200: number;
    graphql: number;
    /** JSON with data, but the view's check failed (wrong row count, say). */
    invalid: number;
    /** Timeouts and connection errors (autocannon's `errors`). */
    transport: number;
    timeouts: number;
  };
  /** Requests in flight when the time was up (at most one per connection): cut off, not in the latencies. */
  inFlightAtEnd: number;
  /** The first few error messages, for people. */
  samples: string[];
}

export function percentile(sorted: number[], p: number): number {
  // Nearest rank: the smallest value with at least p% of the values at or below it.
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function summarise(values: number[]): Latency | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    mean: sorted.reduce((a, b) => a + b, 0) / sorted.length,
    max: sorted.at(-1)!,
  };
}

/**
 * Why a GraphQL answer is not a good one, or null when it is. `check` looks
 * at `data`; with `full` false an answer that starts with `{"data":{` is
 * taken as good unparsed: Apollo writes `errors` before `data`
 * (orderExecutionResultFields), so such an answer has none.
 */
export function problemOf(status: number, text: string, check: (data: any) => string | null, full = true): { kind: 'non200' | 'graphql' | 'invalid'; message: string } | null {
  if (status !== 200) return { kind: 'non200', message: `HTTP ${status}: ${text.slice(0, 200)}` };
  if (!full && text.startsWith('{"data":{')) return null;
  let body: { data?: unknown; errors?: { message: string }[] };
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    return { kind: 'invalid', message: `not JSON: ${text.slice(0, 200)}` };
  }
  if (body.errors?.length) return { kind: 'graphql', message: body.errors.map((e) => e.message).join('; ') };
  if (!body.data) return { kind: 'invalid', message: 'no data' };
  const wrong = check(body.data);
  return wrong ? { kind: 'invalid', message: wrong } : null;
}

export async function loadTest(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  check: (data: any) => string | null,
  options: { connections: number; seconds: number; timeoutSeconds: number; verifyEvery: number },
): Promise<LoadResult> {
  const latencies: number[] = [];
  const errors = { total: 0, non200: 0, graphql: 0, invalid: 0, transport: 0, timeouts: 0 };
  let answered = 0;
  let verified = 0;
  const samples: string[] = [];
  const note = (message: string) => {
    if (samples.length < 5 && !samples.includes(message)) samples.push(message);
  };
  const run: autocannon.Options = {
    url: `${url}/graphql`,
    connections: options.connections,
    duration: options.seconds,
    timeout: options.timeoutSeconds,
    requests: [
      {
        method: 'POST' as const,
        path: '/graphql',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
        onResponse: (status: number, body: string) => {
          // Parsing every answer would take CPU from the API on this 2-core machine: every one is checked
          // for HTTP 200 and GraphQL errors, every `verifyEvery`-th one is parsed and checked whole.
          const full = answered++ % options.verifyEvery === 0;
          if (full) verified++;
          const problem = problemOf(status, body, check, full);
          if (problem) {
            errors[problem.kind]++;
            note(problem.message);
          }
        },
      },
    ],
  };
  // The callback form: its return value is the event emitter ('response' carries each response time).
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(run, (error, answer) => (error ? reject(error) : resolve(answer)));
    instance.on('response', (_client, _status, _bytes, responseTime) => void latencies.push(responseTime));
    instance.on('reqError', (error: Error) => note(`request error: ${error.message}`));
  });
  errors.transport = result.errors;
  errors.timeouts = result.timeouts;
  errors.total = errors.non200 + errors.graphql + errors.invalid + errors.transport;
  return {
    connections: options.connections,
    seconds: result.duration,
    completed: latencies.length,
    verified,
    requestsPerSecond: latencies.length / result.duration,
    latencyMs: summarise(latencies),
    errors,
    inFlightAtEnd: Math.max(0, result.requests.sent - latencies.length - result.errors),
    samples,
  };
}

/** One request, timed on the client, with its problem if any. */
export async function timeOnce(
  url: string,
  query: string,
  variables: Record<string, unknown>,
  check: (data: any) => string | null,
): Promise<{ ms: number; data: any; problem: string | null; bytes: number }> {
  const started = performance.now();
  const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
  const text = await res.text();
  const ms = performance.now() - started;
  const problem = problemOf(res.status, text, check);
  let data: unknown = null;
  if (!problem) data = (JSON.parse(text) as { data: unknown }).data;
  return { ms, data, problem: problem?.message ?? null, bytes: Buffer.byteLength(text) };
}
