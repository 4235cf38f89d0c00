import type { z } from 'zod';

/** One problem in a manifest: where it is and what was expected instead. */
export interface ManifestError {
  /** YAML path of the offending value, e.g. `suites[1].tasks[4].difficulty`; `(root)` for the document itself, `(yaml)` for a syntax error. */
  path: string;
  /** What was expected and what was received, e.g. `expected easy|medium|hard, got "HARD"`. */
  message: string;
  /** 1-based line of the offending node, when the manifest was parsed from YAML text. */
  line?: number;
  /** 1-based column; only YAML syntax errors carry one. */
  column?: number;
}

export type ManifestResult<T> = { ok: true; value: T } | { ok: false; errors: ManifestError[] };

/** An error whose path is still a list of segments, so that a YAML node can be looked up for it. */
export interface RawManifestError {
  segments: PropertyKey[];
  message: string;
}

const ALLOWED_KEYS = 'allowed keys: ';

/**
 * Message of a strict object's `unrecognized_keys` issue. The issue itself
 * does not carry the object's keys, so the schema puts them in the message
 * and `issueToErrors` reads them back to list them and suggest a spelling.
 */
export function allowedKeysMessage(keys: readonly string[]): string {
  return `${ALLOWED_KEYS}${keys.join(', ')}`;
}

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `suites[1].tasks[4].difficulty`; keys that would read ambiguously are quoted: `modes["v1.2"].env`. */
export function formatManifestPath(segments: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of segments) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else {
      const key = String(segment);
      if (!PLAIN_KEY.test(key)) text += `[${JSON.stringify(key)}]`;
      else text += text === '' ? key : `.${key}`;
    }
  }
  return text === '' ? '(root)' : text;
}

