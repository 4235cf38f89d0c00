import { describe, expect, it } from 'vitest';
import { concurrentWritesDetector, detectConcurrentWrites } from './concurrent-writes.detector.js';
import type { Suggestion } from './detector.types.js';
import { trajectory, type Trajectory } from './trajectory.fixture.js';

/** One suggestion as { path, agents flagged by the overlap rule, overwriting write ids }. */
function compact(s: Suggestion) {
  expect(s).toMatchObject({ detector: 'concurrent-writes', pattern: 'concurrent_writes' });
  const overwrite = (note: string) => /without reading it since/.test(note);
  return {
    path: s.summary.slice(0, s.summary.indexOf(':')),
    overlap: s.evidence.filter((e) => !overwrite(e.note)).map((e) => e.agentId),
    overwrites: s.evidence.filter((e) => overwrite(e.note)).map((e) => e.eventId),
  };
}

/** main around everything; the cases add sub-agents. */
const base = () => trajectory().start('main', 0);

const cases: Array<{ name: string; t: Trajectory; expected: ReturnType<typeof compact>[] }> = [
  {
    name: 'two overlapping sub-agents, each read the file before the other wrote: overlap and an unread overwrite',
    t: base().start('sub-1', 0).start('sub-2', 10).read('sub-1', 5, 'src/a.js').read('sub-2', 15, 'src/a.js').write('sub-1', 50, 'src/a.js').write('sub-2', 80, 'src/a.js').end('sub-1', 100).end('sub-2', 120).end('main', 200),
    expected: [{ path: 'src/a.js', overlap: ['sub-1', 'sub-2'], overwrites: ['sub-2:3'] }],
  },
  {
    name: 'overlapping, but the second re-read the file after the first wrote: overlap only',
    t: base().start('sub-1', 0).start('sub-2', 10).write('sub-1', 50, 'src/a.js').read('sub-2', 60, 'src/a.js').write('sub-2', 80, 'src/a.js').end('sub-1', 100).end('sub-2', 120).end('main', 200),
    expected: [{ path: 'src/a.js', overlap: ['sub-1', 'sub-2'], overwrites: [] }],
  },
  {
    name: 'sequential sub-agents, the second reads before writing: nothing',
    t: base().start('sub-1', 0).write('sub-1', 50, 'src/a.js').end('sub-1', 100).start('sub-2', 150).read('sub-2', 160, 'src/a.js').write('sub-2', 180, 'src/a.js').end('sub-2', 200).end('main', 300),
    expected: [],
  },
  {
    name: 'half-open spans: sub-2 starts at the instant sub-1 ends, reads, writes: nothing',
    t: base().start('sub-1', 0).write('sub-1', 50, 'src/a.js').end('sub-1', 100).start('sub-2', 100).read('sub-2', 110, 'src/a.js').write('sub-2', 150, 'src/a.js').end('sub-2', 200).end('main', 300),
    expected: [],
  },
  {
    name: 'half-open spans, but sub-2 writes without reading: the overwrite only',
    t: base().start('sub-1', 0).write('sub-1', 50, 'src/a.js').end('sub-1', 100).start('sub-2', 100).write('sub-2', 150, 'src/a.js').end('sub-2', 200).end('main', 300),
    expected: [{ path: 'src/a.js', overlap: [], overwrites: ['sub-2:2'] }],
  },
  {
    name: 'overlapping sub-agents writing different files: nothing',
    t: base().start('sub-1', 0).start('sub-2', 0).write('sub-1', 50, 'src/a.js').write('sub-2', 60, 'src/b.js').end('sub-1', 100).end('sub-2', 100).end('main', 200),
    expected: [],
  },
  {
    name: 'one sub-agent writing a file twice without reading: nothing',
    t: base().start('sub-1', 0).start('sub-2', 0).write('sub-1', 50, 'src/a.js').write('sub-1', 60, 'src/a.js').end('sub-1', 100).end('sub-2', 100).end('main', 200),
    expected: [],
  },
  {
    name: "the main agent rewrites a sub-agent's file without reading it: an overwrite, never the overlap rule",
    t: base().start('sub-1', 0).write('sub-1', 50, 'src/a.js').end('sub-1', 100).write('main', 150, 'src/a.js').end('main', 200),
    expected: [{ path: 'src/a.js', overlap: [], overwrites: ['main:2'] }],
  },
  {
    name: 'the main agent reads the file before fixing it: nothing',
    t: base().start('sub-1', 0).write('sub-1', 50, 'src/a.js').end('sub-1', 100).read('main', 120, 'src/a.js').write('main', 150, 'src/a.js').end('main', 200),
    expected: [],
  },
  {
    name: 'a sub-agent without agent.end overlaps every later one',
    t: base().start('sub-1', 0).write('sub-1', 50, 'src/a.js').start('sub-2', 500).read('sub-2', 510, 'src/a.js').write('sub-2', 600, 'src/a.js').end('sub-2', 700),
    expected: [{ path: 'src/a.js', overlap: ['sub-1', 'sub-2'], overwrites: [] }],
  },
  {
    name: 'the same content written (same sha256): no overwrite',
    t: base().start('sub-1', 0).write('sub-1', 50, 'src/a.js', 'a'.repeat(64)).end('sub-1', 100).start('sub-2', 100).write('sub-2', 150, 'src/a.js', 'a'.repeat(64)).end('sub-2', 200).end('main', 300),
    expected: [],
  },
  {
    name: 'paths spelled differently are one file',
    t: base().start('sub-1', 0).start('sub-2', 0).write('sub-1', 50, './src/a.js').read('sub-2', 60, 'src//a.js').write('sub-2', 70, 'src/a.js').end('sub-1', 100).end('sub-2', 100).end('main', 200),
    expected: [{ path: 'src/a.js', overlap: ['sub-1', 'sub-2'], overwrites: [] }],
  },
  {
    name: 'a read tool call without filesTouched counts through its command',
    t: base()
      .start('sub-1', 0)
      .write('sub-1', 50, 'src/a.js')
      .end('sub-1', 100)
      .start('sub-2', 100)
      .tool('sub-2', 110, 'read', { command: 'cat src/a.js' })
      .write('sub-2', 150, 'src/a.js')
      .end('sub-2', 200)
      .end('main', 300),
    expected: [],
  },
  {
    name: 'reads that do not count: by another agent, of another file, or a shell call touching it',
    t: base()
      .start('sub-1', 0)
      .write('sub-1', 50, 'src/a.js')
      .end('sub-1', 100)
      .start('sub-2', 100)
      .read('main', 110, 'src/a.js')
      .read('sub-2', 120, 'src/b.js')
      .tool('sub-2', 130, 'shell', { command: 'node --check src/a.js', filesTouched: ['src/a.js'] })
      .write('sub-2', 150, 'src/a.js')
      .end('sub-2', 200)
      .end('main', 300),
    expected: [{ path: 'src/a.js', overlap: [], overwrites: ['sub-2:4'] }],
  },
  {
    name: 'three writers: only the overlapping pair is flagged by the overlap rule',
    t: base()
      .start('sub-1', 0)
      .start('sub-2', 50)
      .read('sub-1', 60, 'src/a.js')
      .read('sub-2', 70, 'src/a.js')
      .write('sub-1', 80, 'src/a.js')
      .end('sub-1', 100)
      .read('sub-2', 120, 'src/a.js')
      .write('sub-2', 130, 'src/a.js')
      .end('sub-2', 150)
      .start('sub-3', 150)
      .read('sub-3', 160, 'src/a.js')
      .write('sub-3', 170, 'src/a.js')
      .end('sub-3', 250)
      .end('main', 300),
    expected: [{ path: 'src/a.js', overlap: ['sub-1', 'sub-2'], overwrites: [] }],
  },
  {
    name: 'two files: one suggestion each, in path order',
    t: base()
      .start('sub-1', 0)
      .start('sub-2', 0)
      .write('sub-1', 10, 'src/z.js')
      .write('sub-2', 20, 'src/z.js')
      .write('sub-2', 30, 'src/b.js')
      .write('sub-1', 40, 'src/b.js')
      .end('sub-1', 100)
      .end('sub-2', 100)
      .end('main', 200),
    expected: [
      { path: 'src/b.js', overlap: ['sub-1', 'sub-2'], overwrites: ['sub-1:3'] },
      { path: 'src/z.js', overlap: ['sub-1', 'sub-2'], overwrites: ['sub-2:2'] },
    ],
  },
  {
    name: 'no file writes at all',
    t: base().start('sub-1', 0).start('sub-2', 0).model('sub-1', 10).end('sub-1', 100).end('sub-2', 100).end('main', 200),
    expected: [],
  },
  {
    name: 'a single sequential agent rewriting its own file',
    t: base().write('main', 10, 'src/a.js').write('main', 20, 'src/a.js').end('main', 30),
    expected: [],
  },
];

