import { trajectoryEventSchema, type EventBatchResult, type TrajectoryEvent } from '#libs/contracts';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { RunnerExecution } from '../runner-token.js';
import { recordModelCalls, type ModelCallInput } from '#libs/metering';

/** Fields too large for the event rows that summaries read; kept in trajectory_payloads. */
const PAYLOAD_FIELDS = { 'tool.call': 'output', message: 'text' } as const;

/**
 * Stores a batch of trajectory events: each line validated on its own (a bad
 * one is reported by index, the good ones are kept), idempotent by attempt and event id,
 * one INSERT per table per batch. Model calls are priced into the ledger in
 * the same transaction (libs/metering), moving the spend counters.
 */
@Injectable()
export class EventIngestService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async ingest(execution: RunnerExecution, lines: string[]): Promise<EventBatchResult> {
    const rejected: EventBatchResult['rejected'] = [];
    const events: TrajectoryEvent[] = [];
    const seen = new Set<string>();
    let duplicates = 0;
    lines.forEach((line, index) => {
      if (line.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        rejected.push({ index, reason: 'not valid JSON' });
        return;
      }
      const parsed = trajectoryEventSchema.safeParse(value);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        rejected.push({ index, reason: `${issue.path.join('.') || '(event)'}: ${issue.message}` });
        return;
      }
      if (seen.has(parsed.data.id)) {
        duplicates++;
        return;
      }
      seen.add(parsed.data.id);
      events.push(parsed.data);
    });
    if (events.length === 0) return { accepted: 0, duplicates, rejected };

    const ids: string[] = [];
    const types: string[] = [];
    const agents: string[] = [];
    const times: string[] = [];
    const data: string[] = [];
    const payloads: { id: string; body: string }[] = [];
    for (const event of events) {
      const { id, type, agentId, time, ...rest } = event as TrajectoryEvent & Record<string, unknown>;
      const bigField = PAYLOAD_FIELDS[type as keyof typeof PAYLOAD_FIELDS];
      if (bigField && typeof rest[bigField] === 'string') {
        payloads.push({ id, body: rest[bigField] as string });
        rest[bigField] = undefined;
        rest[`${bigField}Bytes`] = Buffer.byteLength(payloads.at(-1)!.body);
      }
      ids.push(id);
      types.push(type);
      agents.push(agentId);
      times.push(time);
      data.push(JSON.stringify(rest));
    }
    return this.dataSource.transaction(async (tx) => {
      const inserted: { event_id: string }[] = await tx.query(
        `INSERT INTO trajectory_events (execution_id, attempt, event_id, org_id, type, agent_id, time, data)
         SELECT $1, $8, e.id, $2, e.type, e.agent, e.time, e.data
           FROM unnest($3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::jsonb[]) AS e(id, type, agent, time, data)
         ON CONFLICT (execution_id, attempt, event_id) DO NOTHING RETURNING event_id`,
        [execution.id, execution.orgId, ids, types, agents, times, data, execution.attempt],
      );
      if (payloads.length) {
        await tx.query(
          `INSERT INTO trajectory_payloads (execution_id, attempt, event_id, org_id, body)
           SELECT $1, $5, p.id, $2, p.body FROM unnest($3::text[], $4::text[]) AS p(id, body)
           ON CONFLICT (execution_id, attempt, event_id) DO NOTHING`,
          [execution.id, execution.orgId, payloads.map((p) => p.id), payloads.map((p) => p.body), execution.attempt],
        );
      }
      // Spend is recorded with the events, in their transaction: a call counts once, however often it is delivered.
      const fresh = new Set(inserted.map((r) => r.event_id));
      const calls: ModelCallInput[] = [];
      for (const event of events) {
        if (event.type !== 'model.call' || !fresh.has(event.id)) continue;
        calls.push({ eventId: event.id, agentId: event.agentId, provider: event.provider, model: event.model, time: event.time, usage: event.usage });
      }
      await recordModelCalls(tx, execution, calls);
      return { accepted: inserted.length, duplicates: duplicates + events.length - inserted.length, rejected };
    });
  }
}
