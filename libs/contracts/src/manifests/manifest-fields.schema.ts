import { z } from 'zod';
import { allowedKeysMessage, formatManifestPath } from './manifest-error.util.js';

/*
 * Field schemas shared by the manifests. Convention: an error message that
 * starts with "expected " is the expected phrase, and the error mapper adds
 * ", got <received value>" (see manifest-error.util.ts).
 */

/** A strict object: an unknown key is an error that lists the allowed keys. */
export function manifestObject<S extends z.core.$ZodLooseShape>(shape: S, expected = 'a map') {
  const keys = Object.keys(shape);
  return z.strictObject(shape, {
    error: (issue) => (issue.code === 'unrecognized_keys' ? allowedKeysMessage(keys) : `expected ${expected}`),
  });
}

/**
 * Runs a cross-field check even when some fields failed, so that every
 * error is reported in one pass; but only on an object. The check then sees
 * values of any type, so it must read them with `fieldAt` and `listAt`.
 */
export const always = {
  when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value),
};

export const SLUG_PATTERN = /^[a-z0-9][a-z0-9._-]{0,62}$/;
const SLUG = 'expected a lowercase id (1 to 63 characters among a-z 0-9 . _ -, starting with a letter or digit)';

/** Ids and names of benchmarks, suites, tasks, agent configs and modes. */
export const slugSchema = z.string({ error: SLUG }).regex(SLUG_PATTERN, { error: SLUG });

/** A string with something other than white space in it. */
export function textSchema(max: number) {
  const phrase = `expected a non-empty string of at most ${max} characters`;
  return z
    .string({ error: phrase })
    .regex(/\S/, { error: phrase })
    .max(max, { error: phrase });
}

const VERSION = 'expected a version string such as "1.0.0" (quote it in YAML: version: "1.0")';

/** Benchmark versions: free-form but short and without spaces, e.g. "1.0.0", "2025-06", "v2". */
export const versionSchema = z.string({ error: VERSION }).regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,63}$/, { error: VERSION });

export const visibilitySchema = z.enum(['public', 'private']).default('private');

export const difficultySchema = z.enum(['easy', 'medium', 'hard']);

/** Where a relative path may not go: absolute, home-relative, Windows, URL, or out through "..". */
function relativePathProblem(path: string): boolean {
  if (path === '' || path.includes('\0') || path.includes('\\')) return true;
  if (path.startsWith('/') || path.startsWith('~') || /^[A-Za-z]:/.test(path) || /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(path)) return true;
  let depth = 0;
  for (const part of path.split('/')) {
    if (part === '..') depth -= 1;
    else if (part !== '' && part !== '.') depth += 1;
    if (depth < 0) return true;
  }
  return false;
}

/** A relative path with "/" separators that stays inside its base folder (the manifest's, or the workspace). */
export function relativePathSchema(what: string, base = "the manifest's folder") {
  const phrase = `expected ${what}: a relative path with "/" separators that stays inside ${base} (no leading "/", no ".." above it)`;
  return z.string({ error: phrase }).refine((path) => !relativePathProblem(path), { error: phrase });
}

// Docker's reference grammar, simplified: [host[:port]/]path[:tag][@digest].
const COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const IMAGE_PATTERN = new RegExp(
  `^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::[0-9]+)?/)?${COMPONENT}(?:/${COMPONENT})*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?(?:@sha256:[a-f0-9]{64})?$`,
);
const IMAGE = 'expected a container image reference such as "ghcr.io/org/image:tag" or "python:3.12-slim"';

export const imageSchema = z
  .string({ error: IMAGE })
  .max(255, { error: IMAGE })
  .regex(IMAGE_PATTERN, { error: IMAGE });

const COMMAND = 'expected a command: a non-empty string (run by a shell) or a non-empty list of arguments';

/** A shell command line, or an argv list run without a shell. */
export const commandSchema = z.union([z.string().regex(/\S/, { error: COMMAND }), z.array(z.string({ error: 'expected a string argument' })).min(1, { error: COMMAND })], {
  error: COMMAND,
});

export const ENV_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ENV_NAME = 'expected an environment variable name (letters, digits and "_", not starting with a digit)';

/** Environment variables; values must be strings, since YAML would otherwise turn `1` or `true` into numbers and booleans. */
export const envSchema = z.record(
  z.string().regex(ENV_NAME_PATTERN, { error: ENV_NAME }),
  z.string({ error: 'expected a string (quote numbers and booleans in YAML: "1", "true")' }),
  { error: 'expected a map of environment variable names to strings' },
);

/** Positive number of minutes, at most a day. */
export const minutesSchema = (() => {
  const phrase = 'expected a number of minutes in (0, 1440]';
  return z.number({ error: phrase }).gt(0, { error: phrase }).lte(24 * 60, { error: phrase });
})();

/**
 * An integer with the given phrase for every failure. Not `z.int()`: its
 * failure aborts the whole parse, which would hide the cross-field errors.
 */
export function integerSchema(phrase: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  const error = `expected ${phrase}`;
  return z
    .number({ error })
    .refine((n) => Number.isInteger(n), { error })
    .gte(min, { error })
    .lte(max, { error });
}

/**
 * Adds an error for each repeated value: `expected a unique suite id, got
 * "python" again (first at suites[0].id)`. `at` gives each value's path.
 */
export function reportDuplicates(
  ctx: z.core.$RefinementCtx,
  what: string,
  entries: ReadonlyArray<{ value: unknown; at: PropertyKey[] }>,
): void {
  const first = new Map<string, PropertyKey[]>();
  for (const { value, at } of entries) {
    if (typeof value !== 'string') continue;
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, at);
    else {
      ctx.addIssue({
        code: 'custom',
        path: at,
        message: `expected a unique ${what}, got ${JSON.stringify(value)} again (first at ${formatManifestPath(earlier)})`,
        input: undefined,
      });
    }
  }
}

/** Reads possibly invalid data in a check that runs whatever the other fields hold. */
export function listAt(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function fieldAt(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}
