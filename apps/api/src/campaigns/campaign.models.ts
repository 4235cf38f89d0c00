import { EXECUTION_STATUSES } from '#libs/campaigns';
import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { IsArray, IsEnum, IsOptional, IsString, MaxLength } from 'class-validator';
import { Difficulty } from '../catalog/catalog.models.js';
import { Connection } from '../graphql/connection.js';

export enum CampaignStatus {
  CREATED = 'created',
  RUNNING = 'running',
  PAUSED = 'paused',
  CANCELLED = 'cancelled',
  COMPLETED = 'completed',
}
registerEnumType(CampaignStatus, { name: 'CampaignStatus' });

export enum ExecutionStatus {
  QUEUED = 'queued',
  DISPATCHING = 'dispatching',
  RUNNING = 'running',
  COMPLETED = 'completed',
  INFRA_FAILED = 'infra_failed',
  CANCELLED = 'cancelled',
  CANCELLED_BUDGET = 'cancelled_budget',
}
registerEnumType(ExecutionStatus, { name: 'ExecutionStatus' });
if (Object.values(ExecutionStatus).join() !== EXECUTION_STATUSES.join()) throw new Error('ExecutionStatus enum is out of step with the entity');

@ObjectType({ description: 'One difficulty group of a benchmark sample: the study\'s Table 1 row.' })
export class SampleStratum {
  @Field(() => Difficulty)
  difficulty: Difficulty;

  @Field(() => Int, { description: 'Tasks in the group (N_g).' })
  available: number;

  @Field(() => Int, { description: 'Tasks sampled (n_g = round_half_up(f x N_g), or the explicit list).' })
  sampled: number;
}

@ObjectType()
export class BenchmarkSample {
  @Field()
  key: string;

  @Field(() => ID)
  benchmarkVersionId: string;

  @Field()
  version: string;

  @Field(() => String, { nullable: true })
  suite: string | null;

  @Field(() => Float, { nullable: true, description: 'Null for an explicit task list.' })
  fraction: number | null;

  @Field(() => [SampleStratum])
  strata: SampleStratum[];

  @Field(() => Int)
  sampledTasks: number;
}

@ObjectType()
export class PinnedAgent {
  @Field()
  name: string;

  @Field(() => ID)
  agentConfigVersionId: string;

  @Field(() => Int)
  version: number;

  @Field()
  model: string;
}

@ObjectType()
export class EstimateBasis {
  @Field()
  model: string;

  @Field()
  benchmark: string;

  @Field(() => Int)
  executions: number;

  @Field({ description: 'history (completed executions), hint (task token hints x price) or none.' })
  source: string;

  @Field()
  detail: string;
}

@ObjectType({ description: 'Dollars; null where nothing could be estimated (see basis).' })
export class CostEstimate {
  @Field(() => Float, { nullable: true })
  lowUsd: number | null;

  @Field(() => Float, { nullable: true })
  expectedUsd: number | null;

  @Field(() => Float, { nullable: true })
  highUsd: number | null;

  @Field(() => [EstimateBasis])
  basis: EstimateBasis[];
}

@ObjectType()
export class CampaignPlan {
  @Field(() => [PinnedAgent])
  agents: PinnedAgent[];

  @Field(() => [String])
  modes: string[];

  @Field(() => [BenchmarkSample])
  benchmarks: BenchmarkSample[];

  @Field(() => Int)
  repetitions: number;

  @Field(() => Float)
  seed: number;

  @Field(() => Int)
  executionCount: number;

  @Field(() => CostEstimate)
  estimate: CostEstimate;
}

@ObjectType()
export class PlanCampaignResult extends CampaignPlan {
  @Field(() => Float)
  budgetUsd: number;

  @Field(() => Boolean, { nullable: true, description: 'Whether the estimate\'s low end fits the cap (launch is refused when it does not); null without an estimate.' })
  withinBudget: boolean | null;
}

