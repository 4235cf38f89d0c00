import { DomainException, ErrorCode } from '#libs/common';
import type { Principal } from '../principal.js';
import { Role, roleAtLeast } from '../role.js';

/** Service-level role check; resolvers check too, this keeps the services safe on their own. */
export function requireRole(principal: Principal, minimum: Role, action: string): void {
  if (!roleAtLeast(principal.role, minimum)) {
    throw new DomainException(ErrorCode.FORBIDDEN, `${action} needs the ${minimum} role or higher; you have ${principal.role}`);
  }
}

export function requireUser(principal: Principal, action: string): string {
  if (principal.kind !== 'user' || !principal.userId) {
    throw new DomainException(ErrorCode.FORBIDDEN, `${action} needs a signed-in user; API keys are scoped to one organization`);
  }
  return principal.userId;
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
