import { Clock, DomainException, ErrorCode } from '#libs/common';
import { requireOrgId } from '#libs/database';
import { Role, roleAtLeast, type Principal } from '#libs/identity';
import { LOGGER } from '#libs/observability';
import type { KindPrices } from '#libs/metrics';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';

export type PriceScope = 'platform' | 'org';

/** One version of a model's prices, as the caller may see it. */
export interface PriceVersionView {
  id: string;
  scope: PriceScope;
  model: string;
  effectiveFrom: Date;
  /** Integer micro-dollars per million tokens of each disjoint kind. */
  prices: KindPrices;
  note: string | null;
  createdAt: Date;
  /** The version of this model and scope in force now. */
  inForce: boolean;
}

export interface SetModelPrice {
  model: string;
  scope: PriceScope;
  effectiveFrom?: Date | null;
  inputUsdPerMTok: number;
  cacheReadUsdPerMTok: number;
  cacheWriteUsdPerMTok: number;
  outputUsdPerMTok: number;
  note?: string | null;
}

/** A new price may start at most this long ago (clock skew); earlier would reach back to calls already priced. */
export const PRICE_BACKDATE_TOLERANCE_MS = 60_000;
/** $1,000,000 per million tokens: far above any real price, far below 2^53 micro-dollars. */
const MAX_USD_PER_MTOK = 1_000_000;
const MAX_MODEL_LENGTH = 200;
const MAX_NOTE_LENGTH = 500;

/**
 * Dollars to integer micro-dollars, exactly: refuses what does not fit in 6
 * decimals rather than rounding it (`1e-7` would otherwise become 0).
 */
export function usdToMicros(field: string, usd: number): number {
  const expected = `a non-negative number of US dollars per million tokens with at most 6 decimals, at most ${MAX_USD_PER_MTOK}`;
  if (typeof usd !== 'number' || !Number.isFinite(usd) || usd < 0 || usd > MAX_USD_PER_MTOK) throw DomainException.badInput(field, expected, usd);
  const fixed = usd.toFixed(6);
  if (Number(fixed) !== usd) throw DomainException.badInput(field, expected, usd);
  return Number(fixed.replace('.', ''));
}

interface PriceRow {
  id: string;
  org_id: string | null;
  model: string;
  effective_from: Date;
  input: string;
  cache_read: string;
  cache_write: string;
  output: string;
  note: string | null;
  created_at: Date;
}

/**
 * The price book as people manage it: platform defaults (platform admins)
 * and an org's negotiated overrides (its admins). A price row is a version,
 * never updated: a change is a new row effective from now or later, so costs
 * already recorded never move (re-pricing is the explicit recompute).
 */
