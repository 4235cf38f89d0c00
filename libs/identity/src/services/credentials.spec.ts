import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, looksLikeApiKey, parseApiKey } from './api-key.codec.js';
import { hashPassword, verifyPassword } from './password.hasher.js';
import { Role, roleAtLeast } from '../role.js';

describe('API key codec', () => {
  it('makes fo_<prefix>_<secret> keys whose hash is not the key', () => {
    const { token, prefix, secretHash } = generateApiKey();
    expect(token).toMatch(/^fo_[a-z2-9]{10}_[A-Za-z0-9_-]{43}$/);
    expect(parseApiKey(token)).toEqual({ prefix });
    expect(secretHash.equals(hashApiKey(token))).toBe(true);
    // The secret is everything after 'fo_<10-char prefix>_' (it may itself contain '_').
    expect(secretHash.toString('utf8')).not.toContain(token.slice(14));
    expect(token.slice(14)).toHaveLength(43);
  });

  it('keys differ every time', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey().token));
    expect(keys.size).toBe(200);
  });

  it('refuses malformed keys', () => {
    for (const bad of ['', 'fo_', 'fo_ABCDEFGHIJ_' + 'a'.repeat(43), 'fo_abcdefghij_short', 'xx_abcdefghij_' + 'a'.repeat(43)]) {
      expect(parseApiKey(bad)).toBeNull();
    }
    expect(looksLikeApiKey('eyJhbGci')).toBe(false);
  });
});

describe('password hashing (scrypt)', () => {
  it('verifies the right password only, with a salt per hash', async () => {
    const a = await hashPassword('correct horse battery');
    const b = await hashPassword('correct horse battery');
    expect(a).not.toBe(b);
    expect(a.startsWith('scrypt$16384$8$1$')).toBe(true);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterY', a)).toBe(false);
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'garbage')).toBe(false);
  });
});

describe('roles', () => {
  it('orders owner > admin > member > adjudicator > annotator > viewer', () => {
    const order = [Role.OWNER, Role.ADMIN, Role.MEMBER, Role.ADJUDICATOR, Role.ANNOTATOR, Role.VIEWER];
    order.forEach((role, i) => order.forEach((other, j) => expect(roleAtLeast(role, other)).toBe(i <= j)));
  });
});
