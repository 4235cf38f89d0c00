import { TrajectoryEventEntity, TrajectoryPayloadEntity } from './entities/trajectory-event.entity.js';

export { TrajectoryEventEntity, TrajectoryPayloadEntity };
export const engineEntities = [TrajectoryEventEntity, TrajectoryPayloadEntity];
export * from './engine.module.js';
export * from './executors/executor.js';
export * from './executors/local-process.executor.js';
export * from './executors/kubernetes/index.js';
export * from './ingest/event-ingest.service.js';
export * from './ingest/execution-detail.js';
export * from './ingest/execution-summary.js';
export * from './ingest/grade.service.js';
export * from './ingest/runner-session.service.js';
export * from './runner-token.js';
export * from './scheduler/dispatcher.js';
export * from './scheduler/scheduler.service.js';
