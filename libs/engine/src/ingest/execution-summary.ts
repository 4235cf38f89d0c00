import type { ModelUsage } from '#libs/contracts';
import { delegationMetrics, normaliseUsage, sumUsage, type AgentSpan, type DisjointUsage } from '#libs/metrics';

export interface EventRow {
  type: string;
  agent_id: string;
  time: Date;
  data: Record<string, unknown>;
}

export interface ExecutionSummary {
  shellCalls: number;
  toolCalls: number;
  modelCalls: number;
  fileWrites: number;
  usage: DisjointUsage;
  agents: { id: string; parentId: string | null; start: string; end: string }[];
  delegation: ReturnType<typeof delegationMetrics>;
}

/**
 * The per-execution figures views read (metrics.md): shell calls of all
 * agents, usage summed over leaf model calls (normalised to disjoint kinds),
 * agent spans and their
 * delegation metrics. An agent without an end event (killed at the deadline)
 * ends at its last event.
 */
export function summarise(events: readonly EventRow[]): ExecutionSummary {
  const spans = new Map<string, { parentId: string | null; start: number; end: number | null; last: number }>();
  const usages: DisjointUsage[] = [];
  let shellCalls = 0;
  let toolCalls = 0;
  let fileWrites = 0;
  for (const event of events) {
    const t = event.time.getTime();
    const span = spans.get(event.agent_id);
    if (span) span.last = Math.max(span.last, t);
    switch (event.type) {
      case 'agent.start':
        spans.set(event.agent_id, { parentId: (event.data.parentAgentId as string | null) ?? null, start: t, end: null, last: t });
        break;
      case 'agent.end':
        if (span) span.end = t;
        break;
      case 'tool.call':
        toolCalls++;
        if (event.data.kind === 'shell') shellCalls++;
        break;
      case 'file.write':
        fileWrites++;
        break;
      case 'model.call':
        usages.push(normaliseUsage(event.data.usage as ModelUsage));
        break;
    }
  }
  const agents: AgentSpan[] = [...spans.entries()].map(([id, s]) => ({ id, parentId: s.parentId, start: s.start, end: s.end ?? s.last }));
  return {
    shellCalls,
    toolCalls,
    modelCalls: usages.length,
    fileWrites,
    usage: sumUsage(usages),
    agents: agents.map((a) => ({ id: a.id, parentId: a.parentId, start: new Date(a.start).toISOString(), end: new Date(a.end).toISOString() })),
    delegation: delegationMetrics(agents),
  };
}
