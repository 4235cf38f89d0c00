import type { Detector, DetectorContext, Evidence, Suggestion, TrajectoryEventInput } from './detector.types.js';
import { buildTrajectoryView, listNames, offset, subAgents, type TrajectoryView } from './trajectory-view.js';

/**
 * Fan-out budget exhaustion (pattern `fanout_budget_exhaustion`): at most one
 * suggestion, only when the deadline is known. A sub-agent counts when any of:
 *
 * - it has no agent.end: the trajectory never saw it stop (the runner kills
 *   the whole process group at the deadline, often before anyone can log);
 * - its agent.end comes after the deadline (end > deadline: with [start, end)
 *   spans, one ending exactly at the deadline was not running at it);
 * - its agent.end has status `killed`, at any time: it was stopped, not
 *   finished (the runner's SIGTERM lands a few ms either side of the
 *   deadline, and a main agent that sees the budget running out kills its
 *   sub-agents itself).
 *
 * The main agent never counts: this pattern is about the fan-out.
 */
export const fanoutBudgetExhaustionDetector: Detector = {
  name: 'fanout-budget-exhaustion',
  pattern: 'fanout_budget_exhaustion',
  detect: (view, context) => fromView(view, context),
};

export function detectFanoutBudgetExhaustion(events: readonly TrajectoryEventInput[], context: DetectorContext): Suggestion[] {
  return fanoutBudgetExhaustionDetector.detect(buildTrajectoryView(events), context);
}

function fromView(view: TrajectoryView, context: DetectorContext): Suggestion[] {
  const deadline = context.deadline;
  if (deadline === null || !Number.isFinite(deadline)) return [];
  const subs = subAgents(view);
  const evidence: Evidence[] = [];
  for (const agent of subs) {
    let note: string;
    if (agent.end === null) note = `never ended: no agent.end after its start at ${offset(view, agent.start)}, still running when the trajectory stops`;
    else if (agent.end > deadline) note = `ended (${agent.status}) ${ms(agent.end - deadline)} after the deadline`;
    else if (agent.status === 'killed') note = `killed ${agent.end === deadline ? 'at the deadline' : `${ms(deadline - agent.end)} before the deadline`}`;
    else continue;
    evidence.push({ agentId: agent.agentId, eventId: agent.endEventId ?? agent.startEventId, from: agent.start, ...(agent.end === null ? {} : { to: agent.end }), note });
  }
  if (evidence.length === 0) return [];
  const names = evidence.map((e) => e.agentId);
  const summary = `${names.length} of ${subs.length} sub-agent${subs.length === 1 ? '' : 's'} (${listNames(names)}) still running or killed at the deadline (${offset(view, deadline)}).`;
  return [{ detector: fanoutBudgetExhaustionDetector.name, pattern: 'fanout_budget_exhaustion', evidence, summary }];
}

const ms = (value: number) => `${Math.round(value)} ms`;
