import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in answered, as the official client sent it. */
export interface StandInRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  idempotencyKey: string | undefined;
  /** The form-encoded body, flattened the way Stripe reads it: `payload[value]` -> '123'. */
  form: Record<string, string>;
  status: number;
}

export interface StandInMeterEvent {
  eventName: string;
  identifier: string;
  timestamp: number;
  customer: string;
  value: string;
}

/**
 * A STAND-IN for Stripe's REST API, on loopback. Stripe's servers cannot be
 * reached from here (and no stripe-mock exists on npm or Debian), so tests
 * point the official `stripe` client at this server through STRIPE_API_URL.
 * It speaks just enough of Stripe for Fanout: customers (with Idempotency-Key
 * replay) and Billing Meter events (with Stripe's duplicate-identifier answer:
 * 400 invalid_request_error "An event already exists with identifier ...",
 * Stripe-Should-Retry: false). It records every request and can be told to
 * fail the next requests.
 */
export class StripeStandIn {
  readonly requests: StandInRequest[] = [];
  /** Meter events accepted (each identifier once), in arrival order. */
  readonly meterEvents: StandInMeterEvent[] = [];
  readonly customers = new Map<string, { id: string; name: string | undefined; metadata: Record<string, string> }>();
  private readonly replays = new Map<string, { status: number; body: unknown }>();
  private failures: { status: number; accept: boolean }[] = [];
  private nextId = 1;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<StripeStandIn> {
    let standIn: StripeStandIn | undefined;
    const server = createServer((req, res) => void standIn!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    standIn = new StripeStandIn(server, `http://127.0.0.1:${port}`);
    return standIn;
  }

  /** The next `count` requests answer `status` (Stripe's api_error shape) without doing anything. */
  failNext(count: number, status = 500): void {
    for (let i = 0; i < count; i++) this.failures.push({ status, accept: false });
  }

  /**
   * The next `count` requests are carried out, then answered `status`: the
   * answer is lost on the way back, as when the caller crashes mid-request.
   */
  acceptThenFail(count: number, status = 500): void {
    for (let i = 0; i < count; i++) this.failures.push({ status, accept: true });
  }

  requestsTo(path: string): StandInRequest[] {
    return this.requests.filter((r) => r.path === path);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
    const path = (req.url ?? '/').split('?')[0]!;
    const record: StandInRequest = { method: req.method ?? 'GET', path, headers, idempotencyKey: headers['idempotency-key'], form, status: 0 };
    this.requests.push(record);

    const send = (status: number, body: unknown, extra: Record<string, string> = {}) => {
      record.status = status;
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_standin_${this.requests.length}`, ...extra });
      res.end(JSON.stringify(body));
    };
    if (headers.authorization?.startsWith('Bearer ') !== true) {
      return send(401, { error: { type: 'invalid_request_error', message: 'You did not provide an API key.' } });
    }

    const failure = this.failures.shift();
    if (failure && !failure.accept) return send(failure.status, { error: { type: 'api_error', message: 'stand-in: injected failure' } });
    const [status, body, extra] = this.route(record);
    if (failure) return send(failure.status, { error: { type: 'api_error', message: 'stand-in: injected failure after the work was done' } });
    send(status, body, extra);
  }

  private route(req: StandInRequest): [number, unknown, Record<string, string>?] {
    if (req.method === 'POST' && req.path === '/v1/customers') return this.createCustomer(req);
    if (req.method === 'POST' && req.path === '/v1/billing/meter_events') return this.createMeterEvent(req);
    return [404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.path}). (stand-in)` } }];
  }

  private createCustomer(req: StandInRequest): [number, unknown, Record<string, string>?] {
    // Stripe replays the first answer to a repeated Idempotency-Key.
    const replay = req.idempotencyKey ? this.replays.get(req.idempotencyKey) : undefined;
    if (replay) return [replay.status, replay.body, { 'idempotent-replayed': 'true' }];
    const metadata = Object.fromEntries(
      Object.entries(req.form)
        .filter(([k]) => k.startsWith('metadata['))
        .map(([k, v]) => [k.slice('metadata['.length, -1), v]),
    );
    const customer = { id: `cus_standin${String(this.nextId++).padStart(6, '0')}`, name: req.form.name, metadata };
    this.customers.set(customer.id, customer);
    const body = { object: 'customer', livemode: false, created: Math.floor(Date.now() / 1000), ...customer };
    if (req.idempotencyKey) this.replays.set(req.idempotencyKey, { status: 200, body });
    return [200, body];
  }

  private createMeterEvent(req: StandInRequest): [number, unknown, Record<string, string>?] {
    const f = req.form;
    const missing = ['event_name', 'payload[stripe_customer_id]', 'payload[value]'].find((k) => !f[k]);
    if (missing) return [400, { error: { type: 'invalid_request_error', message: `Missing required param: ${missing}.`, param: missing } }];
    const identifier = f.identifier ?? `standin_${this.nextId++}`;
    if (this.meterEvents.some((e) => e.identifier === identifier)) {
      // Stripe's answer to an identifier it already holds: not retryable.
      return [
        400,
        { error: { type: 'invalid_request_error', message: `An event already exists with identifier ${identifier}.` } },
        { 'stripe-should-retry': 'false' },
      ];
    }
    const event = { eventName: f.event_name!, identifier, timestamp: Number(f.timestamp ?? Math.floor(Date.now() / 1000)), customer: f['payload[stripe_customer_id]']!, value: f['payload[value]']! };
    this.meterEvents.push(event);
    return [
      200,
      {
        object: 'billing.meter_event',
        created: Math.floor(Date.now() / 1000),
        event_name: event.eventName,
        identifier,
        livemode: false,
        payload: { stripe_customer_id: event.customer, value: event.value },
        timestamp: event.timestamp,
      },
    ];
  }
}
