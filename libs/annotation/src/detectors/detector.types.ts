import type { TrajectoryView } from './trajectory-view.js';

/**
 * Assisted pre-annotation (issue 8, item 6): detectors read one stored
 * trajectory and suggest failure patterns with the events that support them.
 * Pure functions of their arguments, like libs/metrics: no I/O, no clock, no
 * Nest or TypeORM. A service loads the trajectory rows and calls them.
 */

/** One trajectory event as stored (trajectory_events): the protocol's fields besides id/time/agentId/type live in `data`. */
export interface TrajectoryEventInput {
  /** Arrival order; breaks ties between events with the same time. */
  seq: number;
  eventId: string;
  type: string;
  agentId: string;
  /** Epoch milliseconds. */
  time: number;
  /** e.g. agent.start: parentAgentId; agent.end: status; file.write: path, bytes, sha256; tool.call: kind, command, filesTouched, durationMs; model.call: durationMs; message: role, text (when loaded). */
  data: Record<string, unknown>;
}

export interface DetectorContext {
  /** Epoch ms when the time budget ran out (execution start + budget), or null when unknown. */
  deadline: number | null;
}

/** Pattern keys of the starter codebook (starter-codebook.ts) that detectors can suggest. */
export const DETECTED_PATTERNS = ['concurrent_writes', 'fanout_budget_exhaustion', 'premature_termination'] as const;
export type DetectedPattern = (typeof DETECTED_PATTERNS)[number];

export interface Evidence {
  agentId: string;
  /** The event that shows it, when one does. */
  eventId?: string;
  /** Epoch ms: the time range the note is about. */
  from?: number;
  to?: number;
  note: string;
}

export interface Suggestion {
  /** Name of the detector that made it (the same detector may suggest one pattern several times, e.g. once per file). */
  detector: string;
  pattern: DetectedPattern;
  evidence: Evidence[];
  summary: string;
}

/** A detector works on the trajectory view that detectAll builds once for all of them. */
export interface Detector {
  name: string;
  pattern: DetectedPattern;
  detect(view: TrajectoryView, context: DetectorContext): Suggestion[];
}