@Injectable()
export class ModelPriceService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  /**
   * The platform defaults and the caller's org overrides, never another
   * org's. Without history: per model and scope, the version in force now
   * and any scheduled later ones.
   */
  async list(principal: Principal, options: { model?: string | null; includeHistory?: boolean } = {}): Promise<PriceVersionView[]> {
    const orgId = requireOrgId(principal.orgId);
    const rows: PriceRow[] = await this.dataSource.query(
      `SELECT id, org_id, model, effective_from, input_micros_per_mtok::text AS input, cache_read_micros_per_mtok::text AS cache_read,
              cache_write_micros_per_mtok::text AS cache_write, output_micros_per_mtok::text AS output, note, created_at
         FROM model_prices
        WHERE (org_id IS NULL OR org_id = $1) AND ($2::text IS NULL OR model = $2)
        ORDER BY model, org_id NULLS FIRST, effective_from DESC, created_at DESC, id DESC`,
      [orgId, options.model ?? null],
    );
    const now = this.clock.now().getTime();
    const seen = new Set<string>();
    const views: PriceVersionView[] = [];
    for (const row of rows) {
      const key = `${row.model}\u0000${row.org_id ?? ''}`;
      // Rows come newest first per model and scope: the first one already effective is in force; older ones are history.
      const effective = row.effective_from.getTime() <= now;
      const inForce = effective && !seen.has(key);
      if (effective) {
        if (seen.has(key) && !options.includeHistory) continue;
        seen.add(key);
      }
      views.push(view(row, inForce));
    }
    return views;
  }

  async set(principal: Principal, input: SetModelPrice): Promise<PriceVersionView> {
    const orgId = requireOrgId(principal.orgId);
    if (input.scope === 'platform' && !principal.platformAdmin) {
      throw new DomainException(ErrorCode.FORBIDDEN, 'scope: platform prices are set by platform admins only; use scope ORG for your organization\'s negotiated price', 'scope');
    }
    if (input.scope === 'org' && !roleAtLeast(principal.role, Role.ADMIN)) {
      throw new DomainException(ErrorCode.FORBIDDEN, `this operation needs the ${Role.ADMIN} role or higher; your credential has ${principal.role}`);
    }
    const model = typeof input.model === 'string' ? input.model.trim() : '';
    if (model.length === 0 || model.length > MAX_MODEL_LENGTH) throw DomainException.badInput('model', `a model name of 1 to ${MAX_MODEL_LENGTH} characters`, input.model);
    const prices: KindPrices = {
      uncachedInput: usdToMicros('inputUsdPerMTok', input.inputUsdPerMTok),
      cacheRead: usdToMicros('cacheReadUsdPerMTok', input.cacheReadUsdPerMTok),
      cacheWrite: usdToMicros('cacheWriteUsdPerMTok', input.cacheWriteUsdPerMTok),
      output: usdToMicros('outputUsdPerMTok', input.outputUsdPerMTok),
    };
    const now = this.clock.now();
    const effectiveFrom = input.effectiveFrom ?? now;
    if (!(effectiveFrom instanceof Date) || Number.isNaN(effectiveFrom.getTime())) throw DomainException.badInput('effectiveFrom', 'an ISO 8601 time', input.effectiveFrom);
    if (effectiveFrom.getTime() < now.getTime() - PRICE_BACKDATE_TOLERANCE_MS) {
      throw DomainException.badInput(
        'effectiveFrom',
        'now or a later time: a new price never reprices calls already recorded (recompute a campaign explicitly for that)',
        effectiveFrom.toISOString(),
      );
    }
    const note = input.note?.trim() || null;
    if (note && note.length > MAX_NOTE_LENGTH) throw DomainException.badInput('note', `at most ${MAX_NOTE_LENGTH} characters`, note);
    const id = randomUUID();
    await this.dataSource.query(
      `INSERT INTO model_prices (id, org_id, model, effective_from, input_micros_per_mtok, cache_read_micros_per_mtok, cache_write_micros_per_mtok, output_micros_per_mtok, note)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [id, input.scope === 'org' ? orgId : null, model, effectiveFrom, prices.uncachedInput, prices.cacheRead, prices.cacheWrite, prices.output, note],
    );
    this.logger.info(
      { priceId: id, scope: input.scope, orgId: input.scope === 'org' ? orgId : null, userId: principal.userId, apiKeyId: principal.apiKeyId, model, effectiveFrom, prices },
      'model price set',
    );
    const created = (await this.list(principal, { model, includeHistory: true })).find((v) => v.id === id);
    if (!created) throw new DomainException(ErrorCode.INTERNAL, `model price ${id} vanished after insert`);
    return created;
  }
}

function view(row: PriceRow, inForce: boolean): PriceVersionView {
  return {
    id: row.id,
    scope: row.org_id ? 'org' : 'platform',
    model: row.model,
    effectiveFrom: row.effective_from,
    prices: { uncachedInput: Number(row.input), cacheRead: Number(row.cache_read), cacheWrite: Number(row.cache_write), output: Number(row.output) },
    note: row.note,
    createdAt: row.created_at,
    inForce,
  };
}
