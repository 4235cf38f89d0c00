import { describe, expect, it } from 'vitest';
import kappaFixture from '../../../test/fixtures/metrics/kappa.json' with { type: 'json' };
import { annotationAgreement, cohenKappa, kappaFromTable, type CodebookPattern } from './kappa.js';

const close = (actual: number, expected: number): boolean =>
  Math.abs(actual - expected) <= 1e-9 * Math.max(Math.abs(actual), Math.abs(expected));

describe('cohenKappa', () => {
  it.each(kappaFixture.cases.map((c, i) => ({ ...c, i })))('matches sklearn cohen_kappa_score (case $i)', ({ a, b, kappa }) => {
    expect(close(cohenKappa<string | number>(a, b).kappa!, kappa)).toBe(true);
  });

  it('is null when pe = 1 (both raters gave one and the same label) and for no items', () => {
    expect(cohenKappa([1, 1, 1], [1, 1, 1]).kappa).toBeNull();
    expect(cohenKappa([], []).kappa).toBeNull();
  });
});

describe('kappaFromTable', () => {
  it('computes po, pe, kappa and prevalence by hand', () => {
    // 20 both, 5 first only, 10 second only, 65 neither: po = .85, p1 = .25, p2 = .30
    const result = kappaFromTable({ bothPresent: 20, firstOnly: 5, secondOnly: 10, bothAbsent: 65 });
    const pe = 0.25 * 0.3 + 0.75 * 0.7;
    expect(result.n).toBe(100);
    expect(result.po).toBeCloseTo(0.85, 12);
    expect(result.pe).toBeCloseTo(pe, 12);
    expect(result.kappa).toBeCloseTo((0.85 - pe) / (1 - pe), 12);
    expect(result.prevalence).toBeCloseTo(0.275, 12);
  });
});

describe('annotationAgreement', () => {
  const codebook: CodebookPattern[] = [
    { pattern: 'no-failure', subcategory: 'none', category: 'none' },
    { pattern: 'lost-context', subcategory: 'memory', category: 'coordination' },
    { pattern: 'duplicate-work', subcategory: 'memory', category: 'coordination' },
    { pattern: 'wrong-test', subcategory: 'verification', category: 'execution' },
  ];
  const trajectories = [
    { trajectoryId: 't1', slot1: ['lost-context'], slot2: ['duplicate-work'] },
    { trajectoryId: 't2', slot1: ['no-failure'], slot2: ['no-failure'] },
    { trajectoryId: 't3', slot1: ['wrong-test', 'lost-context'], slot2: ['wrong-test'] },
    { trajectoryId: 't4', slot1: ['no-failure'], slot2: ['wrong-test'] },
  ];

  it('gives per-pattern kappa with n and prevalence', () => {
    const result = annotationAgreement(codebook, trajectories);
    const lost = result.perPattern.find((row) => row.key === 'lost-context')!;
    // slot1 present on t1, t3; slot2 never: po = 2/4, p1 = .5, p2 = 0, pe = .5 -> kappa 0
    expect(lost).toMatchObject({ level: 'pattern', n: 4, po: 0.5, pe: 0.5, kappa: 0, prevalence: 0.25 });
    const duplicate = result.perPattern.find((row) => row.key === 'duplicate-work')!;
    expect(duplicate.kappa).toBeCloseTo(0, 12);
  });

  it('rolls up by collapsing labels: lost-context vs duplicate-work agree at subcategory level', () => {
    const result = annotationAgreement(codebook, trajectories);
    const memory = result.perSubcategory.find((row) => row.key === 'coordination / memory')!;
    // slot1: t1, t3 ; slot2: t1 -> po = 3/4, p1 = .5, p2 = .25, pe = .125 + .375 = .5 -> kappa .5
    expect(memory.po).toBe(0.75);
    expect(memory.kappa).toBeCloseTo(0.5, 12);
    expect(result.perCategory.map((row) => row.key)).toEqual(['none', 'coordination', 'execution']);
  });

  it('pools all (trajectory, pattern) cells', () => {
    const result = annotationAgreement(codebook, trajectories);
    expect(result.pooled.pattern.n).toBe(16);
    const table = { bothPresent: 2, firstOnly: 3, secondOnly: 2, bothAbsent: 9 };
    expect(result.pooled.pattern.kappa).toBeCloseTo(kappaFromTable(table).kappa!, 12);
  });

  it('refuses a label that is not in the codebook', () => {
    expect(() => annotationAgreement(codebook, [{ trajectoryId: 'x', slot1: ['nope'], slot2: [] }])).toThrow(/not in the codebook/);
  });
});
