import { CampaignsModule } from '#libs/campaigns';
import { Module, type DynamicModule } from '@nestjs/common';
import { Executor } from './executors/executor.js';
import { EventIngestService } from './ingest/event-ingest.service.js';
import { GradeService } from './ingest/grade.service.js';
import { RunnerSessionService } from './ingest/runner-session.service.js';
import { SCHEDULER_OPTIONS, SchedulerService, type SchedulerOptions } from './scheduler/scheduler.service.js';

/** The execution engine: runner protocol services, and the scheduler with its executor. */
@Module({})
export class EngineModule {
  static register(options: { secretsKey: Buffer; executor: Executor; scheduler: SchedulerOptions }): DynamicModule {
    const campaigns = CampaignsModule.register({ secretsKey: options.secretsKey });
    return {
      module: EngineModule,
      imports: [campaigns],
      providers: [
        { provide: Executor, useValue: options.executor },
        { provide: SCHEDULER_OPTIONS, useValue: options.scheduler },
        EventIngestService,
        GradeService,
        RunnerSessionService,
        SchedulerService,
      ],
      exports: [EventIngestService, GradeService, RunnerSessionService, SchedulerService, Executor, campaigns],
    };
  }
}
