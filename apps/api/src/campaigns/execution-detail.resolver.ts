import type { ExecutionEntity } from '#libs/campaigns';
import { agentTree, eventPayloads, executionDelegation, executionEvents, findVisibleExecution, type TrajectoryEventRow } from '#libs/engine';
import type { Principal } from '#libs/identity';
import { Args, Context, ID, Int, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { InjectDataSource } from '@nestjs/typeorm';
import DataLoader from 'dataloader';
import { GraphQLJSONObject } from 'graphql-scalars';
import type { DataSource } from 'typeorm';
import { CurrentPrincipal, Public } from '../auth/auth.decorators.js';
import type { GraphqlContext } from '../graphql/loaders.js';
import { PageArgs, pagedComplexity } from '../graphql/page.args.js';
import { Execution } from './campaign.models.js';
import { AgentSpanNode, ExecutionDelegation, ExecutionGrade, TrajectoryEvent, TrajectoryEventConnection } from './execution-detail.models.js';

/** What the Execution field resolvers get: the entity the queries return, with its detail columns. */
type ExecutionRow = Execution & Pick<ExecutionEntity, 'orgId' | 'agents' | 'summary' | 'agentEnd' | 'agentExitCode' | 'graderExitCode'>;

/** Per request: the payloads of the events resolved together come in one query, not one per event. */
const payloadLoaders = new WeakMap<object, DataLoader<TrajectoryEventRow, string | null>>();

/** The execution detail view: `execution(id)` and the detail fields of Execution (delegation, agent tree, summary, grade, events). */
@Resolver(() => Execution)
export class ExecutionDetailResolver {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @Public()
  @Query(() => Execution, { description: 'One execution of your organization, or of any public campaign (also without signing in).' })
  execution(@CurrentPrincipal() principal: Principal | undefined, @Args('id', { type: () => ID }) id: string) {
    return findVisibleExecution(this.dataSource, principal ?? null, id);
  }

  @ResolveField(() => ExecutionDelegation, { nullable: true, description: 'Delegation metrics of the agent spans (libs/metrics); null until the execution has a result.' })
  delegation(@Parent() e: ExecutionRow): ExecutionDelegation | null {
    const m = executionDelegation(e);
    if (!m) return null;
    return {
      created: m.created,
      peak: m.peak,
      overlapSeconds: m.overlapTime / 1000,
      spanSeconds: m.span / 1000,
      overlapRatio: m.overlapRatio,
      firstSpawnPosition: m.firstSpawnPosition,
      firstOverlapPosition: m.firstOverlapPosition,
      lastEndPosition: m.lastEndPosition,
      neverOverlapping: m.neverOverlapping,
    };
  }

  @ResolveField(() => [AgentSpanNode], {
    complexity: 10,
    description: 'The main agent and sub-agent spans, flat in depth-first order with their depth (a span, then its sub-agents by start time); empty until the execution has a result.',
  })
  agentTree(@Parent() e: ExecutionRow): AgentSpanNode[] {
    return agentTree(e.agents ?? []).map((n) => ({
      id: n.id,
      parentId: n.parentId,
      depth: n.depth,
      start: new Date(n.start),
      end: new Date(n.end),
      durationSeconds: (n.end - n.start) / 1000,
      offsetSeconds: n.offset / 1000,
    }));
  }

  @ResolveField(() => GraphQLJSONObject, {
    nullable: true,
    description: 'What was computed when the execution ended (counts of tool, shell and model calls, disjoint usage, unpriced models, delegation); null for imported results.',
  })
  summary(@Parent() e: ExecutionRow) {
    return e.summary;
  }

  @ResolveField(() => ExecutionGrade, { nullable: true, description: 'Null until the execution has a result.' })
  grade(@Parent() e: ExecutionRow): ExecutionGrade | null {
    if (e.outcome == null) return null;
    const tail = e.summary?.graderOutputTail;
    return { agentEnd: e.agentEnd, agentExitCode: e.agentExitCode, graderExitCode: e.graderExitCode, graderOutputTail: typeof tail === 'string' ? tail : null };
  }

  @ResolveField(() => TrajectoryEventConnection, {
    complexity: pagedComplexity,
    description: 'Trajectory events in arrival order (the cursor is the last event\'s seq), optionally of one agent and some event types.',
  })
  events(
    @Parent() e: ExecutionRow,
    @Args() page: PageArgs,
    @Args('agentId', { type: () => String, nullable: true, description: 'Only this agent\'s events.' }) agentId?: string | null,
    @Args('attempt', { type: () => Int, nullable: true, description: 'The attempt whose events to list (default: the current one).' }) attempt?: number | null,
    @Args('kinds', { type: () => [String], nullable: true, description: 'Only these event types (agent.start, agent.end, model.call, tool.call, file.write, message).' })
    kinds?: string[] | null,
  ) {
    return executionEvents(this.dataSource, e, page, { agentId, kinds, attempt });
  }
}

@Resolver(() => TrajectoryEvent)
export class TrajectoryEventResolver {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @ResolveField(() => String, { nullable: true, complexity: 5, description: 'The large text of the event: a tool call\'s output or a message\'s text.' })
  payload(@Parent() event: TrajectoryEventRow, @Context() ctx: GraphqlContext) {
    let loader = payloadLoaders.get(ctx);
    if (!loader) {
      loader = new DataLoader((keys: readonly TrajectoryEventRow[]) => eventPayloads(this.dataSource, keys), { cache: false });
      payloadLoaders.set(ctx, loader);
    }
    return loader.load(event);
  }
}
