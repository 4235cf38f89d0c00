import { APP_CONFIG, type AppConfig } from '#libs/config';
import { EngineModule, Executor, type SchedulerOptions } from '#libs/engine';
import { BillingModule } from '#libs/billing';
import { IdentityModule } from '#libs/identity';
import { MeteringModule } from '#libs/metering';
import { LOGGER } from '#libs/observability';
import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Module, type DynamicModule } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { GraphQLModule } from '@nestjs/graphql';
import { PassportModule } from '@nestjs/passport';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { AuthRateLimiter } from './auth/auth-rate-limiter.js';
import { CredentialGuard } from './auth/credential.guard.js';
import { ApiKeyStrategy, JWT_SECRET, SessionStrategy } from './auth/strategies.js';
import { ErrorFilter } from './common/error.filter.js';
import { InputValidationPipe } from './common/input-validation.pipe.js';
import { CampaignExportController } from './campaigns/campaign-export.controller.js';
import { CampaignProgressResolver, CampaignResolver, ExecutionResolver } from './campaigns/campaign.resolver.js';
import { LeaderboardResolver } from './campaigns/leaderboard.resolver.js';
import { ExecutionDetailResolver, TrajectoryEventResolver } from './campaigns/execution-detail.resolver.js';
import { ImportModule } from './campaigns/import/import.module.js';
import { AgentConfigResolver, BenchmarkResolver, SecretResolver } from './catalog/catalog.resolver.js';
import { graphqlOptions } from './graphql/graphql.options.js';
import { ApiKeyResolver } from './identity/api-key.resolver.js';
import { AuthResolver } from './identity/auth.resolver.js';
import { MemberResolver, OrganizationResolver } from './identity/organization.resolver.js';
import { HttpMetrics } from './ops/http-metrics.js';
import { RunnerController } from './runner/runner.controller.js';
import { configuredEngine } from './engine-setup.js';
import { DemoSeeder } from './demo/demo.seeder.js';
import { OpsController } from './ops/ops.controller.js';
import { ResultsResolver } from './campaigns/results.resolver.js';
import { BudgetResolver } from './campaigns/budget.resolver.js';
import { AnnotationCampaignResolver, AnnotationItemResolver, CodebookResolver } from './annotation/annotation.resolver.js';
import { AnnotationModule } from '#libs/annotation';
import { OrganizationBillingResolver } from './billing/billing.resolver.js';
import { StripeWebhookController } from './billing/stripe-webhook.controller.js';
import { ModelPriceResolver } from './metering/price.resolver.js';
import { UsageResolver } from './metering/usage.resolver.js';
import { BudgetAlertResolver } from './metering/alert.resolver.js';

/** Every resolver of the API; print-schema builds schema.gql from the same list. */
export const RESOLVERS = [
  AuthResolver,
  OrganizationResolver,
  MemberResolver,
  ApiKeyResolver,
  BenchmarkResolver,
  AgentConfigResolver,
  SecretResolver,
  CampaignResolver,
  CampaignProgressResolver,
  ExecutionResolver,
  LeaderboardResolver,
  ExecutionDetailResolver,
  TrajectoryEventResolver,
  ResultsResolver,
  BudgetResolver,
  CodebookResolver,
  AnnotationCampaignResolver,
  AnnotationItemResolver,
  OrganizationBillingResolver,
  ModelPriceResolver,
  UsageResolver,
  BudgetAlertResolver,
];

export interface AppDependencies {
  config: AppConfig;
  logger: Logger;
  /** Opened and migrated by the caller (main.ts or a test). */
  dataSource: DataSource;
  jwtSecret: string;
  /** AES-256 key sealing org secrets. */
  secretsKey: Buffer;
  /** Where runners run, and whether this process also schedules. */
  executor?: Executor;
  scheduler?: SchedulerOptions;
  metrics?: HttpMetrics;
}

function withEngineDefaults(deps: AppDependencies): { executor: Executor; scheduler: SchedulerOptions } {
  const defaults = deps.executor && deps.scheduler ? null : configuredEngine(deps.config, deps.logger, deps.dataSource);
  return { executor: deps.executor ?? defaults!.executor, scheduler: deps.scheduler ?? defaults!.scheduler };
}

@Module({})
export class AppModule {
  static register(deps: AppDependencies): DynamicModule {
    const metrics = deps.metrics ?? new HttpMetrics();
    return {
      module: AppModule,
      imports: [
        TypeOrmModule.forRootAsync({ useFactory: () => deps.dataSource.options, dataSourceFactory: async () => deps.dataSource }),
        PassportModule.register({ session: false }),
        IdentityModule.register({ jwtSecret: deps.jwtSecret }),
        EngineModule.register({ secretsKey: deps.secretsKey, ...withEngineDefaults(deps) }),
        GraphQLModule.forRoot<ApolloDriverConfig>({ driver: ApolloDriver, ...graphqlOptions(deps.config, deps.dataSource, metrics) }),
        ImportModule,
        AnnotationModule.register({ secretsKey: deps.secretsKey }),
        BillingModule.register({ stripe: deps.config.stripe, logger: deps.logger.child({ component: 'billing' }) }),
        // Alert webhooks are delivered by this process, except under tests (they call AlertDeliveryService.runOnce).
        MeteringModule.register({ logger: deps.logger.child({ component: 'metering' }), alertDelivery: { enabled: deps.config.env !== 'test' } }),
      ],
      controllers: [OpsController, RunnerController, CampaignExportController, StripeWebhookController],
      providers: [
        { provide: APP_CONFIG, useValue: deps.config },
        { provide: LOGGER, useValue: deps.logger },
        { provide: JWT_SECRET, useValue: deps.jwtSecret },
        { provide: HttpMetrics, useValue: metrics },
        { provide: APP_FILTER, useClass: ErrorFilter },
        { provide: APP_GUARD, useClass: CredentialGuard },
        { provide: APP_PIPE, useClass: InputValidationPipe },
        AuthRateLimiter,
        DemoSeeder,
        ApiKeyStrategy,
        SessionStrategy,
        ...RESOLVERS,
      ],
    };
  }
}
