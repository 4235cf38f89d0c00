import { describe, expect, it } from 'vitest';
import { describeReceived, formatManifestErrors, formatManifestPath } from './manifest-error.util.js';

describe('formatManifestPath', () => {
  it.each([
    [[], '(root)'],
    [['budgetUsd'], 'budgetUsd'],
    [['suites', 1, 'tasks', 4, 'difficulty'], 'suites[1].tasks[4].difficulty'],
    [['modes', 'fast-lane', 'env', 'MULTI_AGENT'], 'modes.fast-lane.env.MULTI_AGENT'],
    [['modes', 'v1.2', 'env'], 'modes["v1.2"].env'],
    [['env', 'has space'], 'env["has space"]'],
    [['env', '1X'], 'env["1X"]'],
    [[0, 'a'], '[0].a'],
  ] as const)('%j -> %s', (segments, expected) => {
    expect(formatManifestPath(segments)).toBe(expected);
  });
});

describe('describeReceived', () => {
  it.each([
    [undefined, 'nothing'],
    [null, 'null'],
    ['HARD', '"HARD"'],
    ['say "hi"', '"say \\"hi\\""'],
    ['x'.repeat(40), `"${'x'.repeat(40)}"`],
    ['x'.repeat(41), `"${'x'.repeat(37)}"... (41 characters)`],
    [1.5, '1.5'],
    [-5, '-5'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    [true, 'true'],
    [[], 'an empty list'],
    [['a'], 'a list of 1 item'],
    [[1, 2, 3], 'a list of 3 items'],
    [{}, 'an empty map'],
    [{ run: 1 }, 'a map with key run'],
    [{ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6 }, 'a map with keys a, b, c, d, e, ...'],
    [new Uint8Array([1]), 'binary data'],
  ])('%j -> %s', (value, expected) => {
    expect(describeReceived(value)).toBe(expected);
  });
});

describe('formatManifestErrors', () => {
  const errors = [
    { path: '(yaml)', message: 'invalid YAML: Map keys must be unique', line: 3, column: 1 },
    { path: 'suites[1].tasks[4].difficulty', message: 'expected easy|medium|hard, got "HARD"', line: 12 },
    { path: 'budgetUsd', message: 'expected a number greater than 0, got -5' },
  ];

  it('renders file:line: path: message, one error a line', () => {
    expect(formatManifestErrors(errors, 'benchmark.yaml')).toBe(
      [
        'benchmark.yaml:3:1: (yaml): invalid YAML: Map keys must be unique',
        'benchmark.yaml:12: suites[1].tasks[4].difficulty: expected easy|medium|hard, got "HARD"',
        'benchmark.yaml: budgetUsd: expected a number greater than 0, got -5',
      ].join('\n'),
    );
  });

  it('renders line numbers alone without a file name', () => {
    expect(formatManifestErrors(errors)).toBe(
      [
        'line 3, column 1: (yaml): invalid YAML: Map keys must be unique',
        'line 12: suites[1].tasks[4].difficulty: expected easy|medium|hard, got "HARD"',
        'budgetUsd: expected a number greater than 0, got -5',
      ].join('\n'),
    );
  });

  it('renders nothing for no errors', () => {
    expect(formatManifestErrors([], 'x.yaml')).toBe('');
  });
});
