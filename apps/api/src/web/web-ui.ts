import type { INestApplication } from '@nestjs/common';
import express, { type NextFunction, type Request, type Response } from 'express';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';

/** Paths the API owns: never answered with the web UI, even for a browser asking for HTML. */
const API_PREFIXES = ['/graphql', '/v1/', '/healthz', '/readyz', '/metrics'];

/**
 * Where `scripts/build.mjs` put the Vite build (dist/web): found by walking up
 * from this file, which runs from apps/ (tests, from sources) or dist/apps/.
 */
export function findWebRoot(start = dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, 'dist', 'web');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
    if (dirname(dir) === dir) return null;
  }
}

/**
 * Serves the browser UI at `/`: its hashed assets cached for a year, and
 * index.html for every client route (the SPA fallback) so a reload of
 * /campaigns/<id> works. Registered before Nest's routes, hence the explicit
 * list of API paths it leaves alone.
 */
export function serveWebUi(app: INestApplication, logger: Logger, root = findWebRoot()): void {
  if (!root) {
    logger.warn('web UI not built (no dist/web/index.html): run `npm run build`; the API works without it');
    return;
  }
  const index = join(root, 'index.html');
  app.use('/assets', express.static(join(root, 'assets'), { immutable: true, maxAge: '365d', fallthrough: false }));
  app.use(express.static(root, { index: 'index.html', maxAge: 0 }));
  app.use((req: Request, res: Response, next: NextFunction) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || API_PREFIXES.some((p) => req.path === p.replace(/\/$/, '') || req.path.startsWith(p))) return next();
    if (!req.accepts('html') || req.accepts(['json', 'html']) === 'json') return next();
    res.setHeader('cache-control', 'no-cache');
    res.sendFile(index);
  });
}
