import { describe, expect, it } from 'vitest';
import { benchmarkFingerprint, parseBenchmarkManifest, validateBenchmarkManifest } from './benchmark-manifest.parser.js';
import type { ManifestResult } from './manifest-error.util.js';
import { manifestHash } from './manifest-fingerprint.util.js';

// Line numbers of this text are asserted below: keep it as is, edit copies.
const YAML = `id: mini
name: Mini benchmark
version: "1.0.0"
suites:
  - id: python
    name: Python
    tasks:
      - id: click-core
        difficulty: easy
        instruction: Implement click.
        workspace: tasks/click
        grader:
          command: pytest -q
          format: junit
          reportPath: reports/junit.xml
        timeBudgetMinutes: 60
  - id: typescript
    name: TypeScript
    tasks:
      - id: ky-client
        difficulty: medium
        referenceKloc: 1.8
        instruction: Implement ky.
        workspace: tasks/ky.tar.gz
        tests: tests/ky
        image: ghcr.io/fanout/tasks/node:20
        grader:
          command: [npx, vitest, run]
          format: tap
        timeBudgetMinutes: 45
        expectedTokens: 2000000
        resources: { cpu: 500m, memory: 2Gi }
      - id: yaml-parser
        difficulty: hard
        instruction: Implement a YAML parser.
        workspace: tasks/yaml
        grader:
          command: npm test
          format: json
        timeBudgetMinutes: 240
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

const parsed = valueOf(parseBenchmarkManifest(YAML));

describe('parseBenchmarkManifest', () => {
  it('parses a valid manifest and applies the defaults', () => {
    expect(parsed.visibility).toBe('private');
    expect(parsed.success).toBe('taskPass');
    expect(parsed.suites.map((s) => s.tasks.map((t) => `${t.id}:${t.difficulty}`))).toEqual([['click-core:easy'], ['ky-client:medium', 'yaml-parser:hard']]);
    expect(parsed.suites[1]!.tasks[0]).toEqual({
      id: 'ky-client',
      difficulty: 'medium',
      referenceKloc: 1.8,
      instruction: 'Implement ky.',
      workspace: 'tasks/ky.tar.gz',
      tests: 'tests/ky',
      image: 'ghcr.io/fanout/tasks/node:20',
      grader: { command: ['npx', 'vitest', 'run'], format: 'tap' },
      timeBudgetMinutes: 45,
      expectedTokens: 2_000_000,
      resources: { cpu: '500m', memory: '2Gi' },
    });
  });

  it.each([
    ['a bad enum value', ['difficulty: hard', 'difficulty: HARD'], ['34: suites[1].tasks[1].difficulty: expected easy|medium|hard, got "HARD"']],
    ['a bad visibility', ['version: "1.0.0"', 'version: "1.0.0"\nvisibility: shared'], ['4: visibility: expected public|private, got "shared"']],
    ['a bad success rule', ['version: "1.0.0"', 'version: "1.0.0"\nsuccess: anyTest'], ['4: success: expected taskPass|testPassAboveZero, got "anyTest"']],
    ['a number for a string', ['name: Python', 'name: 42'], ['6: suites[0].name: expected a non-empty string of at most 200 characters, got 42']],
    ['an unquoted version', ['version: "1.0.0"', 'version: 1.0'], ['3: version: expected a version string such as "1.0.0" (quote it in YAML: version: "1.0"), got 1']],
    ['a string for a number', ['timeBudgetMinutes: 45', 'timeBudgetMinutes: "45"'], ['30: suites[1].tasks[0].timeBudgetMinutes: expected a number of minutes in (0, 1440], got "45"']],
    ['a map for a list', ['      - id: click-core', '        id: click-core'], ['7: suites[0].tasks: expected a list of tasks, got a map with keys id, difficulty, instruction, workspace, grader, ...']],
    ['an unknown top-level key', ['name: Mini benchmark', 'name: Mini benchmark\nowner: me'], ['3: owner: unknown key "owner"; allowed keys: id, name, description, version, visibility, success, suites']],
    [
      'an unknown key deep down, with a suggestion',
      ['format: junit', 'format: junit\n          reportPth: out.xml'],
      ['15: suites[0].tasks[0].grader.reportPth: unknown key "reportPth" (did you mean "reportPath"?); allowed keys: command, format, reportPath'],
    ],
    ['an unknown key in resources', ['memory: 2Gi }', 'memory: 2Gi, gpu: "1" }'], ['32: suites[1].tasks[0].resources.gpu: unknown key "gpu" (did you mean "cpu"?); allowed keys: cpu, memory']],
    ['a missing top-level field', ['name: Mini benchmark\n', ''], ['1: name: missing required field (expected a non-empty string of at most 200 characters)']],
    ['a missing task field', ['        timeBudgetMinutes: 60\n', ''], ['8: suites[0].tasks[0].timeBudgetMinutes: missing required field (expected a number of minutes in (0, 1440])']],
    ['a missing grader format', ['          format: json\n', ''], ['37: suites[1].tasks[1].grader.format: missing required field (expected junit|tap|json)']],
    ['an empty suite list', ['suites:\n', 'suites: []\nx:\n'], ['4: suites: expected a non-empty list of suites, got an empty list', '5: x: unknown key "x"; allowed keys: id, name, description, version, visibility, success, suites']],
    ['an empty task list', ['    tasks:\n      - id: click-core', '    tasks: []\n    old:\n      - id: click-core'], ['7: suites[0].tasks: expected a non-empty list of tasks, got an empty list', '8: suites[0].old: unknown key "old"; allowed keys: id, name, description, tasks']],
    ['a blank instruction', ['instruction: Implement ky.', 'instruction: "   "'], ['23: suites[1].tasks[0].instruction: expected a non-empty string of at most 100000 characters, got "   "']],
    ['a zero time budget', ['timeBudgetMinutes: 60', 'timeBudgetMinutes: 0'], ['16: suites[0].tasks[0].timeBudgetMinutes: expected a number of minutes in (0, 1440], got 0']],
    ['a time budget over a day', ['timeBudgetMinutes: 60', 'timeBudgetMinutes: 1441'], ['16: suites[0].tasks[0].timeBudgetMinutes: expected a number of minutes in (0, 1440], got 1441']],
    ['a negative referenceKloc', ['referenceKloc: 1.8', 'referenceKloc: -1'], ['22: suites[1].tasks[0].referenceKloc: expected a number >= 0 (thousands of lines), got -1']],
    ['a fractional token hint', ['expectedTokens: 2000000', 'expectedTokens: 2.5'], ['31: suites[1].tasks[0].expectedTokens: expected a positive integer (tokens), got 2.5']],
    ['a zero token hint', ['expectedTokens: 2000000', 'expectedTokens: 0'], ['31: suites[1].tasks[0].expectedTokens: expected a positive integer (tokens), got 0']],
    ['a bad cpu quantity', ['cpu: 500m', 'cpu: 2'], ['32: suites[1].tasks[0].resources.cpu: expected a CPU quantity as a string, such as "500m" or "2", got 2']],
    ['a bad memory quantity', ['memory: 2Gi', 'memory: 2 GB'], ['32: suites[1].tasks[0].resources.memory: expected a memory quantity as a string, such as "512Mi" or "2Gi", got "2 GB"']],
    ['a bad slug', ['id: yaml-parser', 'id: YAML Parser'], ['33: suites[1].tasks[1].id: expected a lowercase id (1 to 63 characters among a-z 0-9 . _ -, starting with a letter or digit), got "YAML Parser"']],
    ['a slug that is too long', ['id: mini', `id: ${'a'.repeat(64)}`], [`1: id: expected a lowercase id (1 to 63 characters among a-z 0-9 . _ -, starting with a letter or digit), got "${'a'.repeat(37)}"... (64 characters)`]],
    ['a duplicate suite id', ['id: typescript', 'id: python'], ['17: suites[1].id: expected a unique suite id, got "python" again (first at suites[0].id)']],
    [
      'a duplicate task id in another suite',
      ['id: yaml-parser', 'id: click-core'],
      ['33: suites[1].tasks[1].id: expected a unique task id in the benchmark, got "click-core" again (first at suites[0].tasks[0].id)'],
    ],
    [
      'an absolute workspace',
      ['workspace: tasks/click', 'workspace: /srv/tasks/click'],
      ['11: suites[0].tasks[0].workspace: expected a workspace folder or .tar, .tar.gz, .tgz or .zip archive: a relative path with "/" separators that stays inside the manifest\'s folder (no leading "/", no ".." above it), got "/srv/tasks/click"'],
    ],
    [
      'a workspace escaping the folder',
      ['workspace: tasks/click', 'workspace: tasks/../../click'],
      ['11: suites[0].tasks[0].workspace: expected a workspace folder or .tar, .tar.gz, .tgz or .zip archive: a relative path with "/" separators that stays inside the manifest\'s folder (no leading "/", no ".." above it), got "tasks/../../click"'],
    ],
    [
      'an escaping tests folder',
      ['tests: tests/ky', 'tests: ../tests/ky'],
      ['25: suites[1].tasks[0].tests: expected a hidden tests folder: a relative path with "/" separators that stays inside the manifest\'s folder (no leading "/", no ".." above it), got "../tests/ky"'],
    ],
    [
      'an absolute report path',
      ['reportPath: reports/junit.xml', 'reportPath: /tmp/junit.xml'],
      ['15: suites[0].tasks[0].grader.reportPath: expected a report path: a relative path with "/" separators that stays inside the workspace (no leading "/", no ".." above it), got "/tmp/junit.xml"'],
    ],
    ['a bad image', ['image: ghcr.io/fanout/tasks/node:20', 'image: "Node 20"'], ['26: suites[1].tasks[0].image: expected a container image reference such as "ghcr.io/org/image:tag" or "python:3.12-slim", got "Node 20"']],
    ['a bad grader format', ['format: tap', 'format: xunit'], ['29: suites[1].tasks[0].grader.format: expected junit|tap|json, got "xunit"']],
    [
      'an empty grader command',
      ['command: npm test', 'command: []'],
      ['38: suites[1].tasks[1].grader.command: expected a command: a non-empty string (run by a shell) or a non-empty list of arguments, got an empty list'],
    ],
    [
      'a blank grader command',
      ['command: npm test', 'command: ""'],
      ['38: suites[1].tasks[1].grader.command: expected a command: a non-empty string (run by a shell) or a non-empty list of arguments, got ""'],
    ],
    [
      'a grader command of the wrong type',
      ['command: npm test', 'command: { run: npm }'],
      ['38: suites[1].tasks[1].grader.command: expected a command: a non-empty string (run by a shell) or a non-empty list of arguments, got a map with key run'],
    ],
    ['a number in the command list', ['command: [npx, vitest, run]', 'command: [npx, vitest, 3]'], ['28: suites[1].tasks[0].grader.command[2]: expected a string argument, got 3']],
  ])('reports %s with its path, message and line', (_, [from, to], expected) => {
    expect(linesOf(parseBenchmarkManifest(edit(YAML, from!, to!)))).toEqual(expected);
  });

  it('reports every error, sorted by line, duplicates included', () => {
    let text = YAML;
    text = edit(text, 'id: yaml-parser', 'id: click-core');
    text = edit(text, 'difficulty: hard', 'difficulty: HARD');
    text = edit(text, 'format: junit', 'format: junit\n          extra: 1');
    text = edit(text, 'name: Mini benchmark', 'name: 7');
    expect(linesOf(parseBenchmarkManifest(text))).toEqual([
      '2: name: expected a non-empty string of at most 200 characters, got 7',
      '15: suites[0].tasks[0].grader.extra: unknown key "extra"; allowed keys: command, format, reportPath',
      '34: suites[1].tasks[1].id: expected a unique task id in the benchmark, got "click-core" again (first at suites[0].tasks[0].id)',
      '35: suites[1].tasks[1].difficulty: expected easy|medium|hard, got "HARD"',
    ]);
  });

  it('accepts safe relative paths and archives', () => {
    for (const workspace of ['tasks/click', './tasks/click', 'tasks/click/', 'a/../b', 'w.tar', 'w.tar.gz', 'w.tgz', 'w.zip', '.']) {
      expect(valueOf(parseBenchmarkManifest(edit(YAML, 'workspace: tasks/click', `workspace: "${workspace}"`))).suites[0]!.tasks[0]!.workspace).toBe(workspace);
    }
  });

  it('rejects absolute, home, Windows, URL and escaping paths', () => {
    for (const workspace of ['/abs', '~/w', 'C:/w', 'C:\\\\w', 'a\\\\b', 'https://example.com/w.tgz', '..', 'a/../..', '../w', '']) {
      const lines = linesOf(parseBenchmarkManifest(edit(YAML, 'workspace: tasks/click', `workspace: "${workspace}"`)));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^11: suites\[0\]\.tasks\[0\]\.workspace: expected a workspace folder/);
    }
  });

  it('accepts common image references and rejects malformed ones', () => {
    const image = (ref: string) => parseBenchmarkManifest(edit(YAML, 'image: ghcr.io/fanout/tasks/node:20', `image: "${ref}"`)).ok;
    for (const ref of ['python:3.12-slim', 'ubuntu', 'library/ubuntu:24.04', 'ghcr.io/org/team/image:v1.2_3', 'localhost:5000/x', `registry.example.com:443/a/b@sha256:${'a'.repeat(64)}`, 'my-registry.io/a__b/c-d.e:latest']) {
      expect(image(ref), ref).toBe(true);
    }
    for (const ref of ['Ubuntu', 'python:3.12:slim', 'has space', 'http://ghcr.io/x', 'x@sha256:short', ':tag', 'a//b', 'image:']) {
      expect(image(ref), ref).toBe(false);
    }
  });
});

describe('validateBenchmarkManifest', () => {
  it('accepts the parsed value again (a plain object, as from GraphQL)', () => {
    expect(valueOf(validateBenchmarkManifest(structuredClone(parsed)))).toEqual(parsed);
  });

  it('gives the same paths and messages, without lines, in schema order', () => {
    const input = structuredClone(parsed) as unknown as Record<string, unknown> & { suites: Array<{ tasks: Array<Record<string, unknown>> }> };
    input.suites[1]!.tasks[1]!.difficulty = 'HARD';
    input.suites[1]!.tasks[1]!.id = 'click-core';
    input.colour = 'blue';
    expect(linesOf(validateBenchmarkManifest(input))).toEqual([
      '-: suites[1].tasks[1].difficulty: expected easy|medium|hard, got "HARD"',
      '-: colour: unknown key "colour"; allowed keys: id, name, description, version, visibility, success, suites',
      '-: suites[1].tasks[1].id: expected a unique task id in the benchmark, got "click-core" again (first at suites[0].tasks[0].id)',
    ]);
  });

  it('rejects a value that is not an object', () => {
    expect(linesOf(validateBenchmarkManifest('id: x'))).toEqual(['-: (root): expected a map, got "id: x"']);
    expect(linesOf(validateBenchmarkManifest(null))).toEqual(['-: (root): expected a map, got null']);
  });
});

describe('benchmarkFingerprint', () => {
  const reordered = `# the same benchmark, keys reordered, flow style, defaults spelled out
