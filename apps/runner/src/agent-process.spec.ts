import { describe, expect, it } from 'vitest';
import { commandLine } from './agent-process.js';
import { graderTimeoutMs } from './grader.js';

describe('commandLine', () => {
  it('runs a string through sh -c, passing args as positional parameters (no quoting to get wrong)', () => {
    expect(commandLine('node agent.js --mode x', [])).toEqual({ file: 'sh', argv: ['-c', 'node agent.js --mode x', 'sh'] });
    expect(commandLine('node agent.js', ["it's", '$HOME'])).toEqual({ file: 'sh', argv: ['-c', 'node agent.js "$@"', 'sh', "it's", '$HOME'] });
  });

  it('runs a list as argv, args appended', () => {
    expect(commandLine(['/usr/bin/agent', '--a'], ['--b', 'c d'])).toEqual({ file: '/usr/bin/agent', argv: ['--a', '--b', 'c d'] });
    expect(() => commandLine([], [])).toThrow(/empty command/);
  });
});

describe('graderTimeoutMs', () => {
  it.each([
    [1, 30_000],
    [60, 120_000],
    [150, 300_000],
    [3600, 300_000],
  ])('gives a %s s budget a grader limit of %s ms', (budget, limit) => {
    expect(graderTimeoutMs(budget)).toBe(limit);
  });
});
