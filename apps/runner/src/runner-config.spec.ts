import { describe, expect, it } from 'vitest';
import { loadRunnerConfig, RunnerConfigError } from './runner-config.js';

const VALID = {
  FANOUT_API: 'http://127.0.0.1:3000',
  FANOUT_EXECUTION_ID: '6f1c2a4e-8b7d-4c1e-9f3a-2b5d7e9c1a3f',
  FANOUT_RUNNER_TOKEN: 'secret-token-value',
  FANOUT_WORK_DIR: 'work',
};

describe('loadRunnerConfig', () => {
  it('reads a valid environment with defaults, the work folder made absolute', () => {
    const config = loadRunnerConfig(VALID);
    expect(config).toMatchObject({ api: VALID.FANOUT_API, executionId: VALID.FANOUT_EXECUTION_ID, token: VALID.FANOUT_RUNNER_TOKEN, logLevel: 'info', killGraceMs: 3000 });
    expect(config.workDir).toMatch(/^\/.*\/work$/);
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('names every invalid variable with what was expected and received', () => {
    const env = { ...VALID, FANOUT_API: 'localhost:3000', FANOUT_EXECUTION_ID: '42', FANOUT_WORK_DIR: '', FANOUT_RUNNER_KILL_GRACE_SECONDS: 'soon' };
    expect(() => loadRunnerConfig(env)).toThrow(RunnerConfigError);
    let message = '';
    try {
      loadRunnerConfig(env);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('FANOUT_API: expected an http:// or https:// base URL, e.g. http://127.0.0.1:3000 (got "localhost:3000")');
    expect(message).toContain('FANOUT_EXECUTION_ID: expected the execution id (a UUID) (got "42")');
    expect(message).toContain('FANOUT_WORK_DIR: expected a folder to work in (created if missing) (not set)');
    expect(message).toContain('FANOUT_RUNNER_KILL_GRACE_SECONDS: expected seconds from 0 to 600');
  });

  it('never echoes the token', () => {
    expect(() => loadRunnerConfig({ ...VALID, FANOUT_RUNNER_TOKEN: undefined })).toThrow(/FANOUT_RUNNER_TOKEN: .*\(not set\)/);
    const env = { ...VALID, FANOUT_API: 'nope', FANOUT_RUNNER_LOG_LEVEL: 'loud' };
    expect(() => loadRunnerConfig(env)).not.toThrow(/secret-token-value/);
  });
});
