import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import { detectAll, type TrajectoryEventInput } from '../detectors/index.js';

/**
 * Runs the detectors on each item's execution (its last attempt's events,
 * with the deadline its time budget set) and stores what they suggest.
 * Suggestions are shown as suggestions: nothing is pre-selected.
 */
export async function suggestForItems(tx: EntityManager, orgId: string, items: readonly { id: string; executionId: string }[]): Promise<number> {
  let stored = 0;
  for (const item of items) {
    const [execution] = await tx.query(
      `SELECT e.attempt, e.started_at, t.time_budget_minutes FROM executions e JOIN tasks t ON t.id = e.task_id WHERE e.id = $1`,
      [item.executionId],
    );
    if (!execution) continue;
    const rows: { seq: string; event_id: string; type: string; agent_id: string; time: Date; data: Record<string, unknown> }[] = await tx.query(
      `SELECT seq, event_id, type, agent_id, time, data FROM trajectory_events WHERE execution_id = $1 AND attempt = $2 ORDER BY seq`,
      [item.executionId, Math.max(1, execution.attempt)],
    );
    if (rows.length === 0) continue;
    const events: TrajectoryEventInput[] = rows.map((r) => ({ seq: Number(r.seq), eventId: r.event_id, type: r.type, agentId: r.agent_id, time: r.time.getTime(), data: r.data }));
    const start = execution.started_at ? (execution.started_at as Date).getTime() : Math.min(...events.map((e) => e.time));
    const deadline = execution.time_budget_minutes == null ? null : start + Number(execution.time_budget_minutes) * 60_000;
    const suggestions = detectAll(events, { deadline });
    if (suggestions.length === 0) continue;
    await tx.query(
      `INSERT INTO annotation_suggestions (id, org_id, item_id, detector, pattern, summary, evidence)
       SELECT s.id, $1, $2, s.detector, s.pattern, s.summary, s.evidence FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::jsonb[]) AS s(id, detector, pattern, summary, evidence)`,
      [
        orgId,
        item.id,
        suggestions.map(() => randomUUID()),
        suggestions.map((s) => s.detector),
        suggestions.map((s) => s.pattern),
        suggestions.map((s) => s.summary),
        suggestions.map((s) => JSON.stringify(s.evidence)),
      ],
    );
    stored += suggestions.length;
  }
  return stored;
}
