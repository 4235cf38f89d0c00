/**
 * Holm step-down adjustment over one family of m tests, returned in input
 * order: sort raw p ascending p(1) <= ... <= p(m); adjusted p(i) = max over
 * j <= i of min(1, (m - j + 1) p(j)). Ties keep input order (stable sort),
 * which cannot change the adjusted values.
 *
 * A `null` p (a test that could not be computed, e.g. a constant variable)
 * still belongs to the family: it counts as p = 1, so the family is the one
 * declared up front rather than whatever happened to be computable, and its
 * own adjusted value is null.
 */
export function holm(pValues: ReadonlyArray<number | null>): Array<number | null> {
  const m = pValues.length;
  const order = pValues.map((_, i) => i);
  const raw = pValues.map((p) => (p === null ? 1 : p));
  for (const p of raw) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`holm: p-values must be in [0, 1], got ${p}`);
  }
  order.sort((a, b) => raw[a]! - raw[b]! || a - b);
  const adjusted = new Array<number | null>(m).fill(null);
  let running = 0;
  order.forEach((index, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * raw[index]!));
    adjusted[index] = pValues[index] === null ? null : running;
  });
  return adjusted;
}

/** One member of a family of tests corrected together. */
export interface FamilyMember<K> {
  key: K;
  p: number | null;
}

/** Holm over an explicit family: each member gets its adjusted p. */
export function holmFamily<K>(members: ReadonlyArray<FamilyMember<K>>): Array<FamilyMember<K> & { pAdjusted: number | null }> {
  const adjusted = holm(members.map((m) => m.p));
  return members.map((member, i) => ({ ...member, pAdjusted: adjusted[i] ?? null }));
}
