import { createHash, randomBytes, randomInt } from 'node:crypto';

const PREFIX_ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
const KEY_PATTERN = /^fo_([a-z2-9]{10})_([A-Za-z0-9_-]{43})$/;

export interface NewApiKey {
  /** `fo_<prefix>_<secret>`: shown once, never stored. */
  token: string;
  prefix: string;
  secretHash: Buffer;
}

export function generateApiKey(): NewApiKey {
  let prefix = '';
  for (let i = 0; i < 10; i++) prefix += PREFIX_ALPHABET[randomInt(PREFIX_ALPHABET.length)];
  const token = `fo_${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, prefix, secretHash: hashApiKey(token) };
}

/** The secret has 256 random bits, so a fast hash is enough; a slow one would tax every request. */
export function hashApiKey(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export function parseApiKey(token: string): { prefix: string } | null {
  const match = KEY_PATTERN.exec(token);
  return match ? { prefix: match[1]! } : null;
}

export function looksLikeApiKey(token: string): boolean {
  return token.startsWith('fo_');
}
