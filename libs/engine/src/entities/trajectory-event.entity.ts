import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One trajectory event, append-only, unique by (execution, attempt, event id)
 * so a re-sent batch stores nothing twice, while a retried attempt's events
 * (agents number theirs from 1 again) are never mistaken for the last one's. Small fields only: large text lives in
 * trajectory_payloads, apart from the rows that summaries read.
 */
@Entity('trajectory_events')
@Index('trajectory_events_order_idx', ['executionId', 'seq'])
export class TrajectoryEventEntity {
  @PrimaryColumn('uuid', { name: 'execution_id' })
  executionId: string;

  @PrimaryColumn('integer', { default: 1 })
  attempt: number;

  @PrimaryColumn('text', { name: 'event_id' })
  eventId: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  /** Arrival order. */
  @Column('bigint', { generated: 'increment' })
  seq: string;

  @Column('text')
  type: string;

  @Column('text', { name: 'agent_id' })
  agentId: string;

  @Column('timestamptz')
  time: Date;

  @Column('jsonb')
  data: Record<string, unknown>;
}

@Entity('trajectory_payloads')
export class TrajectoryPayloadEntity {
  @PrimaryColumn('uuid', { name: 'execution_id' })
  executionId: string;

  @PrimaryColumn('integer', { default: 1 })
  attempt: number;

  @PrimaryColumn('text', { name: 'event_id' })
  eventId: string;

  @Column('uuid', { name: 'org_id' })
  orgId: string;

  @Column('text')
  body: string;
}
