import { Field, Float, GraphQLISODateTime, ID, InputType, Int, ObjectType, registerEnumType } from '@nestjs/graphql';
import { IsObject, IsOptional, IsString, MaxLength } from 'class-validator';
import { GraphQLJSONObject } from 'graphql-scalars';
import { Connection } from '../graphql/connection.js';

export enum Difficulty {
  EASY = 'easy',
  MEDIUM = 'medium',
  HARD = 'hard',
}
registerEnumType(Difficulty, { name: 'Difficulty', description: 'Ordered: easy < medium < hard.' });

@InputType({ description: 'A manifest, as YAML text (errors then carry line numbers) or as a JSON object: exactly one.' })
export class ManifestInput {
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(5_000_000)
  yaml?: string;

  @Field(() => GraphQLJSONObject, { nullable: true })
  @IsOptional()
  @IsObject()
  manifest?: Record<string, unknown>;
}

@ObjectType()
export class GroupSize {
  @Field(() => Difficulty)
  difficulty: Difficulty;

  @Field(() => Int)
  count: number;
}

@ObjectType()
export class Suite {
  @Field()
  key: string;

  @Field()
  name: string;

  @Field(() => Int)
  taskCount: number;
}

@ObjectType()
export class Task {
  @Field(() => ID)
  id: string;

  @Field({ description: 'The task id in the manifest.' })
  key: string;

  @Field()
  suite: string;

  @Field(() => Difficulty)
  difficulty: Difficulty;

  @Field(() => Float, { nullable: true })
  referenceKloc: number | null;

  @Field(() => Float)
  timeBudgetMinutes: number;

  @Field(() => Float, { nullable: true, description: 'Token hint for cost estimates.' })
  expectedTokens: number | null;
}

@ObjectType({ description: 'One version of a benchmark (immutable).' })
export class Benchmark {
  @Field(() => ID, { description: 'The id of this version.' })
  id: string;

  @Field({ description: 'The manifest id, e.g. fanout-mini.' })
  key: string;

  @Field()
  name: string;

  @Field(() => String, { nullable: true })
  description: string | null;

  @Field()
  version: string;

  @Field(() => Int, { description: 'Registration order: the highest is the latest.' })
  seq: number;

  @Field()
  visibility: string;

  @Field()
  successRule: string;

  @Field(() => Int)
  taskCount: number;

  @Field(() => GraphQLISODateTime)
  createdAt: Date;

  orgId: string;
}

@ObjectType()
export class RegisterBenchmarkResult {
  @Field(() => Benchmark)
  benchmark: Benchmark;

  @Field({ description: 'False when this exact manifest was already registered (nothing changed).' })
  created: boolean;
}

@ObjectType()
export class AgentMode {
  @Field()
  name: string;

  @Field(() => GraphQLJSONObject, { description: 'Environment variables that switch the mode on.' })
  env: Record<string, string>;

  @Field(() => [String])
  args: string[];

  @Field(() => String, { nullable: true })
  description: string | null;
}

@ObjectType({ description: 'One version of an agent config (immutable; runs pin it).' })
export class AgentConfig {
  @Field(() => ID, { description: 'The id of this version.' })
  id: string;

  @Field()
  name: string;

  @Field(() => Int)
  version: number;

  @Field()
  scaffold: string;

  @Field()
  model: string;

  @Field(() => GraphQLISODateTime)
  createdAt: Date;

  manifest: Record<string, unknown>;
}

@ObjectType()
export class RegisterAgentConfigResult {
  @Field(() => AgentConfig)
  agentConfig: AgentConfig;

  @Field()
  created: boolean;

  @Field(() => [String], { description: 'Secrets the config names that your organization has not set yet (setSecret).' })
  missingSecrets: string[];
}

@ObjectType({ description: 'An org secret: its name and when it changed. Values are never returned.' })
export class Secret {
  @Field()
  name: string;

  @Field(() => GraphQLISODateTime)
  updatedAt: Date;
}

@ObjectType()
export class BenchmarkConnection extends Connection(Benchmark) {}

@ObjectType()
export class AgentConfigConnection extends Connection(AgentConfig) {}
