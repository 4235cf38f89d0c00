import type { TrajectoryEventInput } from './detector.types.js';

/**
 * What every detector needs from a trajectory, computed once: the events in
 * time order, each agent's span, and which agent is the main one.
 *
 * Conventions (the same as metrics.md "Delegation metrics"):
 * - Events are ordered by time, then by arrival (`seq`); events without a
 *   finite time are ignored.
 * - The main agent is the first agent whose agent.start has no parent
 *   (parentAgentId null or absent); without any agent.start, the agent of the
 *   first event. Every other agent is a sub-agent, whatever its depth.
 * - An agent's span is [start, end): start = its first agent.start (its first
 *   event when it has none), end = its first agent.end, or null (open, +inf)
 *   when the trajectory never records its end. Half-open: an agent ending at
 *   the instant another starts does not overlap it.
 */
export interface AgentSpan {
  agentId: string;
  parentAgentId: string | null;
  start: number;
  /** null: no agent.end in the trajectory (still running when it stopped, or killed without a word). */
  end: number | null;
  /** agent.end status (ok, error, killed), null without an agent.end. */
  status: string | null;
  startEventId: string;
  endEventId: string | null;
  /** Position of the agent.end event in `TrajectoryView.events`, null without one. */
  endIndex: number | null;
}

export interface TrajectoryView {
  /** Ordered by (time, seq). */
  events: TrajectoryEventInput[];
  /** Ordered by start, then agent id. */
  agents: AgentSpan[];
  byId: Map<string, AgentSpan>;
  mainAgentId: string | null;
  /** Time of the first event (0 for an empty trajectory): summaries give times relative to it. */
  t0: number;
}

export function buildTrajectoryView(input: readonly TrajectoryEventInput[]): TrajectoryView {
  const events = input.filter((e) => Number.isFinite(e.time)).sort((a, b) => a.time - b.time || a.seq - b.seq);
  const byId = new Map<string, AgentSpan>();
  const started = new Set<string>();
  let mainAgentId: string | null = null;
  events.forEach((e, index) => {
    let span = byId.get(e.agentId);
    if (!span) {
      span = { agentId: e.agentId, parentAgentId: null, start: e.time, end: null, status: null, startEventId: e.eventId, endEventId: null, endIndex: null };
      byId.set(e.agentId, span);
    }
    // The agent's first event is its provisional start; its first agent.start replaces it.
    if (e.type === 'agent.start' && !started.has(e.agentId)) {
      started.add(e.agentId);
      const parent = stringField(e.data, 'parentAgentId');
      span.parentAgentId = parent;
      span.start = e.time;
      span.startEventId = e.eventId;
      if (parent === null && mainAgentId === null) mainAgentId = e.agentId;
    }
    if (e.type === 'agent.end' && span.endEventId === null) {
      span.end = e.time;
      span.status = stringField(e.data, 'status') ?? 'ok';
      span.endEventId = e.eventId;
      span.endIndex = index;
    }
  });
  if (mainAgentId === null && events.length > 0) mainAgentId = events[0].agentId;
  const agents = [...byId.values()].sort((a, b) => a.start - b.start || compare(a.agentId, b.agentId));
  return { events, agents, byId, mainAgentId, t0: events[0]?.time ?? 0 };
}

export function subAgents(view: TrajectoryView): AgentSpan[] {
  return view.agents.filter((a) => a.agentId !== view.mainAgentId);
}

/** Whether two half-open spans [start, end) share an instant (an open end is +inf). */
export function spansOverlap(a: AgentSpan, b: AgentSpan): boolean {
  return Math.max(a.start, b.start) < Math.min(a.end ?? Infinity, b.end ?? Infinity);
}

export function stringField(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' ? value : null;
}

export function numberField(data: Record<string, unknown>, key: string): number | null {
  const value = data[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function stringsField(data: Record<string, unknown>, key: string): string[] | null {
  const value = data[key];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : null;
}

/** Workspace-relative path in one spelling: forward slashes, no `./` or empty segments. */
export function normalizePath(path: string): string {
  const parts: string[] = [];
  for (const part of path.replace(/\\/g, '/').split('/')) {
    if (part === '' || part === '.') continue;
    parts.push(part);
  }
  return (path.startsWith('/') ? '/' : '') + parts.join('/');
}

/** "+1.234 s" from the first event: readable in a summary, exact times are in the evidence. */
export function offset(view: TrajectoryView, time: number): string {
  return `+${((time - view.t0) / 1000).toFixed(3)} s`;
}

/** Code-unit order, the same on every machine (localeCompare is not). */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** "a", "a and b", "a, b and c". */
export function listNames(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}
