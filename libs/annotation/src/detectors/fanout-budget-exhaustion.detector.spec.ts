import { describe, expect, it } from 'vitest';
import { detectFanoutBudgetExhaustion } from './fanout-budget-exhaustion.detector.js';
import { trajectory, type Trajectory } from './trajectory.fixture.js';

const DEADLINE = 1000;

/** main and two sub-agents started at 0 and 10; each case ends them its own way. */
const fanOut = () => trajectory().start('main', 0).start('sub-1', 0).start('sub-2', 10);

const cases: Array<{ name: string; t: Trajectory; deadline: number | null; flagged: string[] }> = [
  { name: 'everyone ends before the deadline', t: fanOut().end('sub-1', 400).end('sub-2', 500).end('main', 900), deadline: DEADLINE, flagged: [] },
  { name: 'a sub-agent ending exactly at the deadline was not running at it (half-open)', t: fanOut().end('sub-1', 400).end('sub-2', DEADLINE).end('main', DEADLINE), deadline: DEADLINE, flagged: [] },
  { name: 'a sub-agent ending 1 ms after the deadline', t: fanOut().end('sub-1', 400).end('sub-2', DEADLINE + 1).end('main', DEADLINE + 2), deadline: DEADLINE, flagged: ['sub-2'] },
  { name: 'no agent.end at all: the runner killed the process group', t: fanOut().write('sub-1', 600, 'a.js'), deadline: DEADLINE, flagged: ['sub-1', 'sub-2'] },
  { name: 'sub-agents killed just before the deadline (SIGTERM from the runner)', t: fanOut().end('sub-1', 400).end('sub-2', DEADLINE - 3, 'killed').end('main', DEADLINE - 2, 'killed'), deadline: DEADLINE, flagged: ['sub-2'] },
  { name: 'sub-agents killed early by a main agent that saw the budget running out', t: fanOut().end('sub-1', 300, 'killed').end('sub-2', 310, 'killed').end('main', 320), deadline: DEADLINE, flagged: ['sub-1', 'sub-2'] },
  { name: 'an error end before the deadline is not exhaustion', t: fanOut().end('sub-1', 400, 'error').end('sub-2', 500).end('main', 900), deadline: DEADLINE, flagged: [] },
  { name: 'the main agent alone running past the deadline is not fan-out exhaustion', t: fanOut().end('sub-1', 400).end('sub-2', 500), deadline: DEADLINE, flagged: [] },
  { name: 'sequential run (no sub-agent) killed at the deadline', t: trajectory().start('main', 0).write('main', 500, 'a.js'), deadline: DEADLINE, flagged: [] },
  { name: 'unknown deadline: no suggestion, whatever ran', t: fanOut().write('sub-1', 600, 'a.js'), deadline: null, flagged: [] },
];

describe('fan-out budget exhaustion detector', () => {
  it.each(cases)('$name', ({ t, deadline, flagged }) => {
    const suggestions = detectFanoutBudgetExhaustion(t.events, { deadline });
    expect(suggestions.flatMap((s) => s.evidence.map((e) => e.agentId))).toEqual(flagged);
    expect(suggestions.length).toBe(flagged.length === 0 ? 0 : 1);
  });

  it('says which sub-agent did what, with its span and the event that shows it', () => {
    const t = fanOut().start('sub-3', 20).end('sub-1', 400).end('sub-2', 990, 'killed').end('main', 1050).end('sub-3', 1200);
    t.start('sub-4', 30);
    expect(detectFanoutBudgetExhaustion(t.events, { deadline: DEADLINE })).toEqual([
      {
        detector: 'fanout-budget-exhaustion',
        pattern: 'fanout_budget_exhaustion',
        summary: '3 of 4 sub-agents (sub-2, sub-3 and sub-4) still running or killed at the deadline (+1.000 s).',
        evidence: [
          { agentId: 'sub-2', eventId: 'sub-2:2', from: 10, to: 990, note: 'killed 10 ms before the deadline' },
          { agentId: 'sub-3', eventId: 'sub-3:2', from: 20, to: 1200, note: 'ended (ok) 200 ms after the deadline' },
          { agentId: 'sub-4', eventId: 'sub-4:1', from: 30, note: 'never ended: no agent.end after its start at +0.030 s, still running when the trajectory stops' },
        ],
      },
    ]);
  });
});
