import type { Detector, DetectorContext, Evidence, Suggestion, TrajectoryEventInput } from './detector.types.js';
import { buildTrajectoryView, listNames, numberField, offset, stringField, subAgents, type AgentSpan, type TrajectoryView } from './trajectory-view.js';

/**
 * Premature termination (pattern `premature_termination`): at most one
 * suggestion. Only when the main agent ended on its own: it has an agent.end
 * whose status is not `killed` (a killed main agent did not choose to stop;
 * fan-out budget exhaustion covers that). A sub-agent counts when either:
 *
 * 1. Still running: it has no agent.end, or its agent.end is after the main
 *    agent's (any depth of sub-agent).
 * 2. Result never read (direct children of the main agent): no event of the
 *    main agent after the sub-agent's agent.end shows the main agent's model
 *    taking the result in, that is neither
 *    - a model.call that started at or after that end (start = time -
 *      durationMs: a call already running did not see the result), nor
 *    - an assistant message after it (agents such as the demo agent log
 *      their final answer as a message without its model call).
 *    Tool calls do not count: a `wait_agents` or spawn tool returning only
 *    hands the result over; the model has to read it.
 *
 * Deeper sub-agents report to their own parent, which rule 2 does not follow.
 */
export const prematureTerminationDetector: Detector = {
  name: 'premature-termination',
  pattern: 'premature_termination',
  detect: (view) => fromView(view),
};

export function detectPrematureTermination(events: readonly TrajectoryEventInput[], context: DetectorContext = { deadline: null }): Suggestion[] {
  return prematureTerminationDetector.detect(buildTrajectoryView(events), context);
}

function fromView(view: TrajectoryView): Suggestion[] {
  const main = view.mainAgentId === null ? undefined : view.byId.get(view.mainAgentId);
  if (!main || main.end === null || main.endIndex === null || main.status === 'killed') return [];
  const mainEnd = main.end;
  const running: Evidence[] = [];
  const unread: Evidence[] = [];
  for (const sub of subAgents(view)) {
    const base = { agentId: sub.agentId, eventId: sub.endEventId ?? sub.startEventId, from: sub.start, ...(sub.end === null ? {} : { to: sub.end }) };
    if (sub.end === null || sub.end > mainEnd) {
      running.push({ ...base, note: sub.end === null ? 'never ended: still running when the main agent ended' : `ended (${sub.status}) ${sub.end - mainEnd} ms after the main agent` });
    } else if (sub.parentAgentId === main.agentId && !readAfter(view, main, sub)) {
      unread.push({ ...base, note: `ended (${sub.status}) at ${offset(view, sub.end)}; the main agent made no model call and wrote no assistant message after that before ending` });
    }
  }
  if (running.length === 0 && unread.length === 0) return [];
  const parts: string[] = [];
  if (running.length > 0) parts.push(`with ${listNames(running.map((e) => e.agentId))} still running`);
  if (unread.length > 0) parts.push(`without reading the result of ${listNames(unread.map((e) => e.agentId))}`);
  const head: Evidence = { agentId: main.agentId, eventId: main.endEventId!, from: main.start, to: mainEnd, note: `the main agent ended (${main.status}) at ${offset(view, mainEnd)}` };
  return [
    {
      detector: prematureTerminationDetector.name,
      pattern: 'premature_termination',
      evidence: [head, ...running, ...unread],
      summary: `The main agent ended (${main.status}) at ${offset(view, mainEnd)} ${parts.join(' and ')}.`,
    },
  ];
}

/** Whether the main agent's model took the sub-agent's result in after it ended (rule 2 above). */
function readAfter(view: TrajectoryView, main: AgentSpan, sub: AgentSpan): boolean {
  const end = sub.end!;
  for (let i = sub.endIndex! + 1; i < view.events.length; i++) {
    const e = view.events[i];
    if (e.agentId !== main.agentId) continue;
    if (e.type === 'model.call' && e.time - (numberField(e.data, 'durationMs') ?? 0) >= end) return true;
    if (e.type === 'message' && stringField(e.data, 'role') === 'assistant') return true;
  }
  return false;
}
