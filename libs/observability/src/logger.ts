import type { LoggerService } from '@nestjs/common';
import { pino, type Logger } from 'pino';
import { requestContext } from './request-context.js';

/** Keys whose values never reach a log line, at any depth pino can see. */
const REDACT = ['password', 'token', 'accessToken', 'apiKey', 'secret', 'authorization', '*.password', '*.token', '*.secret', '*.authorization', 'req.headers.authorization', 'variables.password', 'variables.input.password'];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'fanout' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT, censor: '[redacted]' },
      mixin() {
        const ctx = requestContext.get();
        return ctx ? { requestId: ctx.requestId, ...(ctx.orgId ? { orgId: ctx.orgId } : {}) } : {};
      },
    },
    destination,
  );
}

/** Lets Nest's own messages go through the same JSON logger. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}
  log(message: unknown, context?: string): void {
    this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}

export const LOGGER = Symbol('LOGGER');
