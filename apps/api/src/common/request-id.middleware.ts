import { requestContext } from '#libs/observability';
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';

const SAFE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Gives every request an id (the caller's X-Request-Id when sane) that every log line carries. */
export function requestIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const given = req.header('x-request-id');
  const requestId = given && SAFE_ID.test(given) ? given : randomUUID();
  res.setHeader('x-request-id', requestId);
  requestContext.run({ requestId }, () => next());
}
