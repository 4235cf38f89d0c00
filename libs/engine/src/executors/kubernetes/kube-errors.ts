import { ApiException } from '@kubernetes/client-node';

/** The HTTP status of a failed API call (ApiException.code, or a watch error's statusCode); null for a network error. */
export function statusOf(err: unknown): number | null {
  if (err instanceof ApiException) return err.code;
  const e = err as { code?: unknown; statusCode?: unknown } | null;
  if (typeof e?.statusCode === 'number') return e.statusCode;
  if (typeof e?.code === 'number') return e.code;
  return null;
}

/**
 * A short message for logs and last_error: the API's own Status message,
 * never the whole exception (whose text carries the response headers).
 */
export function describeError(err: unknown): string {
  if (err instanceof ApiException) {
    let message = '';
    try {
      const body = typeof err.body === 'string' ? JSON.parse(err.body) : err.body;
      message = body?.message ?? '';
    } catch {
      message = String(err.body ?? '').slice(0, 300);
    }
    return `Kubernetes API ${err.code}${message ? `: ${message}` : ''}`;
  }
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e?.cause?.code ?? e?.cause?.message;
  return `${e?.message ?? String(err)}${cause ? ` (${cause})` : ''}`.slice(0, 500);
}
