import { describe, expect, it } from 'vitest';
import { agentConfigFingerprint, parseAgentConfigManifest, validateAgentConfigManifest } from './agent-config-manifest.parser.js';
import type { ManifestResult } from './manifest-error.util.js';

// Line numbers of this text are asserted below: keep it as is, edit copies.
const YAML = `name: codex-gpt5
scaffold: codex
model: openai/gpt-5
reasoningEffort: high
image: ghcr.io/fanout/agents/codex:0.40.0
command: [codex, exec, --full-auto]
env:
  CODEX_HOME: /home/agent/.codex
modes:
  concurrent:
    env:
      MULTI_AGENT: "on"
    args: [--max-subagents, "8"]
  sequential:
    env:
      MULTI_AGENT: "off"
secrets:
  - OPENAI_API_KEY
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

const SLUG = 'a lowercase id (1 to 63 characters among a-z 0-9 . _ -, starting with a letter or digit)';
const ENV_NAME = 'an environment variable name (letters, digits and "_", not starting with a digit)';
const SECRET = 'a secret name in upper case (A-Z, 0-9 and "_", not starting with a digit)';
const COMMAND = 'a command: a non-empty string (run by a shell) or a non-empty list of arguments';

const parsed = valueOf(parseAgentConfigManifest(YAML));

describe('parseAgentConfigManifest', () => {
  it('parses a valid config with two modes', () => {
    expect(parsed).toEqual({
      name: 'codex-gpt5',
      scaffold: 'codex',
      model: 'openai/gpt-5',
      reasoningEffort: 'high',
      image: 'ghcr.io/fanout/agents/codex:0.40.0',
      command: ['codex', 'exec', '--full-auto'],
      env: { CODEX_HOME: '/home/agent/.codex' },
      modes: {
        concurrent: { env: { MULTI_AGENT: 'on' }, args: ['--max-subagents', '8'] },
        sequential: { env: { MULTI_AGENT: 'off' } },
      },
      secrets: ['OPENAI_API_KEY'],
    });
  });

  it('accepts a minimal config: a command line and a mode without toggles', () => {
    const minimal = valueOf(parseAgentConfigManifest('name: demo\nscaffold: custom\nmodel: fanout/demo-agent\ncommand: node demo-agent.js\nmodes:\n  sequential: {}\n'));
    expect(minimal).toEqual({ name: 'demo', scaffold: 'custom', model: 'fanout/demo-agent', command: 'node demo-agent.js', modes: { sequential: {} } });
  });

  it.each([
    ['a bad scaffold', ['scaffold: codex', 'scaffold: Codex'], ['2: scaffold: expected codex|claude-code|kimi-code|custom, got "Codex"']],
    ['a bad reasoning effort', ['reasoningEffort: high', 'reasoningEffort: xhigh'], ['4: reasoningEffort: expected minimal|low|medium|high, got "xhigh"']],
    ['a bad name', ['name: codex-gpt5', 'name: Codex GPT5'], [`1: name: expected ${SLUG}, got "Codex GPT5"`]],
    ['a missing model', ['model: openai/gpt-5\n', ''], ['1: model: missing required field (expected a non-empty string of at most 200 characters)']],
    ['a missing command', ['command: [codex, exec, --full-auto]\n', ''], [`1: command: missing required field (expected ${COMMAND})`]],
    ['an empty command', ['command: [codex, exec, --full-auto]', 'command: []'], [`6: command: expected ${COMMAND}, got an empty list`]],
    ['a number as a command', ['command: [codex, exec, --full-auto]', 'command: 42'], [`6: command: expected ${COMMAND}, got 42`]],
    ['a bad image', ['image: ghcr.io/fanout/agents/codex:0.40.0', 'image: ghcr.io/Fanout/codex'], ['5: image: expected a container image reference such as "ghcr.io/org/image:tag" or "python:3.12-slim", got "ghcr.io/Fanout/codex"']],
    ['an env value that is not a string', ['CODEX_HOME: /home/agent/.codex', 'CODEX_HOME: 1'], ['8: env.CODEX_HOME: expected a string (quote numbers and booleans in YAML: "1", "true"), got 1']],
    ['an invalid env name', ['CODEX_HOME:', '1CODEX-HOME:'], [`8: env["1CODEX-HOME"]: expected ${ENV_NAME}, got "1CODEX-HOME"`]],
    ['an invalid env name in a mode', ['MULTI_AGENT: "on"', 'MULTI AGENT: "on"'], [`12: modes.concurrent.env["MULTI AGENT"]: expected ${ENV_NAME}, got "MULTI AGENT"`]],
    ['env as a list', ['env:\n  CODEX_HOME: /home/agent/.codex', 'env: [CODEX_HOME]'], ['7: env: expected a map of environment variable names to strings, got a list of 1 item']],
    [
      'a bad mode name',
      ['sequential:', 'Sequential:'],
      ['14: modes.Sequential: expected a lowercase mode name (1 to 63 characters among a-z 0-9 . _ -, starting with a letter or digit), got "Sequential"'],
    ],
    ['a mode without a value', ['  sequential:\n    env:\n      MULTI_AGENT: "off"\n', '  sequential:\n'], ['14: modes.sequential: expected a map (use {} for a mode without toggles), got null']],
    ['no mode', [YAML.slice(YAML.indexOf('modes:'), YAML.indexOf('secrets:')), 'modes: {}\n'], ['9: modes: expected at least one mode, got an empty map']],
    ['modes as a list', [YAML.slice(YAML.indexOf('modes:'), YAML.indexOf('secrets:')), 'modes: [concurrent, sequential]\n'], ['9: modes: expected a map of mode names to modes, got a list of 2 items']],
    ['an unknown key in a mode', ['    args: [--max-subagents, "8"]', '    argz: [--max-subagents, "8"]'], ['13: modes.concurrent.argz: unknown key "argz" (did you mean "args"?); allowed keys: description, env, args']],
    ['a mode argument that is not a string', ['args: [--max-subagents, "8"]', 'args: [--max-subagents, 8]'], ['13: modes.concurrent.args[1]: expected a string argument, got 8']],
    ['an unknown top-level key', ['model: openai/gpt-5', 'models: openai/gpt-5'], ['1: model: missing required field (expected a non-empty string of at most 200 characters)', '3: models: unknown key "models" (did you mean "model"?); allowed keys: name, description, scaffold, model, reasoningEffort, image, command, env, modes, secrets']],
    ['a lower-case secret name', ['  - OPENAI_API_KEY', '  - openai_api_key'], [`18: secrets[0]: expected ${SECRET}, got "openai_api_key"`]],
    ['a duplicate secret', ['  - OPENAI_API_KEY', '  - OPENAI_API_KEY\n  - GH_TOKEN\n  - OPENAI_API_KEY'], ['20: secrets[2]: expected a unique secret name, got "OPENAI_API_KEY" again (first at secrets[0])']],
    [
      'a secret also set in env',
      ['CODEX_HOME: /home/agent/.codex', 'CODEX_HOME: /home/agent/.codex\n  OPENAI_API_KEY: sk-live-123'],
      ['19: secrets[0]: expected a secret name that is not also set in env, got "OPENAI_API_KEY" (set in env)'],
    ],
    [
      'a secret also set in a mode env',
      ['MULTI_AGENT: "off"', 'MULTI_AGENT: "off"\n      OPENAI_API_KEY: sk-live-123'],
      ['19: secrets[0]: expected a secret name that is not also set in env, got "OPENAI_API_KEY" (set in modes.sequential.env)'],
    ],
  ])('reports %s with its path, message and line', (_, [from, to], expected) => {
    expect(linesOf(parseAgentConfigManifest(edit(YAML, from!, to!)))).toEqual(expected);
  });

  it('never echoes an env value that collides with a secret', () => {
    const text = edit(YAML, 'CODEX_HOME: /home/agent/.codex', 'CODEX_HOME: /home/agent/.codex\n  OPENAI_API_KEY: sk-live-123');
    expect(linesOf(parseAgentConfigManifest(text)).join('\n')).not.toContain('sk-live');
  });

  it('reports a YAML syntax error with line and column', () => {
    const result = parseAgentConfigManifest(edit(YAML, 'command: [codex, exec, --full-auto]', 'command: [codex, exec, --full-auto'));
    expect(result).toEqual({
      ok: false,
      errors: [{ path: '(yaml)', message: 'invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]', line: 7, column: 1 }],
    });
  });
});

describe('validateAgentConfigManifest', () => {
  it('accepts a plain object and reports paths without lines', () => {
    expect(valueOf(validateAgentConfigManifest(structuredClone(parsed)))).toEqual(parsed);
    const input = { ...structuredClone(parsed), modes: { concurrent: { env: { 'bad-name': 'x' } }, 'x y': {} }, secrets: ['OPENAI_API_KEY', 'OPENAI_API_KEY'] };
    expect(linesOf(validateAgentConfigManifest(input))).toEqual([
      `-: modes.concurrent.env.bad-name: expected ${ENV_NAME}, got "bad-name"`,
      '-: modes["x y"]: expected a lowercase mode name (1 to 63 characters among a-z 0-9 . _ -, starting with a letter or digit), got "x y"',
      '-: secrets[1]: expected a unique secret name, got "OPENAI_API_KEY" again (first at secrets[0])',
    ]);
  });
});

describe('agentConfigFingerprint', () => {
  it('ignores key order and formatting, and changes with a mode toggle', () => {
    const reordered = valueOf(
      parseAgentConfigManifest(`secrets: [OPENAI_API_KEY]
modes:
  sequential: { env: { MULTI_AGENT: "off" } }
  concurrent: { args: [--max-subagents, "8"], env: { MULTI_AGENT: "on" } }
env: { CODEX_HOME: /home/agent/.codex }
command:
  - codex
  - exec
  - --full-auto
image: ghcr.io/fanout/agents/codex:0.40.0
reasoningEffort: high
model: openai/gpt-5
scaffold: codex
name: codex-gpt5
`),
    );
    expect(agentConfigFingerprint(reordered)).toBe(agentConfigFingerprint(parsed));
    const changed = valueOf(parseAgentConfigManifest(edit(YAML, 'MULTI_AGENT: "on"', 'MULTI_AGENT: "yes"')));
    expect(agentConfigFingerprint(changed)).not.toBe(agentConfigFingerprint(parsed));
  });
});
