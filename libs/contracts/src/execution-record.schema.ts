import { z } from 'zod';
import { isoToEpochMs } from './iso-time.util.js';

const name = z.string().min(1);
const count = z.int().nonnegative();
const isoDateTime = z.iso.datetime({ offset: true });

/** Token usage of one execution: inputTokens include cache reads and writes; outputTokens include reasoning. */
export const usageSchema = z.strictObject({
  inputTokens: count,
  cacheReadTokens: count,
  cacheWriteTokens: count,
  outputTokens: count,
  reasoningTokens: count,
});

/** One agent context: the main agent has parentId null; a sub-agent names the agent that spawned it. */
export const agentSpanSchema = z.strictObject({
  id: name,
  parentId: name.nullable(),
  start: isoDateTime,
  end: isoDateTime,
});

/**
 * One execution, one JSON object per line of a JSONL file: what metrics
 * consume and what users import. Unknown keys are rejected so that a typo
 * ("testPassed") cannot silently become a missing value.
 */
export const executionRecordSchema = z
  .strictObject({
    agent: name,
    model: name,
    benchmark: name,
    suite: name,
    task: name,
    difficulty: z.enum(['easy', 'medium', 'hard']),
    mode: name,
    repetition: count,
    outcome: z.enum(['completed', 'infra_failed']),
    testsPassed: count,
    testsTotal: count,
    resolved: z.boolean(),
    wallSeconds: z.number().nonnegative(),
    shellCalls: count,
    usage: usageSchema,
    costUsd: z.number().nonnegative(),
    referenceKloc: z.number().nonnegative().nullable().optional(),
    agents: z.array(agentSpanSchema).min(1),
  })
  .superRefine((record, ctx) => {
    const issue = (path: Array<string | number>, message: string): void => {
      ctx.addIssue({ code: 'custom', path, message, input: undefined });
    };
    if (record.testsPassed > record.testsTotal) {
      issue(['testsPassed'], `expected at most testsTotal (${record.testsTotal}), received ${record.testsPassed}`);
    }
    const { usage } = record;
    if (usage.cacheReadTokens + usage.cacheWriteTokens > usage.inputTokens) {
      issue(
        ['usage', 'cacheReadTokens'],
        `expected cacheReadTokens + cacheWriteTokens <= inputTokens (${usage.inputTokens}), which include them; received ${usage.cacheReadTokens} + ${usage.cacheWriteTokens}`,
      );
    }
    if (usage.reasoningTokens > usage.outputTokens) {
      issue(['usage', 'reasoningTokens'], `expected at most outputTokens (${usage.outputTokens}), which include them; received ${usage.reasoningTokens}`);
    }
    const mains = record.agents.filter((a) => a.parentId === null).length;
    if (mains !== 1) issue(['agents'], `expected exactly one main agent (parentId null), received ${mains}`);
    const parentOf = new Map<string, string | null>();
    record.agents.forEach((agent, i) => {
      const known = parentOf.get(agent.id);
      if (known !== undefined && known !== agent.parentId) {
        issue(['agents', i, 'parentId'], `expected ${JSON.stringify(known)} as on the earlier span of agent "${agent.id}", received ${JSON.stringify(agent.parentId)}`);
      } else {
        parentOf.set(agent.id, agent.parentId);
      }
    });
    record.agents.forEach((agent, i) => {
      if (agent.parentId !== null && !parentOf.has(agent.parentId)) {
        issue(['agents', i, 'parentId'], `expected the id of an agent in this execution, received "${agent.parentId}"`);
      }
      if (isoToEpochMs(agent.end) < isoToEpochMs(agent.start)) {
        issue(['agents', i, 'end'], `expected a time at or after start (${agent.start}), received ${agent.end}`);
      }
    });
  });

export type ExecutionRecord = z.infer<typeof executionRecordSchema>;
export type AgentSpanRecord = z.infer<typeof agentSpanSchema>;
export type UsageRecord = z.infer<typeof usageSchema>;
