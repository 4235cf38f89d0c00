import { executionSpecSchema, gradeSchema, heartbeatAnswerSchema, type EventBatchResult, type ExecutionSpec, type Grade, type Heartbeat } from '#libs/contracts';
import type { Logger } from 'pino';
import { z } from 'zod';
import { withRetry, type RetryPolicy } from './retry.util.js';
import { RunnerError, TransientError } from './runner.error.js';

export interface ApiRetryPolicies {
  spec: RetryPolicy;
  events: RetryPolicy;
  grade: RetryPolicy;
}

export const DEFAULT_RETRY: ApiRetryPolicies = {
  // About 4 s in all: a Fanout API that is restarting is back by then; one that is down is an infrastructure failure.
  spec: { attempts: 5, baseDelayMs: 250, maxDelayMs: 4_000 },
  // About a minute: events must not be lost, but a runner must not wait forever for an API that is gone.
  events: { attempts: 12, baseDelayMs: 250, maxDelayMs: 8_000 },
  grade: { attempts: 8, baseDelayMs: 250, maxDelayMs: 8_000 },
};

/** A non-transient HTTP answer: the request itself is wrong (bad token, wrong execution, invalid body). */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpStatusError';
  }
}

const batchResultSchema = z.object({
  accepted: z.number().int().min(0),
  duplicates: z.number().int().min(0),
  rejected: z.array(z.object({ index: z.number().int().min(0), reason: z.string() })),
});

const REQUEST_TIMEOUT_MS = 30_000;
const HEARTBEAT_TIMEOUT_MS = 10_000;

/**
 * The runner's side of the runner protocol (docs/runner-protocol.md): the
 * four endpoints under /v1/executions/:id/, with the execution's bearer token.
 */
export class RunnerApiClient {
  private readonly base: URL;

  constructor(
    private readonly config: { api: string; executionId: string; token: string },
    private readonly logger: Logger,
    private readonly retry: ApiRetryPolicies = DEFAULT_RETRY,
  ) {
    // Keep a path prefix (https://host/fanout) by making the base a folder.
    this.base = new URL(`v1/executions/${encodeURIComponent(config.executionId)}/`, config.api.endsWith('/') ? config.api : `${config.api}/`);
  }

  /** GET spec, retrying transient failures; anything else is a runner failure. */
  async getSpec(signal?: AbortSignal): Promise<ExecutionSpec> {
    let body: unknown;
    try {
      body = await withRetry('GET spec', this.retry.spec, this.logger, () => this.request('GET', 'spec'), signal);
    } catch (err) {
      throw new RunnerError(`could not fetch the execution spec from ${this.url('spec')}: ${(err as Error).message}`, { cause: err });
    }
    const parsed = executionSpecSchema.safeParse(body);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
      throw new RunnerError(`the execution spec is invalid: ${issues}`);
    }
    if (parsed.data.executionId !== this.config.executionId) {
      throw new RunnerError(`the spec is for execution ${parsed.data.executionId}, not ${this.config.executionId}`);
    }
    return parsed.data;
  }

  /** POST events, one try: the uploader decides about retries (and splits a batch on 413). */
  async postEvents(ndjson: string): Promise<EventBatchResult> {
    const body = await this.request('POST', 'events', ndjson, 'application/x-ndjson');
    const parsed = batchResultSchema.safeParse(body);
    if (!parsed.success) throw new TransientError(`unexpected answer to POST events: ${JSON.stringify(body).slice(0, 200)}`);
    return parsed.data;
  }

  /** POST heartbeat, one try: a missed heartbeat is followed by the next one. */
  async heartbeat(heartbeat: Heartbeat): Promise<{ cancel: boolean }> {
    const body = await this.request('POST', 'heartbeat', JSON.stringify(heartbeat), 'application/json', HEARTBEAT_TIMEOUT_MS);
    const parsed = heartbeatAnswerSchema.safeParse(body);
    if (!parsed.success) throw new TransientError(`unexpected answer to POST heartbeat: ${JSON.stringify(body).slice(0, 200)}`);
    return parsed.data;
  }

  /** POST grade, retrying transient failures (a repeat is a no-op on the server); not accepted is a runner failure. */
  async postGrade(grade: Grade, signal?: AbortSignal): Promise<void> {
    const body = JSON.stringify(gradeSchema.parse(grade));
    try {
      await withRetry('POST grade', this.retry.grade, this.logger, () => this.request('POST', 'grade', body, 'application/json'), signal);
    } catch (err) {
      throw new RunnerError(`the grade was not accepted by ${this.url('grade')}: ${(err as Error).message}`, { cause: err });
    }
  }

  private url(endpoint: string): string {
    return new URL(endpoint, this.base).toString();
  }

  private async request(method: string, endpoint: string, body?: string, contentType?: string, timeoutMs = REQUEST_TIMEOUT_MS): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(this.url(endpoint), {
        method,
        headers: { authorization: `Bearer ${this.config.token}`, accept: 'application/json', ...(contentType ? { 'content-type': contentType } : {}) },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const cause = (err as Error & { cause?: Error }).cause;
      throw new TransientError(`${method} ${endpoint}: ${(err as Error).message}${cause ? ` (${cause.message})` : ''}`);
    }
    const text = await res.text().catch(() => '');
    if (res.ok) {
      try {
        return text === '' ? {} : JSON.parse(text);
      } catch {
        throw new TransientError(`${method} ${endpoint}: answer is not JSON: ${text.slice(0, 200)}`);
      }
    }
    const message = `${method} ${endpoint} answered ${res.status}${text ? `: ${text.slice(0, 300)}` : ''}`;
    if (res.status >= 500 || res.status === 408 || res.status === 429) throw new TransientError(message, res.status);
    throw new HttpStatusError(res.status, message);
  }
}
