import type { NextFunction, Request, Response } from 'express';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One registry per app instance (tests boot several in one process). */
export class HttpMetrics {
  readonly registry = new Registry();
  private readonly duration = new Histogram({
    name: 'fanout_http_request_duration_seconds',
    help: 'HTTP request duration by method, route and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly graphqlOperations = new Counter({
    name: 'fanout_graphql_operations_total',
    help: 'GraphQL operations by type and outcome.',
    labelNames: ['type', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'fanout_' });
  }

  middleware = (req: Request, res: Response, next: NextFunction): void => {
    const end = this.duration.startTimer({ method: req.method });
    res.on('finish', () => {
      // The route pattern, not the raw path, so ids do not explode label cardinality.
      const route = (req.route?.path as string | undefined) ?? (req.originalUrl.startsWith('/graphql') ? '/graphql' : 'other');
      end({ route, status: String(res.statusCode) });
    });
    next();
  };
}
