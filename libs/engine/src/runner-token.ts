import { DomainException, ErrorCode } from '#libs/common';
import { isUuid } from '#libs/database';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DataSource } from 'typeorm';

export interface MintedToken {
  token: string;
  hash: Buffer;
}

/** A runner token: random, for one execution attempt; only its hash is stored on the execution. */
export function mintRunnerToken(): MintedToken {
  const token = `fr_${randomBytes(32).toString('base64url')}`;
  return { token, hash: hashRunnerToken(token) };
}

export function hashRunnerToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

export interface RunnerExecution {
  id: string;
  orgId: string;
  campaignId: string;
  attempt: number;
  status: string;
}

/**
 * The execution a runner token may act on. 404 when the execution does not
 * exist, 403 when the token is not this execution's: a token for one
 * execution can never write to another.
 */
export async function authenticateRunner(dataSource: DataSource, executionId: string, token: string | undefined): Promise<RunnerExecution> {
  if (!token) throw new DomainException(ErrorCode.UNAUTHENTICATED, 'runner token required: Authorization: Bearer fr_...');
  const rows: { id: string; org_id: string; campaign_id: string; attempt: number; status: string; runner_token_hash: Buffer | null }[] = isUuid(executionId)
    ? await dataSource.query('SELECT id, org_id, campaign_id, attempt, status, runner_token_hash FROM executions WHERE id = $1', [executionId])
    : [];
  const row = rows[0];
  if (!row) throw DomainException.notFound('execution', executionId);
  const given = hashRunnerToken(token);
  if (!row.runner_token_hash || !timingSafeEqual(given, row.runner_token_hash)) {
    throw new DomainException(ErrorCode.FORBIDDEN, `this runner token is not valid for execution ${executionId}`);
  }
  return { id: row.id, orgId: row.org_id, campaignId: row.campaign_id, attempt: row.attempt, status: row.status };
}
