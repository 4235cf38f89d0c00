import type { AgentSpan } from './execution.types.js';
import { mean, median } from './numeric.util.js';

/** Delegation metrics of one execution. Times are in the unit of the spans (epoch ms in records). */
export interface DelegationMetrics {
  /** Distinct sub-agent contexts (ids with a parent), each counted once however many spans it has. */
  created: number;
  /** Largest number of sub-agents active at one instant. */
  peak: number;
  /** Measure of the set of instants with >= 2 sub-agents active. */
  overlapTime: number;
  /** overlapTime / span; 0 when there is no overlap or span = 0. */
  overlapRatio: number;
  /** t1 - t0 over the main agent and all sub-agents. */
  span: number;
  /** (earliest sub-agent start - t0) / span; null without sub-agents; 0 when span = 0. */
  firstSpawnPosition: number | null;
  /** (first instant with >= 2 active - t0) / span; null without overlap. */
  firstOverlapPosition: number | null;
  /** (latest sub-agent end - t0) / span; null without sub-agents; 0 when span = 0. */
  lastEndPosition: number | null;
  /** created >= 1 and overlapTime = 0. */
  neverOverlapping: boolean;
}

/**
 * Sub-agent intervals are half-open [start, end): one ending at the instant
 * another starts does not overlap it, and a zero-length span is never
 * active (it still counts as created). The main agent (parentId null) only
 * sets t0 and t1. Spans of the same id (rounds of one context) are merged
 * first, so a context is one sub-agent however often it is resumed.
 *
 * Zero span (t1 = t0): every position is 0 (everything happened at t0) and
 * the overlap ratio is 0 (no instant can hold an active interval), so
 * nothing is ever NaN.
 *
 * O(k log k): the merged starts and ends are sorted separately and swept
 * together, ends before starts at equal times.
 */
export function delegationMetrics(agents: readonly AgentSpan[]): DelegationMetrics {
  let t0 = Infinity;
  let t1 = -Infinity;
  const byId = new Map<string, AgentSpan[]>();
  let firstSubStart = Infinity;
  let lastSubEnd = -Infinity;
  for (const span of agents) {
    if (!(span.end >= span.start)) throw new RangeError(`delegation: agent ${span.id} ends (${span.end}) before it starts (${span.start})`);
    if (span.start < t0) t0 = span.start;
    if (span.end > t1) t1 = span.end;
    if (span.parentId === null) continue;
    const list = byId.get(span.id);
    if (list) list.push(span);
    else byId.set(span.id, [span]);
    if (span.start < firstSubStart) firstSubStart = span.start;
    if (span.end > lastSubEnd) lastSubEnd = span.end;
  }
  const created = byId.size;
  const span = agents.length === 0 ? 0 : t1 - t0;
  const position = (t: number): number => (span > 0 ? (t - t0) / span : 0);

  const starts: number[] = [];
  const ends: number[] = [];
  for (const spans of byId.values()) {
    if (spans.length === 1) {
      const only = spans[0]!;
      if (only.end > only.start) {
        starts.push(only.start);
        ends.push(only.end);
      }
      continue;
    }
    spans.sort((x, y) => x.start - y.start);
    let currentStart = spans[0]!.start;
    let currentEnd = spans[0]!.end;
    for (let i = 1; i <= spans.length; i++) {
      const next = spans[i];
      if (next && next.start <= currentEnd) {
        if (next.end > currentEnd) currentEnd = next.end;
        continue;
      }
      if (currentEnd > currentStart) {
        starts.push(currentStart);
        ends.push(currentEnd);
      }
      if (next) {
        currentStart = next.start;
        currentEnd = next.end;
      }
    }
  }
  const sortedStarts = Float64Array.from(starts).sort();
  const sortedEnds = Float64Array.from(ends).sort();

  let active = 0;
  let peak = 0;
  let overlapTime = 0;
  let firstOverlap: number | null = null;
  let i = 0;
  let j = 0;
  const count = sortedStarts.length;
  while (j < count) {
    // An interval's end comes after its start, so ends are never exhausted before starts.
    const t = i < count ? Math.min(sortedStarts[i]!, sortedEnds[j]!) : sortedEnds[j]!;
    while (j < count && sortedEnds[j] === t) {
      active--;
      j++;
    }
    while (i < count && sortedStarts[i] === t) {
      active++;
      i++;
    }
    if (active > peak) peak = active;
    if (active >= 2) {
      // active >= 2 means an end is still pending, so j < count here.
      const nextT = i < count ? Math.min(sortedStarts[i]!, sortedEnds[j]!) : sortedEnds[j]!;
      overlapTime += nextT - t;
      if (firstOverlap === null) firstOverlap = t;
    }
  }

  return {
    created,
    peak,
    overlapTime,
    overlapRatio: span > 0 ? overlapTime / span : 0,
    span,
    firstSpawnPosition: created > 0 ? position(firstSubStart) : null,
    firstOverlapPosition: firstOverlap === null ? null : position(firstOverlap),
    lastEndPosition: created > 0 ? position(lastSubEnd) : null,
    neverOverlapping: created >= 1 && overlapTime === 0,
  };
}

export interface DelegationAggregate {
  n: number;
  meanCreated: number | null;
  meanPeak: number | null;
  /** Over all executions, zeros included. */
  medianOverlapRatio: number | null;
  /** Medians of the positions over the executions that have them. */
  medianFirstSpawnPosition: number | null;
  medianFirstOverlapPosition: number | null;
  medianLastEndPosition: number | null;
  /** Executions with created >= 1 and no overlap, and their share of all n executions. */
  neverOverlapping: number;
  neverOverlappingRate: number | null;
}

function present(values: ReadonlyArray<number | null>): number[] {
  return values.filter((v): v is number => v !== null);
}

export function aggregateDelegation(metrics: readonly DelegationMetrics[]): DelegationAggregate {
  const n = metrics.length;
  const neverOverlapping = metrics.filter((m) => m.neverOverlapping).length;
  return {
    n,
    meanCreated: mean(metrics.map((m) => m.created)),
    meanPeak: mean(metrics.map((m) => m.peak)),
    medianOverlapRatio: median(metrics.map((m) => m.overlapRatio)),
    medianFirstSpawnPosition: median(present(metrics.map((m) => m.firstSpawnPosition))),
    medianFirstOverlapPosition: median(present(metrics.map((m) => m.firstOverlapPosition))),
    medianLastEndPosition: median(present(metrics.map((m) => m.lastEndPosition))),
    neverOverlapping,
    neverOverlappingRate: n === 0 ? null : neverOverlapping / n,
  };
}
