import type { AppConfig } from './app-config.js';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * JWT_SECRET when set (required in production); otherwise a random secret
 * made once and kept in FANOUT_HOME, so sessions survive a restart.
 */
export async function resolveJwtSecret(config: AppConfig): Promise<string> {
  if (config.jwtSecret) return config.jwtSecret;
  const file = join(config.home, 'jwt-secret');
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  await mkdir(config.home, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  await writeFile(file, secret, { mode: 0o600, flag: 'wx' }).catch(async () => undefined);
  return (await readFile(file, 'utf8')).trim();
}
