/**
 * The error codes Fanout answers with. One filter (apps/api) maps them to
 * GraphQL `extensions.code` and HTTP statuses; nothing else decides codes.
 */
export enum ErrorCode {
  BAD_USER_INPUT = 'BAD_USER_INPUT',
  UNAUTHENTICATED = 'UNAUTHENTICATED',
  FORBIDDEN = 'FORBIDDEN',
  NOT_FOUND = 'NOT_FOUND',
  CONFLICT = 'CONFLICT',
  RATE_LIMITED = 'RATE_LIMITED',
  BUDGET_EXCEEDED = 'BUDGET_EXCEEDED',
  /** The org's last invoice is unpaid: nothing new may be launched until it is. */
  PAYMENT_REQUIRED = 'PAYMENT_REQUIRED',
  PAYLOAD_TOO_LARGE = 'PAYLOAD_TOO_LARGE',
  INTERNAL = 'INTERNAL_SERVER_ERROR',
}

export const httpStatusOf: Record<ErrorCode, number> = {
  [ErrorCode.BAD_USER_INPUT]: 400,
  [ErrorCode.UNAUTHENTICATED]: 401,
  [ErrorCode.FORBIDDEN]: 403,
  [ErrorCode.NOT_FOUND]: 404,
  [ErrorCode.CONFLICT]: 409,
  [ErrorCode.PAYLOAD_TOO_LARGE]: 413,
  [ErrorCode.RATE_LIMITED]: 429,
  [ErrorCode.BUDGET_EXCEEDED]: 402,
  [ErrorCode.PAYMENT_REQUIRED]: 402,
  [ErrorCode.INTERNAL]: 500,
};

/**
 * Base of every domain's exception. `field` is the input path a user should
 * fix (`input.email`), when there is one.
 */
export class DomainException extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }

  static notFound(what: string, id: string): DomainException {
    // The same words whether the row is missing or another tenant's: callers
    // must not learn that an id exists elsewhere.
    return new DomainException(ErrorCode.NOT_FOUND, `${what} ${id} not found`);
  }

  static badInput(field: string, expected: string, received?: unknown): DomainException {
    const got = received === undefined ? '' : `, got ${describe(received)}`;
    return new DomainException(ErrorCode.BAD_USER_INPUT, `${field}: expected ${expected}${got}`, field);
  }
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return value.length > 40 ? `a string of ${value.length} characters` : JSON.stringify(value);
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  return String(value);
}