describe('concurrent writes detector', () => {
  it.each(cases)('$name', ({ t, expected }) => {
    expect(detectConcurrentWrites(t.events).map(compact)).toEqual(expected);
  });

  it('gives the evidence an annotator needs: the write events, the spans, the overwritten write', () => {
    const t = base().start('sub-1', 1000).start('sub-2', 1010).read('sub-1', 1005, 'src/a.js').read('sub-2', 1015, 'src/a.js').write('sub-1', 1050, 'src/a.js').write('sub-2', 1080, 'src/a.js').end('sub-1', 1100).end('sub-2', 1120).end('main', 1200);
    // main starts at 0: offsets are from the first event.
    expect(detectConcurrentWrites(t.events)).toEqual([
      {
        detector: 'concurrent-writes',
        pattern: 'concurrent_writes',
        summary: "src/a.js: written by sub-1 and sub-2 while running at the same time; 1 write over another agent's write that was not read first.",
        evidence: [
          { agentId: 'sub-1', eventId: 'sub-1:3', from: 1000, to: 1100, note: 'wrote src/a.js once (first at +1.050 s) while sub-2 was running' },
          { agentId: 'sub-2', eventId: 'sub-2:3', from: 1010, to: 1120, note: 'wrote src/a.js once (first at +1.080 s) while sub-1 was running' },
          { agentId: 'sub-2', eventId: 'sub-2:3', from: 1050, to: 1080, note: "wrote src/a.js at +1.080 s without reading it since sub-1's write sub-1:3 at +1.050 s: that write may be lost" },
        ],
      },
    ]);
  });

  it('does not depend on the order events arrive in (ties between equal times go by seq)', () => {
    const t = cases[0].t;
    const shuffled = [...t.events].reverse();
    expect(detectConcurrentWrites(shuffled)).toEqual(detectConcurrentWrites(t.events));
    expect(concurrentWritesDetector.name).toBe('concurrent-writes');
  });
});
