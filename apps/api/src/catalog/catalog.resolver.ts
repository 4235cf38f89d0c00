import { AgentConfigService, BenchmarkService, SecretService, readManifest } from '#libs/catalog';
import { DomainException } from '#libs/common';
import { APP_CONFIG, type AppConfig } from '#libs/config';
import { Inject } from '@nestjs/common';
import { isAbsolute } from 'node:path';
import { parseAgentConfigManifest, parseBenchmarkManifest, validateAgentConfigManifest, validateBenchmarkManifest } from '#libs/contracts';
import { Role, type Principal } from '#libs/identity';
import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { CurrentPrincipal, RequireRole } from '../auth/auth.decorators.js';
import { PageArgs, pagedComplexity } from '../graphql/page.args.js';
import { AgentConfig, AgentConfigConnection, AgentMode, Benchmark, BenchmarkConnection, Difficulty, GroupSize, ManifestInput, RegisterAgentConfigResult, RegisterBenchmarkResult, Secret, Suite, Task } from './catalog.models.js';

@Resolver(() => Benchmark)
export class BenchmarkResolver {
  constructor(
    private readonly benchmarkService: BenchmarkService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @RequireRole(Role.MEMBER)
  @Mutation(() => RegisterBenchmarkResult, { description: 'Registers a benchmark manifest. The same manifest again is a no-op; changed content needs a new version.' })
  async registerBenchmark(
    @CurrentPrincipal() principal: Principal,
    @Args('input') input: ManifestInput,
    @Args('sourceDir', { nullable: true, description: 'Absolute folder the manifest\'s relative paths start from, for local runs (one-machine installs only).' })
    sourceDir?: string,
  ) {
    const manifest = readManifest('the benchmark manifest', input, parseBenchmarkManifest, validateBenchmarkManifest);
    if (sourceDir != null && (this.config.env === 'production' || !isAbsolute(sourceDir))) {
      throw DomainException.badInput('sourceDir', this.config.env === 'production' ? 'nothing in production (task workspaces come from images)' : 'an absolute path', sourceDir);
    }
    const { version, created } = await this.benchmarkService.register(principal, manifest, sourceDir ?? null);
    return { benchmark: version, created };
  }

  @Query(() => BenchmarkConnection, { complexity: pagedComplexity, description: 'Benchmark versions your organization registered, and public ones.' })
  benchmarks(@CurrentPrincipal() principal: Principal, @Args() page: PageArgs, @Args('key', { nullable: true }) key?: string) {
    return this.benchmarkService.listVisible(principal, page, { key });
  }

  @Query(() => Benchmark)
  benchmark(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return this.benchmarkService.getVisible(principal, id);
  }

  @ResolveField(() => [GroupSize], { description: 'Tasks per difficulty group (the sampling strata).' })
  groupSizes(@Parent() b: Benchmark, @Args('suite', { nullable: true }) suite?: string) {
    return this.benchmarkService.groupSizes(b.id, suite);
  }

  @ResolveField(() => [Suite])
  suites(@Parent() b: Benchmark & { manifest: { suites: { id: string; name: string; tasks: unknown[] }[] } }) {
    return b.manifest.suites.map((s) => ({ key: s.id, name: s.name, taskCount: s.tasks.length }));
  }

  @ResolveField(() => [Task], { complexity: 50 })
  async tasks(
    @Parent() b: Benchmark,
    @Args('suite', { nullable: true }) suite?: string,
    @Args('difficulty', { type: () => Difficulty, nullable: true }) difficulty?: Difficulty,
  ) {
    const tasks = await this.benchmarkService.tasks(b.id, { suite, difficulty });
    return tasks.map((t) => ({ ...t, key: t.taskKey, suite: t.suiteKey }));
  }

  @ResolveField(() => Boolean, { description: 'Registered by your organization.' })
  ownedByViewer(@Parent() b: Benchmark, @CurrentPrincipal() principal: Principal) {
    return b.orgId === principal.orgId;
  }
}

@Resolver(() => AgentConfig)
export class AgentConfigResolver {
  constructor(private readonly agentConfigService: AgentConfigService) {}

  @RequireRole(Role.MEMBER)
  @Mutation(() => RegisterAgentConfigResult, { description: 'Registers an agent config manifest as a new version (the same content again is a no-op).' })
  async createAgentConfig(@CurrentPrincipal() principal: Principal, @Args('input') input: ManifestInput) {
    const manifest = readManifest('the agent config', input, parseAgentConfigManifest, validateAgentConfigManifest);
    const { version, created, missingSecrets } = await this.agentConfigService.register(principal, manifest);
    return { agentConfig: version, created, missingSecrets };
  }

  @Query(() => AgentConfigConnection, { complexity: pagedComplexity })
  agentConfigs(
    @CurrentPrincipal() principal: Principal,
    @Args() page: PageArgs,
    @Args('name', { nullable: true }) name?: string,
    @Args('latestOnly', { nullable: true, defaultValue: true }) latestOnly?: boolean,
  ) {
    return this.agentConfigService.list(principal, page, { name, latestOnly });
  }

  @Query(() => AgentConfig)
  agentConfig(@CurrentPrincipal() principal: Principal, @Args('id', { type: () => ID }) id: string) {
    return this.agentConfigService.get(principal, id);
  }

  @ResolveField(() => [AgentMode])
  modes(@Parent() c: AgentConfig & { manifest: { modes: Record<string, { env?: Record<string, string>; args?: string[]; description?: string }> } }) {
    return Object.entries(c.manifest.modes).map(([name, m]) => ({ name, env: m.env ?? {}, args: m.args ?? [], description: m.description ?? null }));
  }

  @ResolveField(() => [String])
  command(@Parent() c: AgentConfig & { manifest: { command: string | string[] } }) {
    return Array.isArray(c.manifest.command) ? c.manifest.command : [c.manifest.command];
  }

  @ResolveField(() => String, { nullable: true })
  image(@Parent() c: AgentConfig & { manifest: { image?: string } }) {
    return c.manifest.image ?? null;
  }

  @ResolveField(() => String, { nullable: true })
  reasoningEffort(@Parent() c: AgentConfig & { manifest: { reasoningEffort?: string } }) {
    return c.manifest.reasoningEffort ?? null;
  }

  @ResolveField(() => [String], { description: 'Names of the org secrets the runner injects; values are never shown.' })
  secrets(@Parent() c: AgentConfig & { manifest: { secrets?: string[] } }) {
    return c.manifest.secrets ?? [];
  }
}

@Resolver(() => Secret)
export class SecretResolver {
  constructor(private readonly secretService: SecretService) {}

  @RequireRole(Role.ADMIN)
  @Mutation(() => Secret, { description: 'Sets (or replaces) an org secret; stored encrypted, never returned.' })
  setSecret(@CurrentPrincipal() principal: Principal, @Args('name') name: string, @Args('value') value: string) {
    return this.secretService.set(principal, name, value);
  }

  @RequireRole(Role.ADMIN)
  @Mutation(() => Boolean)
  deleteSecret(@CurrentPrincipal() principal: Principal, @Args('name') name: string) {
    return this.secretService.delete(principal, name);
  }

  @Query(() => [Secret])
  secrets(@CurrentPrincipal() principal: Principal) {
    return this.secretService.list(principal);
  }
}
