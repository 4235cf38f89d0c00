import type { TrajectoryEvent } from '#libs/contracts';
import { closeSync, openSync, writeSync } from 'node:fs';

type Payload<T> = T extends unknown ? Omit<T, 'id' | 'time' | 'agentId'> : never;
export type EventPayload = Payload<TrajectoryEvent>;

/**
 * Appends trajectory events as JSON lines to FANOUT_EVENTS_FILE (stdout when
 * unset). Every process (main agent, sub-agents) opens the file for
 * appending and writes each line with a single write call, so lines from
 * different processes never interleave. Ids are `<agentId>:<seq>`, unique in
 * the execution because agent ids are.
 */
export class EventLog {
  private seq = 0;
  private readonly fd: number;
  private readonly owned: boolean;

  constructor(
    readonly agentId: string,
    file: string | undefined,
  ) {
    this.owned = Boolean(file);
    this.fd = file ? openSync(file, 'a') : 1;
  }

  emit(payload: EventPayload): TrajectoryEvent {
    this.seq += 1;
    const event = { id: `${this.agentId}:${this.seq}`, time: new Date().toISOString(), agentId: this.agentId, ...payload } as TrajectoryEvent;
    writeSync(this.fd, `${JSON.stringify(event)}\n`);
    return event;
  }

  /** A fresh tool call id for this agent. */
  callId(): string {
    return `${this.agentId}:call-${this.seq + 1}`;
  }

  close(): void {
    if (this.owned) closeSync(this.fd);
  }
}
