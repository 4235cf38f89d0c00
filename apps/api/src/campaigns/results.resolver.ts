import { AnnotationResultsService } from '#libs/annotation';
import { ResultsViewService } from '#libs/campaigns';
import { DomainException } from '#libs/common';
import type { Principal } from '#libs/identity';
import type { Comparison as ComparisonResult, ComparisonPairRow, DelegationView as DelegationResult } from '#libs/metrics';
import { Args, ID, Int, Query, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, Public } from '../auth/auth.decorators.js';
import { Difficulty } from '../catalog/catalog.models.js';
import { Comparison, ComparisonFamily, DelegationView, FailureView } from './results.models.js';

const MAX_RESAMPLES = 100_000;

function checkRange(field: string, value: number, max: number): void {
  if (!Number.isInteger(value) || value < 1 || value > max) throw DomainException.badInput(field, `an integer from 1 to ${max}`, value);
}

function pairView<T extends ComparisonPairRow>({ group, ...rest }: T): Omit<T, 'group'> & { campaignId: string | null } {
  return { ...rest, campaignId: group };
}

function comparisonView(c: ComparisonResult): Comparison {
  return {
    by: c.spec.by,
    sideA: c.sideA,
    sideB: c.sideB,
    resamples: c.options.resamples,
    seed: c.options.seed,
    inputs: c.inputs,
    family: { ...c.family, family: c.family.family as ComparisonFamily },
    benchmarks: c.benchmarks,
    tests: c.tests,
    discordantPairs: c.discordantPairs.map(pairView),
    benefitPairs: c.benefitPairs.map(pairView),
    differenceBySize: c.differenceBySize.map(({ agents, ...rest }) => ({ ...rest, subjects: agents })),
  };
}

function delegationView(d: DelegationResult, permutations: number, seed: number): DelegationView {
  return {
    mode: d.mode,
    permutations,
    seed,
    rows: d.delegation.map((row) => ({ ...row, difficulty: row.difficulty as Difficulty })),
    neverOverlapping: d.neverOverlapping,
    spearman: d.spearman,
    family: { correction: d.spearmanFamily.correction, description: d.spearmanFamily.description, m: d.spearmanFamily.m },
  };
}

/** The campaign results views: every figure from libs/metrics, cached per campaign (docs/results.md). */
@Resolver()
export class ResultsResolver {
  constructor(
    private readonly views: ResultsViewService,
    private readonly annotationResults: AnnotationResultsService,
  ) {}

  @Public()
  @Query(() => Comparison, {
    complexity: 100,
    description:
      'Paired comparison of mode A vs mode B for every agent of a campaign, or of one agent config across the campaigns you can see (pairs stay inside a campaign; each config version is its own row). Exactly one of campaign and agentConfig.',
  })
  async comparison(
    @CurrentPrincipal() principal: Principal | undefined,
    @Args('campaign', { type: () => ID, nullable: true }) campaign: string | null,
    @Args('agentConfig', { type: () => ID, nullable: true }) agentConfig: string | null,
    @Args('modeA', { defaultValue: 'concurrent' }) modeA: string,
    @Args('modeB', { defaultValue: 'sequential' }) modeB: string,
    @Args('family', { type: () => ComparisonFamily, defaultValue: ComparisonFamily.POOLED }) family: ComparisonFamily,
    @Args('resamples', { type: () => Int, defaultValue: 10_000, description: 'Bootstrap resamples (1 to 100000).' }) resamples: number,
    @Args('seed', { type: () => Int, defaultValue: 1 }) seed: number,
  ): Promise<Comparison> {
    if (Boolean(campaign) === Boolean(agentConfig)) throw DomainException.badInput('campaign', 'exactly one of campaign and agentConfig', { campaign, agentConfig });
    if (modeA === modeB) throw DomainException.badInput('modeB', `a mode other than modeA ("${modeA}")`, modeB);
    checkRange('resamples', resamples, MAX_RESAMPLES);
    const result = await this.views.comparison(principal ?? null, { campaignId: campaign, agentConfigId: agentConfig }, { by: 'mode', modeA, modeB }, { family, resamples, seed });
    return comparisonView(result);
  }

  @Public()
  @Query(() => Comparison, { complexity: 100, description: 'Paired comparison of agent A vs agent B (agent config names) in one mode, on the same tasks of a campaign.' })
  async agentComparison(
    @CurrentPrincipal() principal: Principal | undefined,
    @Args('campaign', { type: () => ID }) campaign: string,
    @Args('agentA') agentA: string,
    @Args('agentB') agentB: string,
    @Args('mode') mode: string,
    @Args('family', { type: () => ComparisonFamily, defaultValue: ComparisonFamily.POOLED }) family: ComparisonFamily,
    @Args('resamples', { type: () => Int, defaultValue: 10_000 }) resamples: number,
    @Args('seed', { type: () => Int, defaultValue: 1 }) seed: number,
  ): Promise<Comparison> {
    if (agentA === agentB) throw DomainException.badInput('agentB', `an agent other than agentA ("${agentA}")`, agentB);
    checkRange('resamples', resamples, MAX_RESAMPLES);
    const result = await this.views.comparison(principal ?? null, { campaignId: campaign }, { by: 'agent', agentA, agentB, mode }, { family, resamples, seed });
    return comparisonView(result);
  }

  @Public()
  @Query(() => DelegationView, { complexity: 100, description: "Delegation metrics of a campaign's executions in one mode, by agent, benchmark and difficulty, with Spearman tests against difficulty." })
  async delegation(
    @CurrentPrincipal() principal: Principal | undefined,
    @Args('campaign', { type: () => ID }) campaign: string,
    @Args('mode', { defaultValue: 'concurrent' }) mode: string,
    @Args('permutations', { type: () => Int, defaultValue: 10_000 }) permutations: number,
    @Args('seed', { type: () => Int, defaultValue: 1 }) seed: number,
  ): Promise<DelegationView> {
    checkRange('permutations', permutations, MAX_RESAMPLES);
    return delegationView(await this.views.delegation(principal ?? null, campaign, { mode, permutations, seed }), permutations, seed);
  }

  @Public()
  @Query(() => FailureView, {
    complexity: 20,
    description: "The failure taxonomy of a campaign from its latest annotation campaign's final labels (the study's Table 3), per agent, with pooled kappa; empty with its reason before there are final labels.",
  })
  async failures(@CurrentPrincipal() principal: Principal | undefined, @Args('campaign', { type: () => ID }) campaign: string): Promise<FailureView> {
    const view = await this.annotationResults.failureView(principal ?? null, campaign);
    const distribution = view.results?.distribution.rows.flatMap((row) => [
      { level: row.level, key: row.key, agent: null, count: row.instances, share: row.share },
      ...row.byAgent.map((a) => ({ level: row.level, key: row.key, agent: a.agent, count: a.instances, share: a.share })),
    ]);
    return {
      available: view.available,
      reason: view.reason,
      annotatedExecutions: view.results?.final ?? 0,
      distribution: view.available ? (distribution ?? []) : [],
      pooledKappa: view.results?.agreement?.pooled.pattern.kappa ?? null,
    };
  }
}
