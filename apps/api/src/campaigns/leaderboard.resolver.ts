import { ResultsViewService, type LeaderboardRow as Row } from '#libs/campaigns';
import { Args, Field, Float, ID, Int, ObjectType, Query, Resolver, registerEnumType } from '@nestjs/graphql';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Public } from '../auth/auth.decorators.js';
import { Difficulty } from '../catalog/catalog.models.js';

export enum LeaderboardSort {
  TASK_PASS = 'taskPass',
  TEST_PASS = 'testPass',
  COST = 'cost',
}
registerEnumType(LeaderboardSort, { name: 'LeaderboardSort' });

@ObjectType()
export class CampaignRef {
  @Field(() => ID) id: string;
  @Field() name: string;
}

@ObjectType({ description: 'One agent config version x mode on a public benchmark version. Figures from libs/metrics (docs/metrics.md).' })
export class LeaderboardRow {
  @Field() agent: string;
  @Field(() => Int) agentVersion: number;
  @Field(() => ID) agentConfigVersionId: string;
  @Field() model: string;
  @Field() mode: string;
  @Field(() => Int, { description: 'Executions with a result (infrastructure failures included, as 0).' }) n: number;
  @Field(() => Int) resolved: number;
  @Field(() => Float, { nullable: true }) taskPass: number | null;
  @Field(() => Float, { nullable: true, description: '95% Wilson interval of task pass.' }) taskPassLow: number | null;
  @Field(() => Float, { nullable: true }) taskPassHigh: number | null;
  @Field(() => Float, { nullable: true }) testPass: number | null;
  @Field(() => Float, { nullable: true }) meanMinutes: number | null;
  @Field(() => Float, { nullable: true }) meanTokensMillions: number | null;
  @Field(() => Float, { nullable: true }) meanCostUsd: number | null;
  @Field(() => Float) totalCostUsd: number;
  @Field(() => Float, { nullable: true, description: 'Total cost / resolved; null when none resolved.' }) costPerResolvedUsd: number | null;
  @Field(() => Int) infraFailed: number;
  @Field({ description: 'No other row is at least as cheap (mean cost) and at least as good (task pass), and better in one.' }) onParetoFront: boolean;
  @Field(() => [CampaignRef], { description: 'The public campaigns this row aggregates.' }) campaigns: CampaignRef[];
}

@ObjectType()
export class Leaderboard {
  @Field() benchmark: string;
  @Field() version: string;
  @Field(() => ID) benchmarkVersionId: string;
  @Field(() => [LeaderboardRow]) rows: LeaderboardRow[];
}

@ObjectType({ description: 'A benchmark with a public version: what has a public leaderboard.' })
export class PublicBenchmark {
  @Field() key: string;
  @Field() name: string;
  @Field({ description: 'The latest public version.' }) version: string;
}

@Resolver(() => Leaderboard)
export class LeaderboardResolver {
  constructor(
    private readonly results: ResultsViewService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  @Public()
  @Query(() => [PublicBenchmark], { description: 'Benchmarks with a public version (each with its latest public version), by key: the boards anyone can browse.' })
  publicBenchmarks(): Promise<PublicBenchmark[]> {
    return this.dataSource.query(
      `SELECT DISTINCT ON (key) key, name, version FROM benchmark_versions WHERE visibility = 'public' ORDER BY key, seq DESC, created_at DESC`,
    );
  }

  @Public()
  @Query(() => Leaderboard, { complexity: 50, description: 'The public board of a benchmark: public campaigns only, one version (the latest public one unless given).' })
  async leaderboard(
    @Args('benchmark') benchmark: string,
    @Args('version', { nullable: true }) version?: string,
    @Args('suite', { nullable: true }) suite?: string,
    @Args('mode', { nullable: true }) mode?: string,
    @Args('difficulty', { type: () => Difficulty, nullable: true }) difficulty?: Difficulty,
    @Args('sort', { type: () => LeaderboardSort, nullable: true, defaultValue: LeaderboardSort.TASK_PASS }) sort?: LeaderboardSort,
  ): Promise<Leaderboard> {
    const board = await this.results.leaderboard({ benchmark, version, suite, mode, difficulty });
    const rows = board.rows.map(view);
    if (sort === LeaderboardSort.COST) rows.sort((a, b) => (a.meanCostUsd ?? Infinity) - (b.meanCostUsd ?? Infinity));
    if (sort === LeaderboardSort.TEST_PASS) rows.sort((a, b) => (b.testPass ?? -1) - (a.testPass ?? -1));
    return { ...board, rows };
  }
}

function view(row: Row): LeaderboardRow {
  return {
    agent: row.agent,
    agentVersion: row.agentVersion,
    agentConfigVersionId: row.agentConfigVersionId,
    model: row.model,
    mode: row.mode,
    n: row.n,
    resolved: row.resolved,
    taskPass: row.taskPass,
    taskPassLow: row.taskPassInterval?.lower ?? null,
    taskPassHigh: row.taskPassInterval?.upper ?? null,
    testPass: row.testPass,
    meanMinutes: row.minutes,
    meanTokensMillions: row.tokensMillions,
    meanCostUsd: row.costUsd,
    totalCostUsd: row.totalCostUsd,
    costPerResolvedUsd: row.costPerSolved,
    infraFailed: row.infraFailed,
    onParetoFront: row.onParetoFront,
    campaigns: row.campaigns,
  };
}
