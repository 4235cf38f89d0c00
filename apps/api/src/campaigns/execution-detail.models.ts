import { Field, Float, GraphQLISODateTime, ID, Int, ObjectType } from '@nestjs/graphql';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Connection } from '../graphql/connection.js';

@ObjectType({ description: 'Delegation metrics of one execution, from libs/metrics (docs/metrics.md "Delegation metrics").' })
export class ExecutionDelegation {
  @Field(() => Int, { description: 'Distinct sub-agent contexts, each counted once however many rounds it ran.' })
  created: number;

  @Field(() => Int, { description: 'Most sub-agents active at one instant.' })
  peak: number;

  @Field(() => Float, { description: 'Seconds with two or more sub-agents active (half-open intervals).' })
  overlapSeconds: number;

  @Field(() => Float, { description: 'Seconds from the earliest start to the latest end over all agents.' })
  spanSeconds: number;

  @Field(() => Float, { description: 'overlapSeconds / spanSeconds; 0 without overlap.' })
  overlapRatio: number;

  @Field(() => Float, { nullable: true, description: '(earliest sub-agent start - t0) / span; null without sub-agents.' })
  firstSpawnPosition: number | null;

  @Field(() => Float, { nullable: true, description: '(first instant with two sub-agents active - t0) / span; null without overlap.' })
  firstOverlapPosition: number | null;

  @Field(() => Float, { nullable: true, description: '(latest sub-agent end - t0) / span; null without sub-agents.' })
  lastEndPosition: number | null;

  @Field({ description: 'Created sub-agents but none ever overlapped.' })
  neverOverlapping: boolean;
}

@ObjectType({ description: 'One agent span. agentTree lists them depth-first: a span, then its sub-agents by start time, one level deeper.' })
export class AgentSpanNode {
  @Field({ description: 'The agent id of the trajectory (several spans share it when a context ran several rounds).' })
  id: string;

  @Field(() => String, { nullable: true, description: 'The spawning agent; null for the main agent.' })
  parentId: string | null;

  @Field(() => Int, { description: '0 for the main agent (and a span whose parent is unknown), 1 for its sub-agents, and so on.' })
  depth: number;

  @Field(() => GraphQLISODateTime)
  start: Date;

  @Field(() => GraphQLISODateTime)
  end: Date;

  @Field(() => Float)
  durationSeconds: number;

  @Field(() => Float, { description: 'Seconds from the earliest start over all spans (t0) to this start.' })
  offsetSeconds: number;
}

@ObjectType({ description: 'How the agent ended and what the grader said, beside the test counts on Execution.' })
export class ExecutionGrade {
  @Field(() => String, { nullable: true, description: 'exited, timeout, crashed or cancelled; null for imported results.' })
  agentEnd: string | null;

  @Field(() => Int, { nullable: true })
  agentExitCode: number | null;

  @Field(() => Int, { nullable: true })
  graderExitCode: number | null;

  @Field(() => String, { nullable: true, description: 'The end of the grader\'s output, as the runner posted it.' })
  graderOutputTail: string | null;
}

@ObjectType({ description: 'One trajectory event (docs/runner-protocol.md), in arrival order.' })
export class TrajectoryEvent {
  @Field({ description: 'Arrival order within the execution (a 64-bit integer, as a decimal string); also the page cursor.' })
  seq: string;

  @Field({ description: 'The id the runner gave the event, unique within its execution attempt.' })
  eventId: string;

  @Field(() => Int, { description: 'The attempt that reported it.' })
  attempt: number;

  @Field({ description: 'agent.start, agent.end, model.call, tool.call, file.write or message.' })
  type: string;

  @Field()
  agentId: string;

  @Field(() => GraphQLISODateTime)
  time: Date;

  @Field(() => GraphQLJSONObject, { description: 'The event\'s other fields; tool output and message text are in `payload` (`outputBytes` / `textBytes` give their size).' })
  data: Record<string, unknown>;

  @Field(() => ID)
  executionId: string;

  orgId: string;
}

@ObjectType()
export class TrajectoryEventConnection extends Connection(TrajectoryEvent) {}
