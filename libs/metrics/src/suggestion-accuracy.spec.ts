import { describe, expect, it } from 'vitest';
import { suggestionAccuracy } from './suggestion-accuracy.js';

const P = ['concurrent_writes', 'fanout_budget_exhaustion', 'premature_termination'];

describe('suggestionAccuracy', () => {
  // Five items; counts per pattern worked out by hand:
  //   concurrent_writes:        suggested i1 i2 i3, final i1 i2 i4   -> TP 2, FP 1 (i3), FN 1 (i4)
  //   fanout_budget_exhaustion: suggested i2,       final none       -> TP 0, FP 1, FN 0
  //   premature_termination:    suggested none,     final i5         -> TP 0, FP 0, FN 1
  // pooled: TP 2, FP 2, FN 2 over 15 cells.
  const items = [
    { itemId: 'i1', suggested: ['concurrent_writes', 'concurrent_writes'], final: ['concurrent_writes'] },
    { itemId: 'i2', suggested: ['concurrent_writes', 'fanout_budget_exhaustion'], final: ['concurrent_writes', 'load_imbalance'] },
    { itemId: 'i3', suggested: ['concurrent_writes'], final: ['no_failure'] },
    { itemId: 'i4', suggested: [], final: ['concurrent_writes'] },
    { itemId: 'i5', suggested: [], final: ['premature_termination'] },
  ];

  it.each([
    { pattern: 'concurrent_writes', truePositives: 2, falsePositives: 1, falseNegatives: 1, precision: 2 / 3, recall: 2 / 3, n: 5 },
    { pattern: 'fanout_budget_exhaustion', truePositives: 0, falsePositives: 1, falseNegatives: 0, precision: 0, recall: null, n: 5 },
    { pattern: 'premature_termination', truePositives: 0, falsePositives: 0, falseNegatives: 1, precision: null, recall: 0, n: 5 },
  ])('$pattern: TP $truePositives, FP $falsePositives, FN $falseNegatives', (expected) => {
    const row = suggestionAccuracy(items, P).patterns.find((r) => r.pattern === expected.pattern);
    expect(row).toEqual(expected);
  });

  it('pools by summing the counts (micro-average), in the order of the patterns given', () => {
    const result = suggestionAccuracy(items, P);
    expect(result.patterns.map((r) => r.pattern)).toEqual(P);
    expect(result.pooled).toEqual({ truePositives: 2, falsePositives: 2, falseNegatives: 2, precision: 0.5, recall: 0.5, n: 15 });
  });

  it('ignores labels and suggestions of patterns outside the list', () => {
    const result = suggestionAccuracy([{ itemId: 'a', suggested: ['other'], final: ['other', 'concurrent_writes'] }], ['concurrent_writes']);
    expect(result.pooled).toEqual({ truePositives: 0, falsePositives: 0, falseNegatives: 1, precision: null, recall: 0, n: 1 });
  });

  it('is empty but well-formed with no items', () => {
    expect(suggestionAccuracy([], P).pooled).toEqual({ truePositives: 0, falsePositives: 0, falseNegatives: 0, precision: null, recall: null, n: 0 });
  });

  it('refuses an item counted twice and repeated patterns', () => {
    expect(() => suggestionAccuracy([items[0], items[0]], P)).toThrow(/i1 appears twice/);
    expect(() => suggestionAccuracy(items, ['a', 'a'])).toThrow(/distinct/);
  });
});
