import type { AppConfig } from './app-config.js';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * A secret from the environment when set (required in production);
 * otherwise one made once and kept in FANOUT_HOME (mode 600), so it
 * survives restarts and is shared by every process on the machine.
 */
async function generatedSecret(config: AppConfig, fileName: string, bytes: number): Promise<string> {
  const file = join(config.home, fileName);
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  await mkdir(config.home, { recursive: true });
  // 'wx': if another process wrote it first, keep theirs.
  await writeFile(file, randomBytes(bytes).toString('base64url'), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
  return (await readFile(file, 'utf8')).trim();
}

/** HMAC key of web session tokens. */
export async function resolveJwtSecret(config: AppConfig): Promise<string> {
  return config.jwtSecret ?? generatedSecret(config, 'jwt-secret', 48);
}

/** AES-256 key that seals org secrets (32 bytes). */
export async function resolveSecretsKey(config: AppConfig): Promise<Buffer> {
  const encoded = config.secretsKey ?? (await generatedSecret(config, 'secrets-key', 32));
  return Buffer.from(encoded, 'base64url');
}