@ObjectType()
export class CampaignProgress {
  @Field(() => Int) queued: number;
  @Field(() => Int) dispatching: number;
  @Field(() => Int) running: number;
  @Field(() => Int) completed: number;
  @Field(() => Int, { name: 'infraFailed' }) infra_failed: number;
  @Field(() => Int) cancelled: number;
  @Field(() => Int) total: number;
  @Field(() => Int, { description: 'Executions resolved so far.' }) resolved: number;
  costMicros: number;
}

@ObjectType()
export class Campaign {
  @Field(() => ID)
  id: string;

  @Field()
  name: string;

  @Field(() => String, { nullable: true })
  description: string | null;

  @Field(() => CampaignStatus)
  status: CampaignStatus;

  @Field()
  visibility: string;

  @Field(() => Int)
  repetitions: number;

  @Field(() => Int)
  maxConcurrency: number;

  @Field(() => Int)
  executionCount: number;

  @Field(() => GraphQLISODateTime)
  createdAt: Date;

  @Field(() => GraphQLISODateTime, { nullable: true })
  launchedAt: Date | null;

  @Field(() => String, { nullable: true, description: 'Why a paused campaign is paused: user, budget (its cap) or org_budget (the org\'s monthly cap).' })
  pauseReason: string | null;

  budgetMicros: number;
  spentMicros: number;
  reservedMicros: number;
  plan: CampaignPlan & { benchmarks: (BenchmarkSample & { selection: { fraction?: number } })[] };
}

@ObjectType()
export class ExecutionTokens {
  @Field(() => Float, { nullable: true }) input: number | null;
  @Field(() => Float, { nullable: true }) cacheRead: number | null;
  @Field(() => Float, { nullable: true }) cacheWrite: number | null;
  @Field(() => Float, { nullable: true }) output: number | null;
  @Field(() => Float, { nullable: true }) reasoning: number | null;
}

@ObjectType()
export class Execution {
  @Field(() => ID) id: string;
  @Field(() => ID) campaignId: string;
  @Field({ description: 'Agent config name.' }) agentName: string;
  @Field(() => ID) agentConfigVersionId: string;
  @Field() model: string;
  @Field() mode: string;
  @Field({ name: 'benchmark' }) benchmarkKey: string;
  @Field({ name: 'suite' }) suiteKey: string;
  @Field({ name: 'task' }) taskKey: string;
  @Field(() => Difficulty) difficulty: Difficulty;
  @Field(() => Int) repetition: number;
  @Field(() => ExecutionStatus) status: ExecutionStatus;
  @Field({ description: 'run (by Fanout) or import.' }) source: string;
  @Field(() => Int) attempt: number;
  @Field(() => String, { nullable: true }) outcome: string | null;
  @Field(() => Int, { nullable: true }) testsPassed: number | null;
  @Field(() => Int, { nullable: true }) testsTotal: number | null;
  @Field(() => Boolean, { nullable: true }) resolved: boolean | null;
  @Field(() => Float, { nullable: true }) wallSeconds: number | null;
  @Field(() => Int, { nullable: true }) shellCalls: number | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) startedAt: Date | null;
  @Field(() => GraphQLISODateTime, { nullable: true }) finishedAt: Date | null;
  @Field(() => GraphQLISODateTime) createdAt: Date;
  costMicros: number | null;
  inputTokens: number | null;
  cacheReadTokens: number | null;
  cacheWriteTokens: number | null;
  outputTokens: number | null;
  reasoningTokens: number | null;
}

@InputType()
export class ExecutionFilterInput {
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  campaignId?: string;

  @Field(() => [ExecutionStatus], { nullable: true })
  @IsOptional()
  @IsArray()
  @IsEnum(ExecutionStatus, { each: true })
  status?: ExecutionStatus[];

  @Field({ nullable: true, description: 'Agent config name.' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  agent?: string;

  @Field({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  mode?: string;

  @Field({ nullable: true, description: 'Benchmark id (key).' })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  benchmark?: string;

  @Field(() => Difficulty, { nullable: true })
  @IsOptional()
  @IsEnum(Difficulty)
  difficulty?: Difficulty;
}

@ObjectType()
export class CampaignConnection extends Connection(Campaign) {}

@ObjectType()
export class ExecutionConnection extends Connection(Execution) {}
