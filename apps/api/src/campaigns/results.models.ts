import { Field, Float, ID, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { Difficulty } from '../catalog/catalog.models.js';

export enum ComparisonFamily {
  POOLED = 'pooled',
  PER_BENCHMARK = 'perBenchmark',
}
registerEnumType(ComparisonFamily, {
  name: 'ComparisonFamily',
  description: 'The McNemar tests Holm corrects together.',
  valuesMap: {
    POOLED: { description: "The study's family: one test per agent (per mode, comparing agents), pooling all benchmarks." },
    PER_BENCHMARK: { description: 'One test per agent (or mode) x benchmark.' },
  },
});

@ObjectType({ description: 'A figure of side A and side B (null where it cannot be computed, e.g. no executions).' })
export class AB {
  @Field(() => Float, { nullable: true }) a: number | null;
  @Field(() => Float, { nullable: true }) b: number | null;
}

@ObjectType({ description: 'Paired bootstrap percentile interval (95%) of mean(test pass A - test pass B) over the pairs, as fractions.' })
export class BootstrapInterval {
  @Field(() => Int) n: number;
  @Field(() => Float) mean: number;
  @Field(() => Float) lower: number;
  @Field(() => Float) upper: number;
  @Field(() => Int) resamples: number;
}

@ObjectType({ description: "The study's Table 2 row for one subject (agent, or mode when comparing agents) x benchmark; figures as A / B over all executions of each side." })
export class ComparisonBenchmarkRow {
  @Field({ description: 'The agent (comparing modes) or the mode (comparing agents).' }) subject: string;
  @Field() benchmark: string;
  @Field(() => AB, { description: 'Executions of each side (every one counts in the pass rates).' }) n: AB;
  @Field(() => AB) resolved: AB;
  @Field(() => AB) taskPass: AB;
  @Field(() => AB) testPass: AB;
  @Field(() => AB, { description: 'Mean shell calls (main agent and sub-agents).' }) shellCalls: AB;
  @Field(() => AB, { description: 'Mean wall minutes.' }) minutes: AB;
  @Field(() => AB, { description: 'Mean tokens, millions.' }) tokensMillions: AB;
  @Field(() => AB, { description: 'Mean cost, dollars.' }) costUsd: AB;
  @Field(() => AB, { description: 'Total tokens / resolved (tokens, not millions); null when none resolved.' }) tokensPerSolved: AB;
  @Field(() => AB) costPerSolved: AB;
  @Field(() => AB) infraFailed: AB;
  @Field(() => AB) noTests: AB;
  @Field(() => Int) pairs: number;
  @Field(() => Int, { description: 'Pairs where only A resolved.' }) b: number;
  @Field(() => Int, { description: 'Pairs where only B resolved.' }) c: number;
  @Field(() => Float, { description: 'Exact McNemar of this row alone (see `tests` for the corrected family).' }) pUnadjusted: number;
  @Field() successRule: string;
  @Field(() => Int, { description: 'Unique successes of A under the success rule.' }) uniqueA: number;
  @Field(() => Int) uniqueB: number;
  @Field(() => Int) bothSolved: number;
  @Field(() => Int) aFaster: number;
  @Field(() => Float, { nullable: true }) aFasterShare: number | null;
  @Field(() => Int) aFaster20: number;
  @Field(() => Float, { nullable: true, description: 'Share of both-solved pairs where A took >= 20% less wall time.' }) aFaster20Share: number | null;
  @Field(() => Int) benefitPairs: number;
  @Field(() => BootstrapInterval, { nullable: true }) testPassDifference: BootstrapInterval | null;
}

@ObjectType({ description: 'One exact McNemar test of the family, with its Holm-adjusted p.' })
export class ComparisonTest {
  @Field() subject: string;
  @Field(() => String, { nullable: true, description: 'Null under the pooled family.' }) benchmark: string | null;
  @Field(() => Int) pairs: number;
  @Field(() => Int) b: number;
  @Field(() => Int) c: number;
  @Field(() => Float, { description: 'Two-sided exact p (0 only when below the smallest double; see log10P).' }) p: number;
  @Field(() => Float) log10P: number;
  @Field(() => Float, { nullable: true }) pAdjusted: number | null;
  @Field(() => BootstrapInterval, { nullable: true }) testPassDifference: BootstrapInterval | null;
}

@ObjectType()
export class ComparisonFamilyInfo {
  @Field() correction: string;
  @Field(() => ComparisonFamily) family: ComparisonFamily;
  @Field() description: string;
  @Field(() => Int) m: number;
}

@ObjectType({ description: 'A pair of executions: same subject, task and repetition, one per side, in one campaign.' })
export class ComparisonPair {
  @Field() subject: string;
  @Field(() => ID, { nullable: true, description: 'The campaign of both executions.' }) campaignId: string | null;
  @Field() benchmark: string;
  @Field() suite: string;
  @Field() task: string;
  @Field(() => Int) repetition: number;
  @Field(() => ID, { nullable: true }) executionA: string | null;
  @Field(() => ID, { nullable: true }) executionB: string | null;
}

@ObjectType()
export class DiscordantPair extends ComparisonPair {
  @Field({ description: 'A (counted in b) or B (counted in c).' }) resolvedBy: string;
}

@ObjectType()
export class BenefitPair extends ComparisonPair {
  @Field(() => [String], { description: 'higherTestPass, resolvedOnlyInA, faster (>= 60 s and >= 20% sooner with test pass at least B\'s).' }) reasons: string[];
}

@ObjectType()
export class SizeDifference {
  @Field() benchmark: string;
  @Field(() => Float, { nullable: true }) medianReferenceKloc: number | null;
  @Field(() => [String], { description: 'Subjects with executions on both sides (equal weight).' }) subjects: string[];
  @Field(() => Float, { nullable: true, description: 'Mean over subjects of test pass A - B, percentage points.' }) differencePp: number | null;
}

@ObjectType()
export class ComparisonInputs {
  @Field(() => Int) executions: number;
  @Field(() => [String]) subjects: string[];
  @Field(() => [String]) benchmarks: string[];
  @Field(() => Int) pairs: number;
  @Field(() => Int) unpaired: number;
  @Field(() => Int, { description: 'Second and later executions of an identity and side, ignored.' }) duplicates: number;
}

@ObjectType({ description: 'A paired comparison (docs/metrics.md): mode A vs mode B of each agent, or agent A vs agent B in one mode.' })
export class Comparison {
  @Field({ description: '"mode" or "agent".' }) by: string;
  @Field() sideA: string;
  @Field() sideB: string;
  @Field(() => Int) resamples: number;
  @Field(() => Int) seed: number;
  @Field(() => ComparisonInputs) inputs: ComparisonInputs;
  @Field(() => ComparisonFamilyInfo) family: ComparisonFamilyInfo;
  @Field(() => [ComparisonBenchmarkRow]) benchmarks: ComparisonBenchmarkRow[];
  @Field(() => [ComparisonTest]) tests: ComparisonTest[];
  @Field(() => [DiscordantPair]) discordantPairs: DiscordantPair[];
  @Field(() => [BenefitPair]) benefitPairs: BenefitPair[];
  @Field(() => [SizeDifference]) differenceBySize: SizeDifference[];
}

@ObjectType({ description: 'Delegation aggregates of one agent x benchmark x difficulty group.' })
export class DelegationRow {
  @Field() agent: string;
  @Field() benchmark: string;
  @Field() mode: string;
  @Field(() => Difficulty) difficulty: Difficulty;
  @Field(() => Int) n: number;
  @Field(() => Float, { nullable: true }) meanCreated: number | null;
  @Field(() => Float, { nullable: true }) meanPeak: number | null;
  @Field(() => Float, { nullable: true }) medianOverlapRatio: number | null;
  @Field(() => Float, { nullable: true }) medianFirstSpawnPosition: number | null;
  @Field(() => Float, { nullable: true }) medianFirstOverlapPosition: number | null;
  @Field(() => Float, { nullable: true }) medianLastEndPosition: number | null;
  @Field(() => Int) neverOverlapping: number;
  @Field(() => Float, { nullable: true }) neverOverlappingRate: number | null;
}

@ObjectType()
export class NeverOverlappingRow {
  @Field() agent: string;
  @Field() mode: string;
  @Field(() => Int) n: number;
  @Field(() => Int) neverOverlapping: number;
  @Field(() => Float, { nullable: true }) rate: number | null;
}

@ObjectType({ description: 'Spearman rho of difficulty vs created or peak sub-agents, two-sided permutation p, Holm over the family.' })
export class SpearmanRow {
  @Field() agent: string;
  @Field() benchmark: string;
  @Field({ description: 'created or peak.' }) variable: string;
  @Field(() => Int) n: number;
  @Field(() => Float, { nullable: true }) rho: number | null;
  @Field(() => Float, { nullable: true }) p: number | null;
  @Field(() => Float, { nullable: true }) pAdjusted: number | null;
}

@ObjectType()
export class TestFamilyInfo {
  @Field() correction: string;
  @Field() description: string;
  @Field(() => Int) m: number;
}

@ObjectType({ description: 'Delegation metrics of one mode (docs/metrics.md): by difficulty, never-overlapping rate, Spearman vs difficulty.' })
export class DelegationView {
  @Field() mode: string;
  @Field(() => Int) permutations: number;
  @Field(() => Int) seed: number;
  @Field(() => [DelegationRow]) rows: DelegationRow[];
  @Field(() => [NeverOverlappingRow]) neverOverlapping: NeverOverlappingRow[];
  @Field(() => [SpearmanRow]) spearman: SpearmanRow[];
  @Field(() => TestFamilyInfo) family: TestFamilyInfo;
}

@ObjectType({ description: 'One label of the failure taxonomy and how often it was adjudicated.' })
export class FailureCount {
  @Field({ description: 'category, subcategory or pattern.' }) level: string;
  @Field() key: string;
  @Field(() => String, { nullable: true, description: 'Null for all agents.' }) agent: string | null;
  @Field(() => Int) count: number;
  @Field(() => Float, { nullable: true }) share: number | null;
}

@ObjectType({ description: 'The failure taxonomy of a campaign from adjudicated annotations; empty, with the reason, before there are any.' })
export class FailureView {
  @Field() available: boolean;
  @Field(() => String, { nullable: true }) reason: string | null;
  @Field(() => Int) annotatedExecutions: number;
  @Field(() => [FailureCount]) distribution: FailureCount[];
  @Field(() => Float, { nullable: true, description: "Pooled Cohen's kappa (pre-adjudication)." }) pooledKappa: number | null;
}
