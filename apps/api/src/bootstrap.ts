import { PinoNestLogger } from '#libs/observability';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { MAX_EVENT_BATCH_BYTES } from '#libs/contracts';
import { AppModule, type AppDependencies } from './app.module.js';
import { requestIdMiddleware } from './common/request-id.middleware.js';
import { HttpMetrics } from './ops/http-metrics.js';
import { serveWebUi } from './web/web-ui.js';

/** Builds the API application on an open database; main.ts and the tests share it. */
export async function createApi(deps: AppDependencies): Promise<INestApplication> {
  const metrics = deps.metrics ?? new HttpMetrics();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register({ ...deps, metrics }), {
    logger: new PinoNestLogger(deps.logger),
    bodyParser: true,
    rawBody: true, // req.rawBody beside the parsed body: Stripe webhook signatures are over the exact bytes
  });
  app.set('trust proxy', 'loopback');
  // 6 MB: importExecutions takes up to 5 MB of JSONL inline (bigger files stream to the REST import).
  app.useBodyParser('json', { limit: '6mb' });
  // Runner event batches: NDJSON text, 5 MB at most (413 above).
  app.use('/v1/executions', express.text({ type: 'application/x-ndjson', limit: MAX_EVENT_BATCH_BYTES }));
  app.use(requestIdMiddleware);
  app.use(metrics.middleware);
  app.use(accessLog(deps));
  // The browser UI (apps/web, built to dist/web) at `/`; GraphQL, /v1 and the ops endpoints are unchanged.
  serveWebUi(app, deps.logger);
  app.enableShutdownHooks();
  // Large streamed imports may take minutes; Node's default would cut them at 300 s.
  app.getHttpServer().requestTimeout = 30 * 60 * 1000;
  return app;
}

function accessLog(deps: AppDependencies) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      deps.logger.info({ method: req.method, path: req.originalUrl.split('?')[0], status: res.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
    });
    next();
  };
}