/** What was received, short enough for one line: strings JSON-quoted, collections summarised. */
export function describeReceived(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    if (value.length <= 40) return JSON.stringify(value);
    return `${JSON.stringify(value.slice(0, 37))}... (${value.length} characters)`;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? 'an empty list' : `a list of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value instanceof Uint8Array) return 'binary data';
  if (value instanceof Date) return 'a timestamp';
  if (value instanceof Set) return 'a set';
  if (value instanceof Map) return 'an ordered map';
  if (typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 0) return 'an empty map';
    const shown = keys.slice(0, 5).join(', ');
    return `a map with key${keys.length === 1 ? '' : 's'} ${shown}${keys.length > 5 ? ', ...' : ''}`;
  }
  return typeof value;
}

const TYPE_PHRASES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'true or false',
  object: 'a map',
  record: 'a map',
  array: 'a list',
};

function sizePhrase(origin: string, bound: number | bigint, kind: 'min' | 'max', inclusive: boolean): string {
  const n = Number(bound);
  if (origin === 'array') {
    if (kind === 'min') return n === 1 ? 'a non-empty list' : `a list of at least ${n} items`;
    return `a list of at most ${n} items`;
  }
  if (origin === 'string') {
    if (kind === 'min') return n === 1 ? 'a non-empty string' : `a string of at least ${n} characters`;
    return `a string of at most ${n} characters`;
  }
  const noun = origin === 'int' ? 'an integer' : 'a number';
  if (kind === 'min') return inclusive ? `${noun} >= ${n}` : `${noun} greater than ${n}`;
  return inclusive ? `${noun} <= ${n}` : `${noun} less than ${n}`;
}

/**
 * The "expected ..." part of a message. Schemas in this folder give their
 * own phrase as an error message starting with "expected " (e.g.
 * `expected a number in (0, 1]`); zod's default messages never do, so any
 * other message is replaced by a phrase built from the issue.
 */
function expectedPhrase(issue: z.core.$ZodIssue): string {
  if (issue.message.startsWith('expected ')) return issue.message.slice('expected '.length);
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_PHRASES[issue.expected] ?? `a value of type ${issue.expected}`;
    case 'invalid_value':
      return issue.values.map((v) => String(v)).join('|');
    case 'too_small':
      return sizePhrase(issue.origin, issue.minimum, 'min', issue.inclusive !== false);
    case 'too_big':
      return sizePhrase(issue.origin, issue.maximum, 'max', issue.inclusive !== false);
    case 'invalid_format':
      return issue.pattern !== undefined ? `a string matching ${issue.pattern}` : `a valid ${issue.format}`;
    case 'not_multiple_of':
      return `a multiple of ${issue.divisor}`;
    default:
      return 'a valid value';
  }
}

function closest(key: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(key.toLowerCase(), candidate.toLowerCase());
    // At most two edits, and fewer than half the key: "x" is no typo of "id".
    if (d <= 2 && d < key.length / 2 && d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

function mismatch(issue: z.core.$ZodIssue): string {
  if (issue.input === undefined) return `missing required field (expected ${expectedPhrase(issue)})`;
  return `expected ${expectedPhrase(issue)}, got ${describeReceived(issue.input)}`;
}

/** Turns one zod issue (from a parse with `reportInput: true`) into one or more errors with full paths. */
export function issueToErrors(issue: z.core.$ZodIssue, base: readonly PropertyKey[] = []): RawManifestError[] {
  const segments = [...base, ...issue.path];
  const input = issue.input;
  switch (issue.code) {
    case 'unrecognized_keys': {
      const allowed = issue.message.startsWith(ALLOWED_KEYS) ? issue.message.slice(ALLOWED_KEYS.length).split(', ') : [];
      return issue.keys.map((key) => {
        const suggestion = closest(key, allowed);
        const hint = suggestion === undefined ? '' : ` (did you mean "${suggestion}"?)`;
        const list = allowed.length > 0 ? `; ${allowedKeysMessage(allowed)}` : '';
        return { segments: [...segments, key], message: `unknown key ${JSON.stringify(key)}${hint}${list}` };
      });
    }
    case 'invalid_key':
      // A record key failed its schema: report the inner issues at the key itself.
      return issue.issues.flatMap((inner) => issueToErrors(inner, segments));
    case 'invalid_union': {
      // Drill into the one branch whose shape matched (e.g. a list of
      // strings with one number in it) rather than saying "invalid input".
      const viable = issue.errors.filter((branch) => !branch.every((i) => i.code === 'invalid_type' && i.path.length === 0));
      if (viable.length === 1) return viable[0]!.flatMap((inner) => issueToErrors(inner, segments));
      return [{ segments, message: mismatch(issue) }];
    }
    case 'custom':
      // Cross-field checks write whole messages; refinements of one value give an "expected" phrase.
      if (input !== undefined && issue.message.startsWith('expected ')) return [{ segments, message: `${issue.message}, got ${describeReceived(input)}` }];
      return [{ segments, message: issue.message }];
    default:
      return [{ segments, message: mismatch(issue) }];
  }
}

/** Validates a plain value (e.g. a GraphQL JSON input): errors carry paths but no lines. */
export function validateManifest<T>(value: unknown, schema: z.ZodType<T>): ManifestResult<T> {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (parsed.success) return { ok: true, value: parsed.data };
  const errors = parsed.error.issues.flatMap((issue) => issueToErrors(issue));
  return { ok: false, errors: errors.map((e) => ({ path: formatManifestPath(e.segments), message: e.message })) };
}

/** One line per error: `benchmark.yaml:12: suites[1].tasks[4].difficulty: expected easy|medium|hard, got "HARD"`. */
export function formatManifestErrors(errors: readonly ManifestError[], fileName?: string): string {
  return errors
    .map((error) => {
      const position = error.line === undefined ? undefined : error.column === undefined ? `${error.line}` : `${error.line}:${error.column}`;
      let where: string;
      if (fileName !== undefined) where = position === undefined ? `${fileName}: ` : `${fileName}:${position}: `;
      else if (error.line === undefined) where = '';
      else where = error.column === undefined ? `line ${error.line}: ` : `line ${error.line}, column ${error.column}: `;
      return `${where}${error.path}: ${error.message}`;
    })
    .join('\n');
}
