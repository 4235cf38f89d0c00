/** One annotated item: the patterns the detectors suggested and its final (adjudicated or agreed) labels. */
export interface SuggestionAccuracyItem {
  itemId: string;
  suggested: readonly string[];
  final: readonly string[];
}

export interface AccuracyCounts {
  /** Items where the pattern was suggested and is a final label. */
  truePositives: number;
  /** Suggested, not a final label. */
  falsePositives: number;
  /** A final label that was not suggested. */
  falseNegatives: number;
  /** TP / (TP + FP); null when nothing was suggested. */
  precision: number | null;
  /** TP / (TP + FN); null when no final label has the pattern. */
  recall: number | null;
  /** (item, pattern) cells: items for one pattern, items x patterns pooled. */
  n: number;
}

export interface PatternAccuracy extends AccuracyCounts {
  pattern: string;
}

export interface SuggestionAccuracy {
  /** One row per pattern, in the order given. */
  patterns: PatternAccuracy[];
  /** Micro-average: the counts summed over the patterns, precision and recall from the sums. */
  pooled: AccuracyCounts;
}

/**
 * Precision and recall of pre-annotation suggestions against final labels
 * (metrics.md "Suggestion accuracy"). Each (item, pattern) cell is present or
 * absent on each side: a pattern suggested several times on one item (one
 * suggestion per file, say) counts once, and labels of patterns outside
 * `patterns` (no detector for them, "no failure") are ignored. True negatives
 * are not counted: precision and recall do not use them.
 */
export function suggestionAccuracy(items: readonly SuggestionAccuracyItem[], patterns: readonly string[]): SuggestionAccuracy {
  if (new Set(patterns).size !== patterns.length) throw new RangeError(`suggestion accuracy: patterns must be distinct, got ${patterns.join(', ')}`);
  const seen = new Set<string>();
  for (const item of items) {
    if (seen.has(item.itemId)) throw new RangeError(`suggestion accuracy: item ${item.itemId} appears twice`);
    seen.add(item.itemId);
  }
  const sets = items.map((item) => ({ suggested: new Set(item.suggested), final: new Set(item.final) }));
  const rows = patterns.map((pattern): PatternAccuracy => {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    for (const { suggested, final } of sets) {
      const s = suggested.has(pattern);
      const f = final.has(pattern);
      if (s && f) tp++;
      else if (s) fp++;
      else if (f) fn++;
    }
    return { pattern, ...counts(tp, fp, fn, items.length) };
  });
  const sum = (pick: (row: PatternAccuracy) => number) => rows.reduce((total, row) => total + pick(row), 0);
  return {
    patterns: rows,
    pooled: counts(
      sum((r) => r.truePositives),
      sum((r) => r.falsePositives),
      sum((r) => r.falseNegatives),
      items.length * patterns.length,
    ),
  };
}

function counts(tp: number, fp: number, fn: number, n: number): AccuracyCounts {
  return {
    truePositives: tp,
    falsePositives: fp,
    falseNegatives: fn,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp + fn === 0 ? null : tp / (tp + fn),
    n,
  };
}
