import { describe, expect, it } from 'vitest';
import { campaignFingerprint, parseCampaignManifest, validateCampaignManifest } from './campaign-manifest.parser.js';
import type { ManifestResult } from './manifest-error.util.js';

// Line numbers of this text are asserted below: keep it as is, edit copies.
const YAML = `name: Dynamic concurrency on Repo Rebuild
agents:
  - config: codex-gpt5
    version: 1
  - config: claude-sonnet
modes: [concurrent, sequential]
benchmarks:
  - id: repo-rebuild
    version: "1.0.0"
    suite: python
    fraction: 0.2
  - id: repo-rebuild
    suite: typescript
    tasks: [ky-client, zod-mini]
budgetUsd: 250
`;

function edit(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`"${from}" must occur exactly once`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}

function linesOf(result: ManifestResult<unknown>): string[] {
  if (result.ok) throw new Error('expected errors, got a valid manifest');
  return result.errors.map((e) => `${e.line ?? '-'}: ${e.path}: ${e.message}`);
}

function valueOf<T>(result: ManifestResult<T>): T {
  if (!result.ok) throw new Error(result.errors.map((e) => `${e.line}: ${e.path}: ${e.message}`).join('\n'));
  return result.value;
}

const parsed = valueOf(parseCampaignManifest(YAML));

