import { createHash } from 'node:crypto';

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const inner = (value as Record<string, unknown>)[key];
      if (inner !== undefined) sorted[key] = sortKeys(inner);
    }
    return sorted;
  }
  return value;
}

/**
 * JSON with object keys sorted at every depth and undefined fields dropped:
 * the same content gives the same text whatever the key order or YAML
 * formatting. List order is kept (it is content).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

/** `sha256:<hex>` of a fingerprint, short enough for a database column and a log line. */
export function manifestHash(fingerprint: string): string {
  return `sha256:${createHash('sha256').update(fingerprint, 'utf8').digest('hex')}`;
}
