export interface KappaResult {
  n: number;
  /** Observed agreement. */
  po: number | null;
  /** Agreement expected by chance from the two marginals. */
  pe: number | null;
  /** (po - pe) / (1 - pe); null when n = 0 or pe = 1 (both raters constant and equal). */
  kappa: number | null;
}

/** Cohen's kappa for two raters over the same items, any nominal labels. */
export function cohenKappa<L>(first: readonly L[], second: readonly L[]): KappaResult {
  if (first.length !== second.length) {
    throw new RangeError(`kappa: the raters labelled ${first.length} and ${second.length} items`);
  }
  const n = first.length;
  if (n === 0) return { n, po: null, pe: null, kappa: null };
  const counts1 = new Map<L, number>();
  const counts2 = new Map<L, number>();
  let agree = 0;
  for (let i = 0; i < n; i++) {
    const a = first[i] as L;
    const b = second[i] as L;
    if (a === b) agree++;
    counts1.set(a, (counts1.get(a) ?? 0) + 1);
    counts2.set(b, (counts2.get(b) ?? 0) + 1);
  }
  let pe = 0;
  for (const [label, c1] of counts1) pe += (c1 / n) * ((counts2.get(label) ?? 0) / n);
  const po = agree / n;
  return { n, po, pe, kappa: pe === 1 ? null : (po - pe) / (1 - pe) };
}

/** A 2x2 present/absent agreement table. */
export interface BinaryTable {
  bothPresent: number;
  firstOnly: number;
  secondOnly: number;
  bothAbsent: number;
}

export interface BinaryKappa extends KappaResult {
  /** Share of present labels over both raters: (present by 1 + present by 2) / 2n. */
  prevalence: number | null;
}

export function kappaFromTable(table: BinaryTable): BinaryKappa {
  const { bothPresent, firstOnly, secondOnly, bothAbsent } = table;
  const n = bothPresent + firstOnly + secondOnly + bothAbsent;
  if (n === 0) return { n, po: null, pe: null, kappa: null, prevalence: null };
  const p1 = (bothPresent + firstOnly) / n;
  const p2 = (bothPresent + secondOnly) / n;
  const po = (bothPresent + bothAbsent) / n;
  const pe = p1 * p2 + (1 - p1) * (1 - p2);
  return { n, po, pe, kappa: pe === 1 ? null : (po - pe) / (1 - pe), prevalence: (p1 + p2) / 2 };
}

export interface CodebookPattern {
  pattern: string;
  subcategory: string;
  category: string;
}

/** One trajectory's two independent, pre-adjudication label sets (annotator slot 1 and slot 2). */
export interface DoublyAnnotatedTrajectory {
  trajectoryId: string;
  slot1: readonly string[];
  slot2: readonly string[];
}

export type TaxonomyLevel = 'pattern' | 'subcategory' | 'category';

export interface KappaRow extends BinaryKappa {
  level: TaxonomyLevel;
  key: string;
}

export interface AnnotationAgreement {
  perPattern: KappaRow[];
  perSubcategory: KappaRow[];
  perCategory: KappaRow[];
  /** Over all (trajectory, node) cells of the codebook at each level. */
  pooled: Record<TaxonomyLevel, BinaryKappa>;
}

function emptyTable(): BinaryTable {
  return { bothPresent: 0, firstOnly: 0, secondOnly: 0, bothAbsent: 0 };
}

function levelKey(entry: CodebookPattern, level: TaxonomyLevel): string {
  if (level === 'pattern') return entry.pattern;
  if (level === 'subcategory') return `${entry.category} / ${entry.subcategory}`;
  return entry.category;
}

/**
 * Cohen's kappa per pattern (present/absent per trajectory, slot 1 vs slot 2),
 * pooled over all cells, and the same after collapsing labels to subcategory
 * and category (a node is present when any of its patterns is).
 */
export function annotationAgreement(
  codebook: readonly CodebookPattern[],
  trajectories: readonly DoublyAnnotatedTrajectory[],
): AnnotationAgreement {
  const byPattern = new Map(codebook.map((entry) => [entry.pattern, entry]));
  const levels: TaxonomyLevel[] = ['pattern', 'subcategory', 'category'];
  const result = { pooled: {} } as AnnotationAgreement;
  for (const level of levels) {
    const keys = [...new Set(codebook.map((entry) => levelKey(entry, level)))];
    const tables = new Map(keys.map((key) => [key, emptyTable()]));
    const collapse = (labels: readonly string[], trajectoryId: string): Set<string> =>
      new Set(
        labels.map((label) => {
          const entry = byPattern.get(label);
          if (!entry) throw new RangeError(`kappa: trajectory ${trajectoryId} has label "${label}", which is not in the codebook`);
          return levelKey(entry, level);
        }),
      );
    for (const trajectory of trajectories) {
      const first = collapse(trajectory.slot1, trajectory.trajectoryId);
      const second = collapse(trajectory.slot2, trajectory.trajectoryId);
      for (const [key, table] of tables) {
        const a = first.has(key);
        const b = second.has(key);
        if (a && b) table.bothPresent++;
        else if (a) table.firstOnly++;
        else if (b) table.secondOnly++;
        else table.bothAbsent++;
      }
    }
    const pooledTable = emptyTable();
    const rows: KappaRow[] = [];
    for (const [key, table] of tables) {
      rows.push({ level, key, ...kappaFromTable(table) });
      pooledTable.bothPresent += table.bothPresent;
      pooledTable.firstOnly += table.firstOnly;
      pooledTable.secondOnly += table.secondOnly;
      pooledTable.bothAbsent += table.bothAbsent;
    }
    result.pooled[level] = kappaFromTable(pooledTable);
    if (level === 'pattern') result.perPattern = rows;
    else if (level === 'subcategory') result.perSubcategory = rows;
    else result.perCategory = rows;
  }
  return result;
}
