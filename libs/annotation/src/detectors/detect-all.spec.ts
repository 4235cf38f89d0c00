import { describe, expect, it } from 'vitest';
import { DETECTORS, detectAll } from './detect-all.js';
import { DETECTED_PATTERNS } from './detector.types.js';
import { trajectory } from './trajectory.fixture.js';

/** The demo agent under a short budget: two sub-agents race on one file, the main agent gives up waiting. */
const racy = () =>
  trajectory()
    .start('main', 0)
    .start('sub-1', 10)
    .start('sub-2', 20)
    .read('sub-1', 30, 'src/a.js')
    .read('sub-2', 40, 'src/a.js')
    .write('sub-1', 200, 'src/a.js')
    .write('sub-2', 300, 'src/a.js')
    .message('main', 800)
    .end('sub-1', 810, 'killed')
    .end('main', 820)
    .end('sub-2', 1500, 'killed');

describe('detectAll', () => {
  it('runs every detector once, in a fixed order, one per pattern', () => {
    expect(DETECTORS.map((d) => d.name)).toEqual(['concurrent-writes', 'fanout-budget-exhaustion', 'premature-termination']);
    expect(DETECTORS.map((d) => d.pattern)).toEqual([...DETECTED_PATTERNS]);
  });

  it('collects their suggestions in detector order', () => {
    const suggestions = detectAll(racy().events, { deadline: 1000 });
    expect(suggestions.map((s) => [s.detector, s.pattern])).toEqual([
      ['concurrent-writes', 'concurrent_writes'],
      ['fanout-budget-exhaustion', 'fanout_budget_exhaustion'],
      ['premature-termination', 'premature_termination'],
    ]);
    expect(suggestions[1].evidence.map((e) => e.agentId)).toEqual(['sub-1', 'sub-2']);
    expect(suggestions[2].evidence.map((e) => e.agentId)).toEqual(['main', 'sub-2', 'sub-1']);
  });

  it('is deterministic: the same events in any arrival order give the same suggestions', () => {
    const events = racy().events;
    const expected = detectAll(events, { deadline: 1000 });
    for (const order of [[...events].reverse(), [...events.slice(5), ...events.slice(0, 5)]]) expect(detectAll(order, { deadline: 1000 })).toEqual(expected);
  });

  it('suggests nothing for an empty trajectory or a clean sequential run', () => {
    expect(detectAll([], { deadline: 0 })).toEqual([]);
    const sequential = trajectory().start('main', 0).read('main', 5, 'src/a.js').model('main', 50, 40).write('main', 60, 'src/a.js').write('main', 70, 'src/a.js').message('main', 80).end('main', 90);
    expect(detectAll(sequential.events, { deadline: 1000 })).toEqual([]);
  });
});
