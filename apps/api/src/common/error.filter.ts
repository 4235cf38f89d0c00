import { DomainException, ErrorCode, httpStatusOf } from '#libs/common';
import { LOGGER, requestContext } from '#libs/observability';
import { Catch, HttpException, Inject, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { GqlContextType } from '@nestjs/graphql';
import type { Response } from 'express';
import { GraphQLError } from 'graphql';
import type { Logger } from 'pino';

const HTTP_CODES: Record<number, ErrorCode> = {
  400: ErrorCode.BAD_USER_INPUT,
  401: ErrorCode.UNAUTHENTICATED,
  403: ErrorCode.FORBIDDEN,
  404: ErrorCode.NOT_FOUND,
  409: ErrorCode.CONFLICT,
  413: ErrorCode.PAYLOAD_TOO_LARGE,
  429: ErrorCode.RATE_LIMITED,
};

/**
 * The one place that turns exceptions into answers: `extensions.code` for
 * GraphQL, a status and `{ error }` body for REST. Unknown errors are logged
 * with their stack and answered without details.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): unknown {
    const { code, message, field } = this.describe(exception);
    if (host.getType<GqlContextType>() === 'graphql') {
      return new GraphQLError(message, { extensions: { code, ...(field ? { field } : {}) } });
    }
    const res = host.switchToHttp().getResponse<Response>();
    res.status(httpStatusOf[code]).json({ error: { code, message, ...(field ? { field } : {}) } });
    return undefined;
  }

  private describe(exception: unknown): { code: ErrorCode; message: string; field?: string } {
    if (exception instanceof DomainException && exception.code !== ErrorCode.INTERNAL) {
      return { code: exception.code, message: exception.message, field: exception.field };
    }
    if (exception instanceof HttpException && HTTP_CODES[exception.getStatus()]) {
      const body = exception.getResponse();
      const message = typeof body === 'string' ? body : ((body as { message?: string }).message ?? exception.message);
      return { code: HTTP_CODES[exception.getStatus()]!, message: String(message) };
    }
    if (exception instanceof GraphQLError) {
      return { code: (exception.extensions.code as ErrorCode) ?? ErrorCode.BAD_USER_INPUT, message: exception.message };
    }
    const requestId = requestContext.get()?.requestId;
    this.logger.error({ err: exception }, 'unhandled error');
    return { code: ErrorCode.INTERNAL, message: `internal error${requestId ? ` (request ${requestId})` : ''}` };
  }
}
