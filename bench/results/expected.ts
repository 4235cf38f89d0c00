// What the views must answer, computed from the generated records (not from
// the API): each leaderboard row's n, resolved and infrastructure failures
// and the campaigns it aggregates; each agent's McNemar b and c in the study
// campaign. A view that is fast but wrong, or stale after a change, fails.
import type { ExecutionRecord } from './dataset.js';

interface BoardRow {
  n: number;
  resolved: number;
  infraFailed: number;
  campaigns: Set<string>;
}

export interface LeaderboardData {
  leaderboard: {
    benchmark: string;
    version: string;
    rows: { agent: string; agentConfigVersionId: string; mode: string; n: number; resolved: number; infraFailed: number; campaigns: { id: string }[] }[];
  };
}

export interface McNemarFigures {
  subject: string;
  pairs: number;
  b: number;
  c: number;
}

export class ExpectedBoard {
  private readonly rows = new Map<string, BoardRow>();
  readonly privateCampaigns = new Set<string>();
  publicExecutions = 0;

  add(campaignId: string, agentConfigVersionId: string, record: Pick<ExecutionRecord, 'mode' | 'resolved' | 'outcome'>, sign = 1): void {
    const key = `${agentConfigVersionId}/${record.mode}`;
    let row = this.rows.get(key);
    if (!row) this.rows.set(key, (row = { n: 0, resolved: 0, infraFailed: 0, campaigns: new Set() }));
    row.n += sign;
    row.resolved += record.resolved ? sign : 0;
    row.infraFailed += record.outcome === 'infra_failed' ? sign : 0;
    row.campaigns.add(campaignId);
    this.publicExecutions += sign;
  }

  get rowCount(): number {
    return this.rows.size;
  }

  /** Null when the board is exactly as generated; else the first difference. */
  check(data: LeaderboardData): string | null {
    const board = data.leaderboard;
    if (board.rows.length !== this.rows.size) return `leaderboard: ${board.rows.length} rows, expected ${this.rows.size}`;
    for (const row of board.rows) {
      const want = this.rows.get(`${row.agentConfigVersionId}/${row.mode}`);
      if (!want) return `leaderboard: unexpected row ${row.agent} ${row.mode} (${row.agentConfigVersionId})`;
      if (row.n !== want.n || row.resolved !== want.resolved || row.infraFailed !== want.infraFailed) {
        return `leaderboard row ${row.agent} ${row.mode}: n ${row.n}, resolved ${row.resolved}, infra ${row.infraFailed}; expected ${want.n}, ${want.resolved}, ${want.infraFailed}`;
      }
      const ids = row.campaigns.map((c) => c.id);
      const leaked = ids.find((id) => this.privateCampaigns.has(id));
      if (leaked) return `leaderboard row ${row.agent} ${row.mode} lists private campaign ${leaked}`;
      if (ids.length !== want.campaigns.size || ids.some((id) => !want.campaigns.has(id))) {
        return `leaderboard row ${row.agent} ${row.mode}: ${ids.length} campaigns listed, expected ${want.campaigns.size}`;
      }
    }
    return null;
  }
}

/** McNemar b (only mode A resolved) and c (only mode B resolved) per agent, over the study's pairs. */
export function expectedMcNemar(records: ExecutionRecord[], modeA: string, modeB: string): McNemarFigures[] {
  const sides = new Map<string, { a?: boolean; b?: boolean }>();
  for (const r of records) {
    if (r.mode !== modeA && r.mode !== modeB) continue;
    const key = `${r.agent}\u0000${r.suite}\u0000${r.task}\u0000${r.repetition}`;
    const side = sides.get(key) ?? sides.set(key, {}).get(key)!;
    if (r.mode === modeA) side.a = r.resolved;
    else side.b = r.resolved;
  }
  const byAgent = new Map<string, McNemarFigures>();
  for (const [key, side] of sides) {
    if (side.a === undefined || side.b === undefined) continue;
    const subject = key.split('\u0000')[0]!;
    const row = byAgent.get(subject) ?? byAgent.set(subject, { subject, pairs: 0, b: 0, c: 0 }).get(subject)!;
    row.pairs++;
    if (side.a && !side.b) row.b++;
    if (!side.a && side.b) row.c++;
  }
  return [...byAgent.values()].sort((x, y) => x.subject.localeCompare(y.subject));
}

/** Null when the answer's per-agent McNemar figures are the expected ones. */
export function checkMcNemar(actual: McNemarFigures[], expected: McNemarFigures[]): string | null {
  if (actual.length !== expected.length) return `comparison: ${actual.length} McNemar tests, expected ${expected.length} (one per agent)`;
  for (const want of expected) {
    const got = actual.find((t) => t.subject === want.subject);
    if (!got) return `comparison: no McNemar test for ${want.subject}`;
    if (got.pairs !== want.pairs || got.b !== want.b || got.c !== want.c) {
      return `comparison ${want.subject}: pairs ${got.pairs}, b ${got.b}, c ${got.c}; expected ${want.pairs}, ${want.b}, ${want.c}`;
    }
  }
  return null;
}
