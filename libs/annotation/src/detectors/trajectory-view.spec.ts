import { describe, expect, it } from 'vitest';
import type { TrajectoryEventInput } from './detector.types.js';
import { buildTrajectoryView, normalizePath, spansOverlap } from './trajectory-view.js';
import { trajectory } from './trajectory.fixture.js';

const event = (seq: number, agentId: string, time: number, type = 'model.call', data: Record<string, unknown> = {}): TrajectoryEventInput => ({ seq, eventId: `${agentId}:${seq}`, type, agentId, time, data });

describe('buildTrajectoryView', () => {
  it('finds the main agent (no parent) and the spans from agent.start / agent.end', () => {
    const view = buildTrajectoryView(trajectory().start('sub-1', 10, 'lead').start('lead', 0, null).end('sub-1', 50, 'killed').events);
    expect(view.mainAgentId).toBe('lead');
    expect(view.agents.map((a) => [a.agentId, a.parentAgentId, a.start, a.end, a.status])).toEqual([
      ['lead', null, 0, null, null],
      ['sub-1', 'lead', 10, 50, 'killed'],
    ]);
  });

  it('without agent.start: the first event names the main agent and each agent starts at its first event', () => {
    const view = buildTrajectoryView([event(2, 'b', 20), event(1, 'a', 10), event(3, 'a', 30, 'agent.end', {})]);
    expect(view.mainAgentId).toBe('a');
    expect(view.byId.get('a')).toMatchObject({ start: 10, end: 30, status: 'ok' });
    expect(view.byId.get('b')).toMatchObject({ start: 20, end: null, parentAgentId: null });
  });

  it('orders by time, then arrival, and ignores events without a finite time', () => {
    const view = buildTrajectoryView([event(3, 'a', 5), event(1, 'a', 5), event(2, 'a', Number.NaN), event(4, 'a', 1)]);
    expect(view.events.map((e) => e.seq)).toEqual([4, 1, 3]);
    expect(view.t0).toBe(1);
  });

  it('keeps the first agent.start and the first agent.end of an agent', () => {
    const view = buildTrajectoryView(trajectory().start('main', 0).start('main', 5).end('main', 10).end('main', 20, 'killed').events);
    expect(view.byId.get('main')).toMatchObject({ start: 0, end: 10, status: 'ok', startEventId: 'main:1', endEventId: 'main:3' });
  });
});

describe('spansOverlap (half-open)', () => {
  const span = (start: number, end: number | null) => ({ agentId: 'x', parentAgentId: null, start, end, status: null, startEventId: 'x', endEventId: null, endIndex: null });
  it.each([
    { a: [0, 10], b: [10, 20], overlap: false },
    { a: [0, 10], b: [9, 20], overlap: true },
    { a: [0, null], b: [500, 600], overlap: true },
    { a: [5, 5], b: [0, 10], overlap: false },
  ] as const)('[$a.0, $a.1) and [$b.0, $b.1): $overlap', ({ a, b, overlap }) => {
    expect(spansOverlap(span(a[0], a[1]), span(b[0], b[1]))).toBe(overlap);
    expect(spansOverlap(span(b[0], b[1]), span(a[0], a[1]))).toBe(overlap);
  });
});

describe('normalizePath', () => {
  it.each([
    ['./src/a.js', 'src/a.js'],
    ['src//a.js', 'src/a.js'],
    ['src\\a.js', 'src/a.js'],
    ['/abs/./x', '/abs/x'],
  ])('%s -> %s', (input, output) => expect(normalizePath(input)).toBe(output));
});
