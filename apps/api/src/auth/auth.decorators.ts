import type { Principal, Role } from '#libs/identity';
import { SetMetadata, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { GqlExecutionContext, type GqlContextType } from '@nestjs/graphql';
import type { Request } from 'express';

export const PUBLIC_KEY = 'fanout:public';
export const ROLE_KEY = 'fanout:role';
export const RUNNER_KEY = 'fanout:runner';

/** Anonymous callers may use this handler (credentials, when given, are still verified). */
export const Public = () => SetMetadata(PUBLIC_KEY, true);

/**
 * Runner protocol routes: they authenticate the execution-scoped runner
 * token themselves, so the user credential guard stands aside entirely.
 */
export const RunnerAuthenticated = () => SetMetadata(RUNNER_KEY, true);

/** The least role the caller's credential must carry in its org. */
export const RequireRole = (role: Role) => SetMetadata(ROLE_KEY, role);

export function requestOf(ctx: ExecutionContext): Request {
  return ctx.getType<GqlContextType>() === 'graphql'
    ? GqlExecutionContext.create(ctx).getContext<{ req: Request }>().req
    : ctx.switchToHttp().getRequest<Request>();
}

/** The verified caller; only on handlers that are not @Public. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  return requestOf(ctx).user as Principal;
});

/** The caller's org, from the verified credential: never from an argument. */
export const CurrentOrg = createParamDecorator((_: unknown, ctx: ExecutionContext): string => {
  return (requestOf(ctx).user as Principal).orgId;
});