describe('parseCampaignManifest', () => {
  it('parses a valid campaign and applies the defaults', () => {
    expect(parsed).toEqual({
      name: 'Dynamic concurrency on Repo Rebuild',
      agents: [{ config: 'codex-gpt5', version: 1 }, { config: 'claude-sonnet' }],
      modes: ['concurrent', 'sequential'],
      benchmarks: [
        { id: 'repo-rebuild', version: '1.0.0', suite: 'python', fraction: 0.2 },
        { id: 'repo-rebuild', suite: 'typescript', tasks: ['ky-client', 'zod-mini'] },
      ],
      repetitions: 1,
      seed: 0,
      budgetUsd: 250,
      maxConcurrency: 4,
      visibility: 'private',
    });
  });

  it('accepts the bounds: fraction 1, 100 repetitions, 1000 concurrent executions, a day per task, a negative seed', () => {
    const text = `${edit(YAML, 'fraction: 0.2', 'fraction: 1')}repetitions: 100\nmaxConcurrency: 1000\ntimeBudgetMinutes: 1440\nseed: -7\nvisibility: public\n`;
    expect(valueOf(parseCampaignManifest(text))).toMatchObject({ repetitions: 100, maxConcurrency: 1000, timeBudgetMinutes: 1440, seed: -7, visibility: 'public' });
  });

  it.each([
    ['fraction 0', ['fraction: 0.2', 'fraction: 0'], ['11: benchmarks[0].fraction: expected a number in (0, 1], got 0']],
    ['fraction 1.5', ['fraction: 0.2', 'fraction: 1.5'], ['11: benchmarks[0].fraction: expected a number in (0, 1], got 1.5']],
    ['a negative fraction', ['fraction: 0.2', 'fraction: -0.2'], ['11: benchmarks[0].fraction: expected a number in (0, 1], got -0.2']],
    ['a percentage string', ['fraction: 0.2', 'fraction: 20%'], ['11: benchmarks[0].fraction: expected a number in (0, 1], got "20%"']],
    ['both fraction and tasks', ['tasks: [ky-client, zod-mini]', 'tasks: [ky-client, zod-mini]\n    fraction: 0.5'], ['12: benchmarks[1]: expected exactly one of fraction or tasks']],
    ['neither fraction nor tasks', ['    fraction: 0.2\n', ''], ['8: benchmarks[0]: expected exactly one of fraction or tasks']],
    ['an empty task list', ['tasks: [ky-client, zod-mini]', 'tasks: []'], ['14: benchmarks[1].tasks: expected a non-empty list of task ids, got an empty list']],
    ['a duplicate task', ['tasks: [ky-client, zod-mini]', 'tasks: [ky-client, zod-mini, ky-client]'], ['14: benchmarks[1].tasks[2]: expected a unique task id, got "ky-client" again (first at benchmarks[1].tasks[0])']],
    ['a bad task id', ['tasks: [ky-client, zod-mini]', 'tasks: [ky-client, Zod Mini]'], ['14: benchmarks[1].tasks[1]: expected a lowercase id (1 to 63 characters among a-z 0-9 . _ -, starting with a letter or digit), got "Zod Mini"']],
    ['a benchmark version that is a number', ['version: "1.0.0"', 'version: 2'], ['9: benchmarks[0].version: expected a version string such as "1.0.0" (quote it in YAML: version: "1.0"), got 2']],
    ['the same suite twice', ['suite: typescript', 'suite: python'], ['12: benchmarks[1]: expected each benchmark or suite once, got "repo-rebuild" suite "python" again (overlaps benchmarks[0])']],
    ['a whole benchmark next to one of its suites', ['    suite: typescript\n', ''], ['12: benchmarks[1]: expected each benchmark or suite once, got "repo-rebuild" again (overlaps benchmarks[0])']],
    ['a negative budget', ['budgetUsd: 250', 'budgetUsd: -5'], ['15: budgetUsd: expected a number greater than 0, got -5']],
    ['a zero budget', ['budgetUsd: 250', 'budgetUsd: 0'], ['15: budgetUsd: expected a number greater than 0, got 0']],
    ['a budget as a string', ['budgetUsd: 250', 'budgetUsd: $250'], ['15: budgetUsd: expected a number greater than 0, got "$250"']],
    ['a missing budget', ['budgetUsd: 250\n', ''], ['1: budgetUsd: missing required field (expected a number greater than 0)']],
    ['repetitions 0', ['budgetUsd: 250', 'budgetUsd: 250\nrepetitions: 0'], ['16: repetitions: expected an integer from 1 to 100, got 0']],
    ['repetitions 101', ['budgetUsd: 250', 'budgetUsd: 250\nrepetitions: 101'], ['16: repetitions: expected an integer from 1 to 100, got 101']],
    ['fractional repetitions', ['budgetUsd: 250', 'budgetUsd: 250\nrepetitions: 2.5'], ['16: repetitions: expected an integer from 1 to 100, got 2.5']],
    ['maxConcurrency 0', ['budgetUsd: 250', 'budgetUsd: 250\nmaxConcurrency: 0'], ['16: maxConcurrency: expected an integer from 1 to 1000, got 0']],
    ['maxConcurrency 1001', ['budgetUsd: 250', 'budgetUsd: 250\nmaxConcurrency: 1001'], ['16: maxConcurrency: expected an integer from 1 to 1000, got 1001']],
    ['a fractional seed', ['budgetUsd: 250', 'budgetUsd: 250\nseed: 1.5'], ['16: seed: expected an integer, got 1.5']],
    ['a seed as a string', ['budgetUsd: 250', 'budgetUsd: 250\nseed: abc'], ['16: seed: expected an integer, got "abc"']],
    ['a negative time budget', ['budgetUsd: 250', 'budgetUsd: 250\ntimeBudgetMinutes: -1'], ['16: timeBudgetMinutes: expected a number of minutes in (0, 1440], got -1']],
    ['a bad visibility', ['budgetUsd: 250', 'budgetUsd: 250\nvisibility: team'], ['16: visibility: expected public|private, got "team"']],
    ['a duplicate mode', ['modes: [concurrent, sequential]', 'modes: [concurrent, sequential, concurrent]'], ['6: modes[2]: expected a unique mode, got "concurrent" again (first at modes[0])']],
    ['no mode', ['modes: [concurrent, sequential]', 'modes: []'], ['6: modes: expected a non-empty list of mode names, got an empty list']],
    ['a bad mode name', ['modes: [concurrent, sequential]', 'modes: [concurrent, Sequential]'], ['6: modes[1]: expected a lowercase id (1 to 63 characters among a-z 0-9 . _ -, starting with a letter or digit), got "Sequential"']],
    ['modes as a string', ['modes: [concurrent, sequential]', 'modes: concurrent'], ['6: modes: expected a list of mode names, got "concurrent"']],
    ['no agent', ['agents:\n  - config: codex-gpt5\n    version: 1\n  - config: claude-sonnet\n', 'agents: []\n'], ['2: agents: expected a non-empty list of agent configs, got an empty list']],
    ['agent version 0', ['version: 1', 'version: 0'], ['4: agents[0].version: expected a positive integer (an agent config version), got 0']],
    ['an agent version as a string', ['version: 1', 'version: latest'], ['4: agents[0].version: expected a positive integer (an agent config version), got "latest"']],
    ['a duplicate agent', ['  - config: claude-sonnet', '  - config: codex-gpt5\n    version: 1'], ['5: agents[1]: expected a unique agent config (and version), got "codex-gpt5 version 1" again (first at agents[0])']],
    ['an unknown agent key', ['  - config: claude-sonnet', '  - config: claude-sonnet\n    mode: concurrent'], ['6: agents[1].mode: unknown key "mode"; allowed keys: config, version']],
    [
      'an unknown benchmark key',
      ['    suite: python', '    suites: python'],
      [
        '10: benchmarks[0].suites: unknown key "suites" (did you mean "suite"?); allowed keys: id, version, suite, fraction, tasks',
        // Without its suite, the first entry covers the whole benchmark.
        '12: benchmarks[1]: expected each benchmark or suite once, got "repo-rebuild" suite "typescript" again (overlaps benchmarks[0])',
      ],
    ],
    ['an unknown top-level key', ['budgetUsd: 250', 'budgetUsd: 250\nbudget: 10'], ['16: budget: unknown key "budget"; allowed keys: name, description, agents, modes, benchmarks, repetitions, seed, timeBudgetMinutes, budgetUsd, maxConcurrency, visibility']],
    ['an empty name', ['name: Dynamic concurrency on Repo Rebuild', 'name: ""'], ['1: name: expected a non-empty string of at most 120 characters, got ""']],
    ['a name over 120 characters', ['name: Dynamic concurrency on Repo Rebuild', `name: ${'n'.repeat(121)}`], [`1: name: expected a non-empty string of at most 120 characters, got "${'n'.repeat(37)}"... (121 characters)`]],
  ])('reports %s with its path, message and line', (_, [from, to], expected) => {
    expect(linesOf(parseCampaignManifest(edit(YAML, from!, to!)))).toEqual(expected);
  });

  it('reports every error at once, sorted by line', () => {
    let text = YAML;
    text = edit(text, 'fraction: 0.2', 'fraction: 1.5');
    text = edit(text, 'budgetUsd: 250', 'budgetUsd: -5\nrepetitions: 0');
    text = edit(text, 'modes: [concurrent, sequential]', 'modes: [concurrent, concurrent]');
    text = edit(text, 'tasks: [ky-client, zod-mini]', 'tasks: [ky-client, zod-mini]\n    fraction: 0.5');
    expect(linesOf(parseCampaignManifest(text))).toEqual([
      '6: modes[1]: expected a unique mode, got "concurrent" again (first at modes[0])',
      '11: benchmarks[0].fraction: expected a number in (0, 1], got 1.5',
      '12: benchmarks[1]: expected exactly one of fraction or tasks',
      '16: budgetUsd: expected a number greater than 0, got -5',
      '17: repetitions: expected an integer from 1 to 100, got 0',
    ]);
  });
});

