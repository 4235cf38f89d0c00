import { describe, expect, it } from 'vitest';
import { detectPrematureTermination } from './premature-termination.detector.js';
import { trajectory, type Trajectory } from './trajectory.fixture.js';

/** main spawns two sub-agents that end at 400 and 500. */
const fanOut = () => trajectory().start('main', 0).model('main', 5).start('sub-1', 10).start('sub-2', 20).end('sub-1', 400).end('sub-2', 500);

const cases: Array<{ name: string; t: Trajectory; running: string[]; unread: string[] }> = [
  { name: 'the main agent waits, then its model reads the results', t: fanOut().model('main', 700, 100).end('main', 800), running: [], unread: [] },
  { name: 'a model call that started at the instant the last sub-agent ended read it', t: fanOut().model('main', 600, 100).end('main', 800), running: [], unread: [] },
  { name: 'a model call already running when a sub-agent ended did not read it', t: fanOut().model('main', 600, 101).end('main', 800), running: [], unread: ['sub-2'] },
  { name: 'a final assistant message after the results counts as reading them', t: fanOut().message('main', 700).end('main', 800), running: [], unread: [] },
  { name: 'a user message or a tool call after the results does not', t: fanOut().message('main', 600, 'user').tool('main', 650, 'other', { command: 'wait_agents' }).end('main', 800), running: [], unread: ['sub-1', 'sub-2'] },
  { name: 'read one, not the other', t: trajectory().start('main', 0).start('sub-1', 10).start('sub-2', 20).end('sub-1', 400).model('main', 450, 40).end('sub-2', 500).end('main', 800), running: [], unread: ['sub-2'] },
  { name: 'the main agent ends while a sub-agent still runs', t: trajectory().start('main', 0).start('sub-1', 10).start('sub-2', 20).end('sub-1', 400).model('main', 450).end('main', 460).end('sub-2', 500), running: ['sub-2'], unread: [] },
  { name: 'a sub-agent ending at the instant the main agent ends was not read', t: trajectory().start('main', 0).start('sub-1', 10).end('sub-1', 800).end('main', 800), running: [], unread: ['sub-1'] },
  { name: 'a sub-agent with no agent.end is still running', t: trajectory().start('main', 0).start('sub-1', 10).model('main', 450).end('main', 460), running: ['sub-1'], unread: [] },
  {
    name: 'stops waiting, kills the sub-agents, returns (the demo agent under a short budget)',
    t: trajectory().start('main', 0).start('sub-1', 10).start('sub-2', 20).end('sub-1', 300).tool('main', 400, 'other', { command: 'wait_agents' }).message('main', 410).end('sub-2', 420, 'killed').end('main', 430),
    running: [],
    unread: ['sub-2'],
  },
  { name: 'a killed main agent did not terminate on its own', t: trajectory().start('main', 0).start('sub-1', 10).end('sub-1', 990, 'killed').end('main', 995, 'killed'), running: [], unread: [] },
  { name: 'no agent.end of the main agent: nothing to say', t: trajectory().start('main', 0).start('sub-1', 10), running: [], unread: [] },
  { name: 'sequential run', t: trajectory().start('main', 0).model('main', 100).write('main', 110, 'a.js').end('main', 200), running: [], unread: [] },
  {
    name: "a nested sub-agent's result goes to its parent, not the main agent; still running counts at any depth",
    t: trajectory().start('main', 0).start('sub-1', 10).start('sub-1a', 20, 'sub-1').end('sub-1a', 100).model('sub-1', 150, 10).end('sub-1', 200).model('main', 300, 50).start('sub-1b', 310, 'sub-1').end('main', 400),
    running: ['sub-1b'],
    unread: [],
  },
  {
    name: 'an error end of the main agent is still an end of its own',
    t: trajectory().start('main', 0).start('sub-1', 10).end('main', 100, 'error').end('sub-1', 150),
    running: ['sub-1'],
    unread: [],
  },
];

describe('premature termination detector', () => {
  it.each(cases)('$name', ({ t, running, unread }) => {
    const suggestions = detectPrematureTermination(t.events);
    const flagged = suggestions.flatMap((s) => s.evidence.slice(1));
    expect(flagged.filter((e) => !/no model call/.test(e.note)).map((e) => e.agentId)).toEqual(running);
    expect(flagged.filter((e) => /no model call/.test(e.note)).map((e) => e.agentId)).toEqual(unread);
    expect(suggestions.length).toBe(running.length + unread.length === 0 ? 0 : 1);
  });

  it('puts the main agent end first, then what was running, then what was never read', () => {
    const t = trajectory().start('main', 0).start('sub-1', 10).start('sub-2', 20).end('sub-1', 300).end('main', 1000).end('sub-2', 1250, 'killed');
    expect(detectPrematureTermination(t.events)).toEqual([
      {
        detector: 'premature-termination',
        pattern: 'premature_termination',
        summary: 'The main agent ended (ok) at +1.000 s with sub-2 still running and without reading the result of sub-1.',
        evidence: [
          { agentId: 'main', eventId: 'main:2', from: 0, to: 1000, note: 'the main agent ended (ok) at +1.000 s' },
          { agentId: 'sub-2', eventId: 'sub-2:2', from: 20, to: 1250, note: 'ended (killed) 250 ms after the main agent' },
          { agentId: 'sub-1', eventId: 'sub-1:2', from: 10, to: 300, note: 'ended (ok) at +0.300 s; the main agent made no model call and wrote no assistant message after that before ending' },
        ],
      },
    ]);
  });
});
