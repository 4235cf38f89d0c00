import { concurrentWritesDetector } from './concurrent-writes.detector.js';
import type { Detector, DetectorContext, Suggestion, TrajectoryEventInput } from './detector.types.js';
import { fanoutBudgetExhaustionDetector } from './fanout-budget-exhaustion.detector.js';
import { prematureTerminationDetector } from './premature-termination.detector.js';
import { buildTrajectoryView } from './trajectory-view.js';

/** Every detector, in the order their suggestions come out. */
export const DETECTORS: readonly Detector[] = [concurrentWritesDetector, fanoutBudgetExhaustionDetector, prematureTerminationDetector];

/**
 * Runs every detector on one trajectory. Deterministic: the same events (in
 * any order) and context give the same suggestions in the same order:
 * detectors in DETECTORS order, each in its own documented order.
 */
export function detectAll(events: readonly TrajectoryEventInput[], context: DetectorContext): Suggestion[] {
  const view = buildTrajectoryView(events);
  return DETECTORS.flatMap((detector) => detector.detect(view, context));
}
