import { DomainException, ErrorCode } from '#libs/common';
import { roleAtLeast, type Principal, type Role } from '#libs/identity';
import { requestContext } from '#libs/observability';
import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import { AuthGuard } from '@nestjs/passport';
import { AuthRateLimiter } from './auth-rate-limiter.js';
import { PUBLIC_KEY, ROLE_KEY, RUNNER_KEY, requestOf } from './auth.decorators.js';

const BAD_CREDENTIALS = 'invalid, expired or revoked credentials';

/**
 * Global guard: every handler needs a verified credential unless it is
 * @Public. A credential that is present is always verified, even on public
 * handlers, so a typo in a key is never silently treated as anonymous.
 */
@Injectable()
export class CredentialGuard extends AuthGuard(['api-key', 'jwt']) {
  constructor(
    private readonly reflector: Reflector,
    private readonly limiter: AuthRateLimiter,
  ) {
    super();
  }

  override getRequest(ctx: ExecutionContext) {
    return requestOf(ctx);
  }

  getResponse(ctx: ExecutionContext) {
    return ctx.getType<GqlContextType>() === 'graphql' ? GqlExecutionContext.create(ctx).getContext().res : ctx.switchToHttp().getResponse();
  }

  override async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const targets = [ctx.getHandler(), ctx.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(RUNNER_KEY, targets)) return true;
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_KEY, targets) ?? false;
    const req = this.getRequest(ctx);
    if (!req.user) {
      if (!req.headers.authorization) {
        if (isPublic) return true;
        throw new DomainException(ErrorCode.UNAUTHENTICATED, 'authentication required: send Authorization: Bearer <API key or access token>');
      }
      const ip = req.ip ?? 'unknown';
      await this.limiter.assertAllowed(ip);
      try {
        await super.canActivate(ctx);
      } catch (err) {
        await this.limiter.recordFailure(ip);
        throw err;
      }
    }
    const principal = req.user as Principal;
    requestContext.setOrg(principal.orgId);
    const minimum = this.reflector.getAllAndOverride<Role | undefined>(ROLE_KEY, targets);
    if (minimum && !roleAtLeast(principal.role, minimum)) {
      throw new DomainException(ErrorCode.FORBIDDEN, `this operation needs the ${minimum} role or higher; your credential has ${principal.role}`);
    }
    return true;
  }

  override handleRequest<T>(err: unknown, user: T | false): T {
    if (err || !user) throw new DomainException(ErrorCode.UNAUTHENTICATED, BAD_CREDENTIALS);
    return user;
  }
}
