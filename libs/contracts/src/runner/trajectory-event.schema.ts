import { z } from 'zod';

/**
 * Trajectory events: what an agent (main and every sub-agent) did, appended
 * in order of arrival. Names follow the OpenTelemetry GenAI conventions where
 * one exists (docs/runner-protocol.md has the mapping). `id` is unique within
 * the execution: a re-sent event with a known id is ignored.
 */
const id = z.string().min(1).max(128).regex(/^[A-Za-z0-9._:@/-]+$/, 'expected letters, digits and ._:@/-');
const count = z.number().int().min(0).max(1e12);
const time = z.iso.datetime({ offset: true });
const text = (max: number) => z.string().max(max);

const base = { id, time, agentId: id };

export const agentStartEvent = z.strictObject({
  ...base,
  type: z.literal('agent.start'),
  /** null for the main agent. */
  parentAgentId: id.nullable(),
  /** The tool call of the parent that spawned this agent (gen_ai.tool.call.id). */
  spawnedByToolCallId: id.nullable().optional(),
  name: text(200).optional(),
});

export const agentEndEvent = z.strictObject({
  ...base,
  type: z.literal('agent.end'),
  status: z.enum(['ok', 'error', 'killed']).default('ok'),
});

/** Usage as the provider reports it; normalised to disjoint kinds before pricing (metrics.md "Cost"). */
export const modelUsage = z.discriminatedUnion('style', [
  z.strictObject({ style: z.literal('openai'), inputTokens: count, cachedInputTokens: count.default(0), cacheWriteTokens: count.default(0), outputTokens: count, reasoningTokens: count.default(0) }),
  z.strictObject({ style: z.literal('anthropic'), inputTokens: count, cacheReadInputTokens: count.default(0), cacheCreationInputTokens: count.default(0), outputTokens: count, reasoningTokens: count.default(0) }),
]);

export const modelCallEvent = z.strictObject({
  ...base,
  type: z.literal('model.call'),
  provider: text(100),
  model: text(200),
  usage: modelUsage,
  durationMs: count,
});

export const toolCallEvent = z.strictObject({
  ...base,
  type: z.literal('tool.call'),
  toolCallId: id,
  kind: z.enum(['shell', 'edit', 'read', 'spawn', 'other']),
  /** The command line or tool name; long text belongs in `output`. */
  command: text(4_000).optional(),
  exitCode: z.number().int().nullable().optional(),
  durationMs: count,
  filesTouched: z.array(text(1_000)).max(1_000).optional(),
  /** Stored apart from the event rows that metrics read. */
  output: text(1_000_000).optional(),
});

export const fileWriteEvent = z.strictObject({
  ...base,
  type: z.literal('file.write'),
  path: text(1_000),
  bytes: count.optional(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
});

export const messageEvent = z.strictObject({
  ...base,
  type: z.literal('message'),
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  /** Stored apart from the event rows that metrics read. */
  text: text(1_000_000),
});

export const trajectoryEventSchema = z.discriminatedUnion('type', [agentStartEvent, agentEndEvent, modelCallEvent, toolCallEvent, fileWriteEvent, messageEvent]);

export type TrajectoryEvent = z.infer<typeof trajectoryEventSchema>;
export type ModelUsage = z.infer<typeof modelUsage>;
export const TRAJECTORY_EVENT_TYPES = ['agent.start', 'agent.end', 'model.call', 'tool.call', 'file.write', 'message'] as const;

/** Largest accepted events batch (bytes of NDJSON); bigger answers 413. */
export const MAX_EVENT_BATCH_BYTES = 5 * 1024 * 1024;
