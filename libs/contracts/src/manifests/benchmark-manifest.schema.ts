import { z } from 'zod';
import {
  always,
  commandSchema,
  difficultySchema,
  fieldAt,
  imageSchema,
  integerSchema,
  listAt,
  manifestObject,
  minutesSchema,
  relativePathSchema,
  reportDuplicates,
  slugSchema,
  textSchema,
  versionSchema,
  visibilitySchema,
} from './manifest-fields.schema.js';

const CPU = 'expected a CPU quantity as a string, such as "500m" or "2"';
const MEMORY = 'expected a memory quantity as a string, such as "512Mi" or "2Gi"';

/** Kubernetes-style requests for the task's container (cluster runs). */
export const taskResourcesSchema = manifestObject({
  cpu: z
    .string({ error: CPU })
    .regex(/^(?:[1-9][0-9]*m|[1-9][0-9]*(?:\.[0-9]{1,3})?|0\.(?=[0-9]*[1-9])[0-9]{1,3})$/, { error: CPU })
    .optional(),
  memory: z
    .string({ error: MEMORY })
    .regex(/^[1-9][0-9]*(?:Ki|Mi|Gi|Ti|k|M|G|T)?$/, { error: MEMORY })
    .optional(),
});

/** The official grader: a command run in the task's workspace after the agent stops, and the report it writes. */
export const taskGraderSchema = manifestObject({
  command: commandSchema,
  format: z.enum(['junit', 'tap', 'json']),
  /** Where the grader writes its report, relative to the workspace; absent: its stdout. */
  reportPath: relativePathSchema('a report path', 'the workspace').optional(),
});

export const benchmarkTaskSchema = manifestObject({
  id: slugSchema,
  difficulty: difficultySchema,
  referenceKloc: z.number({ error: 'expected a number >= 0 (thousands of lines)' }).nonnegative({ error: 'expected a number >= 0 (thousands of lines)' }).optional(),
  instruction: textSchema(100_000),
  workspace: relativePathSchema('a workspace folder or .tar, .tar.gz, .tgz or .zip archive'),
  tests: relativePathSchema('a hidden tests folder').optional(),
  image: imageSchema.optional(),
  grader: taskGraderSchema,
  timeBudgetMinutes: minutesSchema,
  expectedTokens: integerSchema('a positive integer (tokens)', 1).optional(),
  resources: taskResourcesSchema.optional(),
});

export const benchmarkSuiteSchema = manifestObject({
  id: slugSchema,
  name: textSchema(200),
  description: textSchema(10_000).optional(),
  tasks: z.array(benchmarkTaskSchema, { error: 'expected a list of tasks' }).min(1, { error: 'expected a non-empty list of tasks' }),
});

/** A benchmark manifest (`fanout benchmark register FILE.yaml`, GraphQL `registerBenchmark`). */
export const benchmarkManifestSchema = manifestObject({
  id: slugSchema,
  name: textSchema(200),
  description: textSchema(10_000).optional(),
  version: versionSchema,
  visibility: visibilitySchema,
  /** metrics.md "Success rule": what counts as a success in views of unique successes. */
  success: z.enum(['taskPass', 'testPassAboveZero']).default('taskPass'),
  suites: z.array(benchmarkSuiteSchema, { error: 'expected a list of suites' }).min(1, { error: 'expected a non-empty list of suites' }),
}).check(
  z.superRefine((manifest, ctx) => {
    const suites = listAt(manifest.suites);
    reportDuplicates(
      ctx,
      'suite id',
      suites.map((suite, i) => ({ value: fieldAt(suite, 'id'), at: ['suites', i, 'id'] })),
    );
    // Task ids are unique across the benchmark, not only within a suite: a
    // campaign's explicit task list names tasks by id alone.
    reportDuplicates(
      ctx,
      'task id in the benchmark',
      suites.flatMap((suite, i) => listAt(fieldAt(suite, 'tasks')).map((task, j) => ({ value: fieldAt(task, 'id'), at: ['suites', i, 'tasks', j, 'id'] }))),
    );
  }, always),
);

export type BenchmarkManifest = z.infer<typeof benchmarkManifestSchema>;
export type BenchmarkSuiteManifest = z.infer<typeof benchmarkSuiteSchema>;
export type BenchmarkTaskManifest = z.infer<typeof benchmarkTaskSchema>;
export type TaskGraderManifest = z.infer<typeof taskGraderSchema>;
