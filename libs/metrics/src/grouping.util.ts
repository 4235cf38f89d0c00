/** Groups items by a string key, keeping first-seen order of keys and input order within a group. */
export function groupBy<T>(items: Iterable<T>, keyOf: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** Joins key parts with a separator that cannot appear in ordinary identifiers. */
export function compositeKey(...parts: ReadonlyArray<string | number>): string {
  return parts.join('\u001f');
}

/**
 * The canonical order of executions: agent, benchmark, suite, task,
 * repetition, mode. Views sort by it before summing, so floating-point sums
 * come out bit-identical whatever the input's order, and identical between
 * views that group the same executions.
 */
export function compareExecutions(
  x: { agent: string; benchmark: string; suite: string; task: string; repetition: number; mode: string },
  y: { agent: string; benchmark: string; suite: string; task: string; repetition: number; mode: string },
): number {
  return (
    compareStrings(x.agent, y.agent) ||
    compareStrings(x.benchmark, y.benchmark) ||
    compareStrings(x.suite, y.suite) ||
    compareStrings(x.task, y.task) ||
    x.repetition - y.repetition ||
    compareStrings(x.mode, y.mode)
  );
}

/** Plain code-unit string comparison: the same order on every machine and locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
