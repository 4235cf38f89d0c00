export * from './detector.types.js';
export { buildTrajectoryView, type AgentSpan, type TrajectoryView } from './trajectory-view.js';
export { concurrentWritesDetector, detectConcurrentWrites } from './concurrent-writes.detector.js';
export { fanoutBudgetExhaustionDetector, detectFanoutBudgetExhaustion } from './fanout-budget-exhaustion.detector.js';
export { prematureTerminationDetector, detectPrematureTermination } from './premature-termination.detector.js';
export { DETECTORS, detectAll } from './detect-all.js';
