import { z } from 'zod';
import { formatManifestPath } from './manifest-error.util.js';
import {
  always,
  commandSchema,
  envSchema,
  fieldAt,
  imageSchema,
  listAt,
  manifestObject,
  reportDuplicates,
  SLUG_PATTERN,
  slugSchema,
  textSchema,
} from './manifest-fields.schema.js';

export const SECRET_NAME_PATTERN = /^[A-Z_][A-Z0-9_]*$/;
const SECRET_NAME = 'expected a secret name in upper case (A-Z, 0-9 and "_", not starting with a digit)';
const MODE_NAME = 'expected a lowercase mode name (1 to 63 characters among a-z 0-9 . _ -, starting with a letter or digit)';

/** One mode: the toggles that switch the agent into it, added to the config's env and command. */
export const agentModeSchema = manifestObject(
  {
    description: textSchema(10_000).optional(),
    env: envSchema.optional(),
    /** Appended to the command's arguments. */
    args: z.array(z.string({ error: 'expected a string argument' }), { error: 'expected a list of arguments' }).optional(),
  },
  'a map (use {} for a mode without toggles)',
);

/** An agent config manifest (`fanout agent register FILE.yaml`, GraphQL `createAgentConfig`). */
export const agentConfigManifestSchema = manifestObject({
  name: slugSchema,
  description: textSchema(10_000).optional(),
  scaffold: z.enum(['codex', 'claude-code', 'kimi-code', 'custom']),
  model: textSchema(200),
  reasoningEffort: z.enum(['minimal', 'low', 'medium', 'high']).optional(),
  image: imageSchema.optional(),
  command: commandSchema,
  env: envSchema.optional(),
  modes: z
    .record(z.string().regex(SLUG_PATTERN, { error: MODE_NAME }), agentModeSchema, {
      error: 'expected a map of mode names to modes',
    })
    .refine((modes) => Object.keys(modes).length > 0, { error: 'expected at least one mode' }),
  /** Names of org secrets the runner injects as env vars; their values never appear in a manifest. */
  secrets: z.array(z.string({ error: SECRET_NAME }).regex(SECRET_NAME_PATTERN, { error: SECRET_NAME }), { error: 'expected a list of secret names' }).optional(),
}).check(
  z.superRefine((config, ctx) => {
    const secrets = listAt(config.secrets);
    reportDuplicates(
      ctx,
      'secret name',
      secrets.map((value, i) => ({ value, at: ['secrets', i] })),
    );
    // A secret also set in env would either leak its value into the manifest
    // or be shadowed by it; either way it is a mistake.
    const envs: Array<{ at: PropertyKey[]; env: unknown }> = [{ at: ['env'], env: config.env }];
    const modes = fieldAt(config, 'modes');
    if (typeof modes === 'object' && modes !== null) {
      for (const [name, mode] of Object.entries(modes)) envs.push({ at: ['modes', name, 'env'], env: fieldAt(mode, 'env') });
    }
    const checked = new Set<string>();
    secrets.forEach((secret, i) => {
      if (typeof secret !== 'string' || checked.has(secret)) return;
      checked.add(secret);
      const where = envs.find(({ env }) => typeof env === 'object' && env !== null && Object.hasOwn(env, secret));
      if (where === undefined) return;
      ctx.addIssue({
        code: 'custom',
        path: ['secrets', i],
        message: `expected a secret name that is not also set in env, got ${JSON.stringify(secret)} (set in ${formatManifestPath(where.at)})`,
        input: undefined,
      });
    });
  }, always),
);

export type AgentConfigManifest = z.infer<typeof agentConfigManifestSchema>;
export type AgentModeManifest = z.infer<typeof agentModeSchema>;
