import type { Detector, DetectorContext, Evidence, Suggestion, TrajectoryEventInput } from './detector.types.js';
import { buildTrajectoryView, compare, listNames, normalizePath, offset, spansOverlap, stringField, stringsField, type TrajectoryView } from './trajectory-view.js';

interface Write {
  index: number;
  event: TrajectoryEventInput;
  path: string;
  sha: string | null;
}

/**
 * Concurrent writes (pattern `concurrent_writes`): one suggestion per file,
 * files in path order, when either rule holds for it.
 *
 * 1. Overlap. Two different sub-agents both have a file.write of the file
 *    and their spans [start, end) overlap (trajectory-view.ts: an agent
 *    without agent.end is open-ended; one ending at the instant the other
 *    starts does not overlap). The main agent is left out of this rule: its
 *    span contains every sub-agent's, so it would flag every file it touches
 *    after a sub-agent did.
 * 2. Unread overwrite. Among all file.write events of the file (any agents,
 *    main included) in time order, a write by agent B directly follows a
 *    write by a different agent A, and B has no read of the file between the
 *    two: B wrote from a version that did not contain A's write. A read is a
 *    tool.call of kind `read` by B whose `filesTouched` holds the path (or,
 *    without `filesTouched`, whose `command` names it as a word), which is
 *    what the demo agent logs before every edit. Not an overwrite when both
 *    writes carry the same sha256 (nothing differs, nothing is lost).
 *    A patch-style edit that re-reads the file silently (the demo agent's
 *    `edit` as opposed to `write`) looks the same in the events: rule 2 can
 *    suggest an overwrite that lost nothing, which is why it is a suggestion.
 */
export const concurrentWritesDetector: Detector = {
  name: 'concurrent-writes',
  pattern: 'concurrent_writes',
  detect: (view) => fromView(view),
};

/** Concurrent-writes suggestions for one trajectory (the context is not used: the rules need no deadline). */
export function detectConcurrentWrites(events: readonly TrajectoryEventInput[], context: DetectorContext = { deadline: null }): Suggestion[] {
  return concurrentWritesDetector.detect(buildTrajectoryView(events), context);
}

function fromView(view: TrajectoryView): Suggestion[] {
  const writesByPath = new Map<string, Write[]>();
  view.events.forEach((event, index) => {
    if (event.type !== 'file.write') return;
    const raw = stringField(event.data, 'path');
    if (raw === null || raw === '') return;
    const path = normalizePath(raw);
    const list = writesByPath.get(path) ?? [];
    list.push({ index, event, path, sha: stringField(event.data, 'sha256') });
    writesByPath.set(path, list);
  });
  if (writesByPath.size === 0) return [];
  const reads = readPositions(view);

  const out: Suggestion[] = [];
  for (const path of [...writesByPath.keys()].sort(compare)) {
    const writes = writesByPath.get(path)!;
    const evidence: Evidence[] = [];

    // Rule 1: sub-agents writing the file, pairwise span overlap.
    const writers = new Map<string, Write[]>();
    for (const w of writes) {
      if (w.event.agentId === view.mainAgentId) continue;
      writers.set(w.event.agentId, [...(writers.get(w.event.agentId) ?? []), w]);
    }
    const ids = [...writers.keys()].sort((a, b) => view.byId.get(a)!.start - view.byId.get(b)!.start || compare(a, b));
    const partners = new Map<string, string[]>();
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        if (!spansOverlap(view.byId.get(ids[i])!, view.byId.get(ids[j])!)) continue;
        partners.set(ids[i], [...(partners.get(ids[i]) ?? []), ids[j]]);
        partners.set(ids[j], [...(partners.get(ids[j]) ?? []), ids[i]]);
      }
    }
    const overlapping = ids.filter((id) => partners.has(id));
    for (const id of overlapping) {
      const span = view.byId.get(id)!;
      const own = writers.get(id)!;
      evidence.push({
        agentId: id,
        eventId: own[0].event.eventId,
        from: span.start,
        ...(span.end === null ? {} : { to: span.end }),
        note: `wrote ${path} ${own.length === 1 ? 'once' : `${own.length} times`} (first at ${offset(view, own[0].event.time)}) while ${listNames(partners.get(id)!)} ${partners.get(id)!.length === 1 ? 'was' : 'were'} running`,
      });
    }

    // Rule 2: a write directly after another agent's, with no read of the file in between.
    let overwrites = 0;
    for (let k = 1; k < writes.length; k++) {
      const before = writes[k - 1];
      const after = writes[k];
      if (before.event.agentId === after.event.agentId) continue;
      if (before.sha !== null && before.sha === after.sha) continue;
      if (hasReadBetween(reads.get(key(after.event.agentId, path)), before.index, after.index)) continue;
      overwrites++;
      evidence.push({
        agentId: after.event.agentId,
        eventId: after.event.eventId,
        from: before.event.time,
        to: after.event.time,
        note: `wrote ${path} at ${offset(view, after.event.time)} without reading it since ${before.event.agentId}'s write ${before.event.eventId} at ${offset(view, before.event.time)}: that write may be lost`,
      });
    }

    if (evidence.length === 0) continue;
    const parts: string[] = [];
    if (overlapping.length > 0) parts.push(`written by ${listNames(overlapping)} while running at the same time`);
    if (overwrites > 0) parts.push(`${overwrites} write${overwrites === 1 ? '' : 's'} over another agent's write that ${overwrites === 1 ? 'was' : 'were'} not read first`);
    out.push({ detector: concurrentWritesDetector.name, pattern: 'concurrent_writes', evidence, summary: `${path}: ${parts.join('; ')}.` });
  }
  return out;
}

const key = (agentId: string, path: string) => `${agentId}\u0000${path}`;

/** Positions (ascending) of each agent's reads of each path. */
function readPositions(view: TrajectoryView): Map<string, number[]> {
  const out = new Map<string, number[]>();
  view.events.forEach((event, index) => {
    if (event.type !== 'tool.call' || stringField(event.data, 'kind') !== 'read') return;
    const touched = stringsField(event.data, 'filesTouched') ?? (stringField(event.data, 'command') ?? '').split(/\s+/).filter((w) => w !== '');
    for (const path of new Set(touched.map(normalizePath))) {
      const k = key(event.agentId, path);
      const list = out.get(k) ?? [];
      list.push(index);
      out.set(k, list);
    }
  });
  return out;
}

/** Whether an ascending list has an element strictly between lo and hi (binary search). */
function hasReadBetween(positions: number[] | undefined, lo: number, hi: number): boolean {
  if (!positions) return false;
  let a = 0;
  let b = positions.length;
  while (a < b) {
    const mid = (a + b) >> 1;
    if (positions[mid] <= lo) a = mid + 1;
    else b = mid;
  }
  return a < positions.length && positions[a] < hi;
}