describe('validateCampaignManifest', () => {
  it('validates a GraphQL-style object with the same messages, without lines', () => {
    expect(valueOf(validateCampaignManifest({ name: 'x', agents: [{ config: 'a' }], modes: ['m'], benchmarks: [{ id: 'b', fraction: 0.5 }], budgetUsd: 1 }))).toMatchObject({ repetitions: 1 });
    expect(
      linesOf(validateCampaignManifest({ name: 'x', agents: [{ config: 'a' }], modes: ['m'], benchmarks: [{ id: 'b', fraction: 1.5, tasks: ['t'] }], budgetUsd: -5 })),
    ).toEqual(['-: benchmarks[0].fraction: expected a number in (0, 1], got 1.5', '-: benchmarks[0]: expected exactly one of fraction or tasks', '-: budgetUsd: expected a number greater than 0, got -5']);
  });
});

describe('campaignFingerprint', () => {
  it('ignores key order and spelled-out defaults', () => {
    const other = valueOf(
      parseCampaignManifest(`budgetUsd: 250
visibility: private
maxConcurrency: 4
seed: 0
repetitions: 1
benchmarks:
  - { fraction: 0.2, suite: python, version: "1.0.0", id: repo-rebuild }
  - { tasks: [ky-client, zod-mini], suite: typescript, id: repo-rebuild }
modes: [concurrent, sequential]
agents: [{ version: 1, config: codex-gpt5 }, { config: claude-sonnet }]
name: Dynamic concurrency on Repo Rebuild
`),
    );
    expect(campaignFingerprint(other)).toBe(campaignFingerprint(parsed));
    expect(campaignFingerprint(valueOf(parseCampaignManifest(edit(YAML, 'fraction: 0.2', 'fraction: 0.25'))))).not.toBe(campaignFingerprint(parsed));
  });
});
