import type { z } from 'zod';

/**
 * Validates environment variables with a schema. An empty variable counts as
 * unset (`DATABASE_URL= npm start`). On failure: one line per bad variable,
 * naming it, what was expected and what was received (never a secret's value).
 */
export function parseEnvironment<T>(
  schema: z.ZodType<T>,
  env: NodeJS.ProcessEnv,
  secrets: ReadonlySet<string>,
): { ok: true; value: T } | { ok: false; problems: string[] } {
  const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(given);
  if (parsed.success) return { ok: true, value: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => {
      const name = String(issue.path[0]);
      const got = given[name];
      const shown = got === undefined ? ' (not set)' : secrets.has(name) ? '' : ` (got ${JSON.stringify(got)})`;
      return `  ${name}: ${issue.message}${shown}`;
    }),
  };
}
