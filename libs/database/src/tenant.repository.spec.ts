import { describe, expect, it } from 'vitest';
import { isUuid, requireOrgId } from './tenant.repository.js';

describe('requireOrgId', () => {
  it.each([undefined, null, ''])('refuses %o: an unscoped query would read every tenant', (value) => {
    expect(() => requireOrgId(value)).toThrow(/without an org id/);
  });
  it('passes a real id through', () => {
    expect(requireOrgId('5c0d7373-e22a-4765-896d-c6b9aae1d61d')).toBe('5c0d7373-e22a-4765-896d-c6b9aae1d61d');
  });
  it('recognises uuids', () => {
    expect(isUuid('5c0d7373-e22a-4765-896d-c6b9aae1d61d')).toBe(true);
    expect(isUuid("1' OR '1'='1")).toBe(false);
  });
});
