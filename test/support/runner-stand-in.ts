import { gradeSchema, heartbeatSchema, MAX_EVENT_BATCH_BYTES, trajectoryEventSchema, type EventBatchResult, type ExecutionSpec, type Grade, type Heartbeat, type TrajectoryEvent } from '#libs/contracts';
import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type Endpoint = 'spec' | 'events' | 'heartbeat' | 'grade';

interface Failure {
  endpoint: Endpoint;
  remaining: number;
  status: number;
  /** Fail after storing the events: the answer is lost, as after a timeout, so the runner must re-send. */
  afterStoring: boolean;
}

/**
 * A STAND-IN for the Fanout API's runner protocol (docs/runner-protocol.md),
 * for testing the runner without a database: not the real server. It serves
 * one spec, checks the bearer token and the execution id (401 without a
 * token, 403 for another token or execution), stores events deduplicated by
 * id and rejects invalid ones by index, answers heartbeats (cancel on
 * demand), records grades, and can fail requests with 5xx on demand.
 */
export class RunnerStandIn {
  /** Stored events in order of arrival, each id once. */
  readonly events: TrajectoryEvent[] = [];
  readonly eventIds = new Set<string>();
  readonly rejected: { index: number; reason: string }[] = [];
  readonly batches: { status: number; lines: number }[] = [];
  readonly heartbeats: Heartbeat[] = [];
  readonly grades: Grade[] = [];
  /** Every request: method, endpoint and the status answered. */
  readonly requests: { method: string; path: string; status: number }[] = [];
  /** Whether heartbeats answer `cancel: true`; a function decides per heartbeat. */
  cancel: boolean | ((heartbeat: Heartbeat) => boolean) = false;
  private readonly failures: Failure[] = [];
  private readonly changes = new EventEmitter();

  private constructor(
    private readonly server: Server,
    readonly url: string,
    readonly spec: ExecutionSpec,
    readonly token: string,
  ) {}

  static async start(spec: ExecutionSpec, token: string): Promise<RunnerStandIn> {
    const server = createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as { port: number };
    const standIn = new RunnerStandIn(server, `http://127.0.0.1:${port}`, spec, token);
    server.on('request', (req, res) => void standIn.handle(req, res));
    return standIn;
  }

  /** The next `times` requests to `endpoint` answer `status` (503 by default); `Infinity` for always. */
  fail(endpoint: Endpoint, times: number, options: { status?: number; afterStoring?: boolean } = {}): void {
    this.failures.push({ endpoint, remaining: times, status: options.status ?? 503, afterStoring: options.afterStoring ?? false });
  }

  /** Resolves once `predicate` holds (checked after every request), or rejects after `timeoutMs`. */
  async waitFor(predicate: () => boolean, timeoutMs = 10_000): Promise<void> {
    if (predicate()) return;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.changes.off('change', check);
        reject(new Error('stand-in: condition not met in time'));
      }, timeoutMs);
      const check = () => {
        if (!predicate()) return;
        clearTimeout(timer);
        this.changes.off('change', check);
        resolve();
      };
      this.changes.on('change', check);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', this.url).pathname;
    const send = (status: number, body: unknown) => {
      this.requests.push({ method: req.method ?? '', path, status });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      this.changes.emit('change');
    };
    const match = /^\/v1\/executions\/([^/]+)\/(spec|events|heartbeat|grade)$/.exec(path);
    if (!match) return send(404, { error: 'not found' });
    const [, id, endpoint] = match as unknown as [string, string, Endpoint];
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ')) return send(401, { error: 'missing bearer token' });
    if (auth !== `Bearer ${this.token}` || decodeURIComponent(id) !== this.spec.executionId) return send(403, { error: 'token not valid for this execution' });

    const body = await readBody(req, MAX_EVENT_BATCH_BYTES);
    if (body === null) return send(413, { error: `body over ${MAX_EVENT_BATCH_BYTES} bytes` });
    const failure = this.failures.find((f) => f.endpoint === endpoint && f.remaining > 0);
    if (failure && !failure.afterStoring) {
      failure.remaining--;
      if (endpoint === 'events') this.batches.push({ status: failure.status, lines: lineCount(body) });
      return send(failure.status, { error: 'stand-in: failing on purpose' });
    }
    const expected = endpoint === 'spec' ? 'GET' : 'POST';
    if (req.method !== expected) return send(405, { error: `use ${expected}` });

    switch (endpoint) {
      case 'spec':
        return send(200, this.spec);
      case 'events': {
        const result = this.storeEvents(body);
        if (failure) {
          failure.remaining--;
          this.batches.push({ status: failure.status, lines: lineCount(body) });
          return send(failure.status, { error: 'stand-in: stored, then failing on purpose' });
        }
        this.batches.push({ status: 200, lines: lineCount(body) });
        return send(200, result);
      }
      case 'heartbeat': {
        const hb = heartbeatSchema.safeParse(parseJson(body));
        if (!hb.success) return send(400, { error: hb.error.message });
        this.heartbeats.push(hb.data);
        const cancel = typeof this.cancel === 'function' ? this.cancel(hb.data) : this.cancel;
        return send(200, { cancel });
      }
      case 'grade': {
        const grade = gradeSchema.safeParse(parseJson(body));
        if (!grade.success) return send(400, { error: grade.error.message });
        if (!this.grades.some((g) => g.attempt === grade.data.attempt)) this.grades.push(grade.data);
        return send(200, { status: 'graded' });
      }
    }
  }

  private storeEvents(body: string): EventBatchResult {
    const result: EventBatchResult = { accepted: 0, duplicates: 0, rejected: [] };
    const lines = body.split('\n').filter((l) => l.trim() !== '');
    lines.forEach((line, index) => {
      const parsed = trajectoryEventSchema.safeParse(parseJson(line));
      if (!parsed.success) {
        const reason = parsed.error.issues.map((i) => `${i.path.join('.') || '(event)'}: ${i.message}`).join('; ');
        result.rejected.push({ index, reason });
        this.rejected.push({ index, reason });
      } else if (this.eventIds.has(parsed.data.id)) {
        result.duplicates++;
      } else {
        this.eventIds.add(parsed.data.id);
        this.events.push(parsed.data);
        result.accepted++;
      }
    });
    return result;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function lineCount(body: string): number {
  return body.split('\n').filter((l) => l.trim() !== '').length;
}

/** The request body, or null when it is over `limit` bytes (read to the end all the same, so that the answer gets through). */
async function readBody(req: IncomingMessage, limit: number): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
  }
  return size > limit ? null : Buffer.concat(chunks).toString('utf8');
}
