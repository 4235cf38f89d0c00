import { z } from 'zod';

/**
 * The public runner protocol (docs/runner-protocol.md): what the runner
 * fetches and posts under /v1/executions/:id/ with its execution-scoped token.
 */

/** GET /v1/executions/:id/spec: everything the runner needs to run one attempt. */
export const executionSpecSchema = z.strictObject({
  executionId: z.uuid(),
  attempt: z.number().int().min(1),
  campaignId: z.uuid(),
  mode: z.string(),
  repetition: z.number().int().min(0),
  /** Seed for anything random the agent does (a re-run gives the same results). */
  seed: z.number().int(),
  agent: z.strictObject({
    name: z.string(),
    version: z.number().int(),
    model: z.string(),
    /** A string runs via `sh -c`; a list runs as argv. */
    command: z.union([z.string(), z.array(z.string())]),
    /** Config env, then the mode's env on top, then secrets. */
    env: z.record(z.string(), z.string()),
    /** The mode's extra arguments, appended to the command. */
    args: z.array(z.string()),
  }),
  task: z.strictObject({
    benchmark: z.string(),
    benchmarkVersion: z.string(),
    suite: z.string(),
    id: z.string(),
    difficulty: z.enum(['easy', 'medium', 'hard']),
    instruction: z.string(),
    /** Absolute path (local runs) of the starter workspace folder or archive. */
    workspace: z.string(),
    /** Absolute path of the hidden tests folder, copied in as tests/ only when grading. */
    tests: z.string().nullable(),
    grader: z.strictObject({
      command: z.union([z.string(), z.array(z.string())]),
      format: z.enum(['junit', 'tap', 'json']),
      reportPath: z.string().nullable(),
    }),
    timeBudgetSeconds: z.number().positive(),
  }),
  heartbeatSeconds: z.number().positive(),
});
export type ExecutionSpec = z.infer<typeof executionSpecSchema>;

/** POST /v1/executions/:id/heartbeat. The answer tells a runner to stop when the execution was cancelled. */
export const heartbeatSchema = z.strictObject({
  attempt: z.number().int().min(1),
  phase: z.enum(['setup', 'agent', 'grading']),
});
export type Heartbeat = z.infer<typeof heartbeatSchema>;
export const heartbeatAnswerSchema = z.strictObject({ cancel: z.boolean() });

/**
 * POST /v1/executions/:id/grade: the official grader's verdict and how the
 * agent ended. Posted once per attempt; a repeat with the same body is a no-op.
 */
export const gradeSchema = z.strictObject({
  attempt: z.number().int().min(1),
  testsPassed: z.number().int().min(0),
  testsTotal: z.number().int().min(0),
  /** The grader's full-resolve verdict: every required test passed. */
  resolved: z.boolean(),
  /** How the agent process ended. */
  agentEnd: z.enum(['exited', 'timeout', 'crashed', 'cancelled']),
  agentExitCode: z.number().int().nullable(),
  graderExitCode: z.number().int().nullable(),
  /** Seconds from agent start to grade. */
  wallSeconds: z.number().min(0),
  /** The last lines of the grader's output, for people. */
  graderOutputTail: z.string().max(20_000).optional(),
}).refine((g) => g.testsPassed <= g.testsTotal, { message: 'testsPassed must not exceed testsTotal', path: ['testsPassed'] });
export type Grade = z.infer<typeof gradeSchema>;

/** POST /v1/executions/:id/events answer. */
export interface EventBatchResult {
  accepted: number;
  duplicates: number;
  rejected: { index: number; reason: string }[];
}
