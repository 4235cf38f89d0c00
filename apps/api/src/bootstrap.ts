import { PinoNestLogger } from '#libs/observability';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { AppModule, type AppDependencies } from './app.module.js';
import { requestIdMiddleware } from './common/request-id.middleware.js';
import { HttpMetrics } from './ops/http-metrics.js';

/** Builds the API application on an open database; main.ts and the tests share it. */
export async function createApi(deps: AppDependencies): Promise<INestApplication> {
  const metrics = deps.metrics ?? new HttpMetrics();
  const app = await NestFactory.create<NestExpressApplication>(AppModule.register({ ...deps, metrics }), {
    logger: new PinoNestLogger(deps.logger),
    bodyParser: true,
  });
  app.set('trust proxy', 'loopback');
  app.useBodyParser('json', { limit: '1mb' });
  app.use(requestIdMiddleware);
  app.use(metrics.middleware);
  app.use(accessLog(deps));
  app.enableShutdownHooks();
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
