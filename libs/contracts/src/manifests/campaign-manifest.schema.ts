import { z } from 'zod';
import {
  always,
  fieldAt,
  integerSchema,
  listAt,
  manifestObject,
  minutesSchema,
  reportDuplicates,
  slugSchema,
  textSchema,
  versionSchema,
  visibilitySchema,
} from './manifest-fields.schema.js';

const FRACTION = 'expected a number in (0, 1]';
const EXACTLY_ONE = 'expected exactly one of fraction or tasks';
const BUDGET = 'expected a number greater than 0';

/** One agent config of the study, pinned to a version or (absent) its latest one. */
export const campaignAgentSchema = manifestObject({
  config: slugSchema,
  version: integerSchema('a positive integer (an agent config version)', 1).optional(),
});

/**
 * One benchmark (or one suite of it) and how to sample it: a fraction,
 * stratified by difficulty and seeded (metrics.md "Sampling"), or an
 * explicit list of task ids. Exactly one of the two.
 */
export const campaignBenchmarkSchema = manifestObject({
  id: slugSchema,
  version: versionSchema.optional(),
  suite: slugSchema.optional(),
  fraction: z.number({ error: FRACTION }).gt(0, { error: FRACTION }).lte(1, { error: FRACTION }).optional(),
  tasks: z.array(slugSchema, { error: 'expected a list of task ids' }).min(1, { error: 'expected a non-empty list of task ids' }).optional(),
}).check(
  z.superRefine((entry, ctx) => {
    if ((entry.fraction === undefined) === (entry.tasks === undefined)) {
      ctx.addIssue({ code: 'custom', path: [], message: EXACTLY_ONE, input: undefined });
    }
  }, always),
);

/** A campaign (`fanout campaign create FILE.yaml`, GraphQL `planCampaign` / `createCampaign`). */
export const campaignManifestSchema = manifestObject({
  name: textSchema(120),
  description: textSchema(10_000).optional(),
  agents: z.array(campaignAgentSchema, { error: 'expected a list of agent configs' }).min(1, { error: 'expected a non-empty list of agent configs' }),
  modes: z.array(slugSchema, { error: 'expected a list of mode names' }).min(1, { error: 'expected a non-empty list of mode names' }),
  benchmarks: z.array(campaignBenchmarkSchema, { error: 'expected a list of benchmarks' }).min(1, { error: 'expected a non-empty list of benchmarks' }),
  repetitions: integerSchema('an integer from 1 to 100', 1, 100).default(1),
  seed: integerSchema('an integer').default(0),
  /** Overrides every task's own time budget. */
  timeBudgetMinutes: minutesSchema.optional(),
  budgetUsd: z.number({ error: BUDGET }).gt(0, { error: BUDGET }),
  maxConcurrency: integerSchema('an integer from 1 to 1000', 1, 1000).default(4),
  visibility: visibilitySchema,
}).check(
  z.superRefine((campaign, ctx) => {
    reportDuplicates(
      ctx,
      'mode',
      listAt(campaign.modes).map((value, i) => ({ value, at: ['modes', i] })),
    );
    const agentKey = (agent: unknown): unknown => {
      const config = fieldAt(agent, 'config');
      const version = fieldAt(agent, 'version');
      return typeof config === 'string' ? `${config}${version === undefined ? '' : ` version ${String(version)}`}` : undefined;
    };
    reportDuplicates(
      ctx,
      'agent config (and version)',
      listAt(campaign.agents).map((agent, i) => ({ value: agentKey(agent), at: ['agents', i] })),
    );
    listAt(campaign.benchmarks).forEach((entry, i) => {
      reportDuplicates(
        ctx,
        'task id',
        listAt(fieldAt(entry, 'tasks')).map((value, j) => ({ value, at: ['benchmarks', i, 'tasks', j] })),
      );
    });
    // The same benchmark twice would sample its tasks twice: allowed only for
    // distinct suites (or distinct pinned versions), and never next to a
    // whole-benchmark entry. An absent version (latest) may be any version.
    const benchmarks = listAt(campaign.benchmarks);
    const overlaps = (a: unknown, b: unknown, key: string): boolean => {
      const x = fieldAt(a, key);
      const y = fieldAt(b, key);
      return x === undefined || y === undefined || x === y;
    };
    benchmarks.forEach((entry, i) => {
      const id = fieldAt(entry, 'id');
      if (typeof id !== 'string') return;
      const suite = fieldAt(entry, 'suite');
      const j = benchmarks.findIndex((other, k) => k < i && fieldAt(other, 'id') === id && overlaps(entry, other, 'version') && overlaps(entry, other, 'suite'));
      if (j === -1) return;
      const what = typeof suite === 'string' ? `${JSON.stringify(id)} suite ${JSON.stringify(suite)}` : JSON.stringify(id);
      ctx.addIssue({
        code: 'custom',
        path: ['benchmarks', i],
        message: `expected each benchmark or suite once, got ${what} again (overlaps benchmarks[${j}])`,
        input: undefined,
      });
    });
  }, always),
);

export type CampaignManifest = z.infer<typeof campaignManifestSchema>;
export type CampaignAgentManifest = z.infer<typeof campaignAgentSchema>;
export type CampaignBenchmarkManifest = z.infer<typeof campaignBenchmarkSchema>;