suites:
  - name: Python
    id: python
    tasks:
      - { timeBudgetMinutes: 60, id: click-core, workspace: tasks/click, difficulty: easy, instruction: Implement click.,
          grader: { reportPath: reports/junit.xml, format: junit, command: pytest -q } }
  - tasks:
      - grader: { format: tap, command: [npx, vitest, run] }
        resources: { memory: 2Gi, cpu: 500m }
        expectedTokens: 2000000
        timeBudgetMinutes: 45
        image: ghcr.io/fanout/tasks/node:20
        tests: tests/ky
        workspace: tasks/ky.tar.gz
        instruction: "Implement ky."
        referenceKloc: 1.8
        difficulty: medium
        id: ky-client
      - id: yaml-parser
        difficulty: hard
        instruction: Implement a YAML parser.
        workspace: tasks/yaml
        grader: { command: npm test, format: json }
        timeBudgetMinutes: 240
    name: TypeScript
    id: typescript
visibility: private
success: taskPass
version: '1.0.0'
name: Mini benchmark
id: mini
`;

  it('is the same for the same content whatever the key order, formatting and spelled-out defaults', () => {
    const other = valueOf(parseBenchmarkManifest(reordered));
    expect(benchmarkFingerprint(other)).toBe(benchmarkFingerprint(parsed));
    expect(manifestHash(benchmarkFingerprint(other))).toBe(manifestHash(benchmarkFingerprint(parsed)));
    expect(manifestHash(benchmarkFingerprint(parsed))).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('is a canonical JSON text with sorted keys', () => {
    const fingerprint = benchmarkFingerprint(parsed);
    expect(JSON.parse(fingerprint)).toEqual(parsed);
    expect(fingerprint.startsWith('{"id":"mini","name":"Mini benchmark","success":"taskPass","suites":[{"id":"python","name":"Python","tasks":[{"difficulty":"easy",')).toBe(true);
  });

  it('changes when a task changes', () => {
    for (const [from, to] of [
      ['timeBudgetMinutes: 240', 'timeBudgetMinutes: 241'],
      ['instruction: Implement ky.', 'instruction: Implement ky!'],
      ['command: [npx, vitest, run]', 'command: [npx, vitest, run, --bail]'],
      ['difficulty: easy', 'difficulty: medium'],
    ] as const) {
      const changed = valueOf(parseBenchmarkManifest(edit(YAML, from, to)));
      expect(benchmarkFingerprint(changed), `${from} -> ${to}`).not.toBe(benchmarkFingerprint(parsed));
    }
  });

  it('changes when tasks are reordered (list order is content)', () => {
    const swapped = structuredClone(parsed);
    swapped.suites[1]!.tasks.reverse();
    expect(benchmarkFingerprint(swapped)).not.toBe(benchmarkFingerprint(parsed));
  });
});
