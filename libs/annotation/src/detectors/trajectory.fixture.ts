import type { TrajectoryEventInput } from './detector.types.js';

/**
 * Hand-built trajectories for the detector specs: events get ids
 * `<agentId>:<n>` and arrival order `seq` in call order, like the demo
 * agent's. Times are plain milliseconds.
 */
export class Trajectory {
  readonly events: TrajectoryEventInput[] = [];
  private readonly counters = new Map<string, number>();

  private add(agentId: string, time: number, type: string, data: Record<string, unknown>): this {
    const n = (this.counters.get(agentId) ?? 0) + 1;
    this.counters.set(agentId, n);
    this.events.push({ seq: this.events.length + 1, eventId: `${agentId}:${n}`, type, agentId, time, data });
    return this;
  }

  start(agentId: string, time: number, parentAgentId: string | null = agentId === 'main' ? null : 'main'): this {
    return this.add(agentId, time, 'agent.start', { parentAgentId, spawnedByToolCallId: null, name: agentId });
  }

  end(agentId: string, time: number, status: 'ok' | 'error' | 'killed' = 'ok'): this {
    return this.add(agentId, time, 'agent.end', { status });
  }

  write(agentId: string, time: number, path: string, sha256?: string): this {
    return this.add(agentId, time, 'file.write', { path, bytes: 10, ...(sha256 ? { sha256 } : {}) });
  }

  read(agentId: string, time: number, ...paths: string[]): this {
    return this.add(agentId, time, 'tool.call', { toolCallId: `${agentId}:call`, kind: 'read', command: `read ${paths.join(' ')}`, exitCode: 0, durationMs: 0, filesTouched: paths });
  }

  tool(agentId: string, time: number, kind: string, extra: Record<string, unknown> = {}): this {
    return this.add(agentId, time, 'tool.call', { toolCallId: `${agentId}:call`, kind, exitCode: 0, durationMs: 0, ...extra });
  }

  /** A model call whose event is logged at `time`, after running `durationMs`. */
  model(agentId: string, time: number, durationMs = 0): this {
    return this.add(agentId, time, 'model.call', { provider: 'test', model: 'test', usage: { style: 'openai', inputTokens: 1, outputTokens: 1 }, durationMs });
  }

  message(agentId: string, time: number, role: 'user' | 'assistant' = 'assistant'): this {
    return this.add(agentId, time, 'message', { role });
  }
}

export const trajectory = () => new Trajectory();
