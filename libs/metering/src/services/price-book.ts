import type { KindPrices } from '#libs/metrics';
import type { DataSource, EntityManager } from 'typeorm';

interface PriceRow {
  id: string;
  org_id: string | null;
  model: string;
  effective_from: Date;
  created_at: Date;
  input: string;
  cache_read: string;
  cache_write: string;
  output: string;
}

export interface PriceInForce {
  priceId: string;
  prices: KindPrices;
}

/**
 * The prices one org pays for some models: its own negotiated versions
 * first, the platform defaults otherwise. A call is priced with the version
 * in force at its time (the latest effective at or before it), so a new
 * price never reaches back to earlier calls.
 */
export class PriceBook {
  private readonly versions = new Map<string, { org: PriceRow[]; platform: PriceRow[] }>();

  constructor(rows: readonly PriceRow[]) {
    for (const row of rows) {
      const entry = this.versions.get(row.model) ?? { org: [], platform: [] };
      (row.org_id ? entry.org : entry.platform).push(row);
      this.versions.set(row.model, entry);
    }
    // Newest first: the first version effective at or before a time is the one in force (two versions
    // effective at the same instant: the one set later wins, as recomputeCampaignCosts decides too).
    const newestFirst = (a: PriceRow, b: PriceRow) => b.effective_from.getTime() - a.effective_from.getTime() || b.created_at.getTime() - a.created_at.getTime();
    for (const entry of this.versions.values()) {
      entry.org.sort(newestFirst);
      entry.platform.sort(newestFirst);
    }
  }

  /** The price in force for `model` at epoch ms `time`, or null: the call is then recorded as unpriced, never priced at 0. */
  at(model: string, time: number): PriceInForce | null {
    const entry = this.versions.get(model);
    if (!entry) return null;
    const row = entry.org.find((r) => r.effective_from.getTime() <= time) ?? entry.platform.find((r) => r.effective_from.getTime() <= time);
    if (!row) return null;
    return {
      priceId: row.id,
      prices: { uncachedInput: Number(row.input), cacheRead: Number(row.cache_read), cacheWrite: Number(row.cache_write), output: Number(row.output) },
    };
  }
}

/** Every version of the models' prices that applies to the org (its overrides and the platform defaults), in one query. */
export async function loadPriceBook(db: DataSource | EntityManager, orgId: string, models: readonly string[]): Promise<PriceBook> {
  if (models.length === 0) return new PriceBook([]);
  const rows: PriceRow[] = await db.query(
    `SELECT id, org_id, model, effective_from, created_at, input_micros_per_mtok AS input, cache_read_micros_per_mtok AS cache_read,
            cache_write_micros_per_mtok AS cache_write, output_micros_per_mtok AS output
       FROM model_prices WHERE model = ANY($1::text[]) AND (org_id = $2 OR org_id IS NULL)`,
    [[...new Set(models)], orgId],
  );
  return new PriceBook(rows);
}
