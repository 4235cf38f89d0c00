import * as Plot from '@observablehq/plot';
import { PlotFigure } from '../components/plot-figure';
import { seconds } from '../format';

export interface Span {
  id: string;
  parentId: string | null;
  depth: number;
  start: string;
  end: string;
  offsetSeconds: number;
  durationSeconds: number;
}
export interface TimelineEvent {
  seq: string;
  eventId: string;
  type: string;
  agentId: string;
  time: string;
  data: Record<string, unknown>;
  payload: string | null;
}

/** Intervals (seconds from the first start) where two or more agents were active at once. */
export function overlaps(spans: Span[]): { from: number; to: number; active: number }[] {
  const points = spans.flatMap((s) => [
    { t: s.offsetSeconds, d: 1 },
    { t: s.offsetSeconds + s.durationSeconds, d: -1 },
  ]);
  points.sort((a, b) => a.t - b.t || a.d - b.d);
  const out: { from: number; to: number; active: number }[] = [];
  let active = 0;
  for (let i = 0; i < points.length; i++) {
    active += points[i]!.d;
    const next = points[i + 1];
    if (active >= 2 && next && next.t > points[i]!.t) out.push({ from: points[i]!.t, to: next.t, active });
  }
  return out;
}

/** A label's evidence to pin: an event (at its time) or an agent with an optional time range. */
export interface EvidencePin {
  /** Who labelled, e.g. "A", "B" or "you". */
  who: string;
  pattern: string;
  eventId: string | null;
  agentId: string | null;
  from: string | null;
  to: string | null;
}

const MARKED = new Set(['tool.call', 'model.call', 'file.write']);

/**
 * The Gantt chart of the main agent and every sub-agent (depth-first, so a
 * sub-agent sits under its parent), overlap shaded, and tool calls, model
 * calls and file writes as marks at their times.
 */
export function Timeline({ spans, events, pins = [] }: { spans: Span[]; events: TimelineEvent[]; pins?: EvidencePin[] }) {
  const t0 = Math.min(...spans.map((s) => Date.parse(s.start)));
  const label = (s: Span) => `${'· '.repeat(s.depth)}${s.id}`;
  const byId = new Map(spans.map((s) => [s.id, label(s)]));
  const domain = spans.map(label);
  const bars = spans.map((s) => ({ y: label(s), x1: s.offsetSeconds, x2: s.offsetSeconds + s.durationSeconds, role: s.depth === 0 ? 'main agent' : 'sub-agent', s }));
  const shaded = overlaps(spans);
  const marks = events
    .filter((e) => MARKED.has(e.type) && byId.has(e.agentId))
    .map((e) => ({ y: byId.get(e.agentId)!, x: (Date.parse(e.time) - t0) / 1000, type: e.type, e }));
  const overlapTotal = shaded.reduce((sum, o) => sum + (o.to - o.from), 0);
  const resolved = resolvePins(pins, spans, events, t0);
  const pinPoints = resolved.flatMap((p) => (p.kind === 'event' ? [p] : []));
  const pinRanges = resolved.flatMap((p) => (p.kind === 'range' ? [p] : []));
  const summary =
    `${spans.length} agents (${spans.length - 1} sub-agents); overlap for ${seconds(overlapTotal)}; ${marks.length} events marked.` +
    (pins.length ? ` ${resolved.length} evidence mark${resolved.length === 1 ? '' : 's'} pinned${pins.length > resolved.length ? ` (${pins.length - resolved.length} not placed: event not loaded or agent unknown)` : ''}.` : '');
  return (
    <>
      <PlotFigure
        deps={[spans, events, pins]}
        caption={`Agents over time (seconds from the first start). Shaded: two or more agents active at once. Marks: tool calls (circle), model calls (diamond), file writes (square), from the events loaded below.${pins.length ? ' Evidence: red outlined ranges on an agent\'s row and red stars at an event\'s time, labelled with the pattern.' : ''} ${summary}`}
        summary={summary}
        render={(width) =>
          Plot.plot({
            width,
            height: 70 + 32 * spans.length,
            marginLeft: 110,
            x: { label: 'seconds from start', grid: true },
            y: { label: null, domain },
            color: { legend: true, domain: ['main agent', 'sub-agent'], range: ['#2e5aac', '#7aa6e8'] },
            symbol: { legend: true, domain: ['tool.call', 'model.call', 'file.write'], range: ['circle', 'diamond', 'square'] },
            marks: [
              Plot.rectX(shaded, { x1: 'from', x2: 'to', fill: '#f2b134', fillOpacity: 0.25 }),
              Plot.barX(bars, { y: 'y', x1: 'x1', x2: 'x2', fill: 'role', title: (b) => `${b.s.id}: ${seconds(b.s.offsetSeconds)} → ${seconds(b.s.offsetSeconds + b.s.durationSeconds)}` }),
              Plot.dot(marks, { y: 'y', x: 'x', symbol: 'type', fill: 'white', stroke: 'black', r: 4, tip: true, title: (m) => `${m.type} #${m.e.seq} by ${m.e.agentId} at ${seconds(m.x)}` }),
              Plot.barX(pinRanges, { y: 'y', x1: 'x1', x2: 'x2', fill: '#c0392b', fillOpacity: 0.3, stroke: '#c0392b', strokeWidth: 2, inset: 6, title: (p) => p.text }),
              Plot.text(pinRanges, { y: 'y', x: 'x1', text: (p) => p.pin.pattern, textAnchor: 'start', dx: 3, dy: -10, fill: '#8e2a1f', fontSize: 10 }),
              Plot.dot(pinPoints, { y: 'y', x: 'x1', symbol: 'star', fill: '#c0392b', stroke: '#8e2a1f', r: 7, title: (p) => p.text }),
              Plot.text(pinPoints, { y: 'y', x: 'x1', text: (p) => p.pin.pattern, textAnchor: 'start', dx: 8, dy: -10, fill: '#8e2a1f', fontSize: 10 }),
            ],
          }) as Element
        }
      />
      {pins.length ? (
        <ul className="evidence-pins" aria-label="Evidence pinned to the timeline" data-testid="evidence-pins">
          {pins.map((p, i) => {
            const placed = resolved.find((r) => r.pin === p);
            return <li key={i}>{placed ? placed.text : `${p.who}: ${p.pattern}: ${p.eventId ? `event ${p.eventId}` : `agent ${p.agentId}`} (not on the timeline: event not loaded or agent unknown)`}</li>;
          })}
        </ul>
      ) : null}
      <details>
        <summary>Timeline as a table</summary>
        <table>
          <caption>Agent spans (depth-first)</caption>
          <thead>
            <tr>
              <th scope="col">Agent</th>
              <th scope="col">Parent</th>
              <th scope="col" className="num">Starts at</th>
              <th scope="col" className="num">Duration</th>
            </tr>
          </thead>
          <tbody>
            {spans.map((s) => (
              <tr key={s.id}>
                <th scope="row">{label(s)}</th>
                <td>{s.parentId ?? '–'}</td>
                <td className="num">{seconds(s.offsetSeconds)}</td>
                <td className="num">{seconds(s.durationSeconds)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </>
  );
}

interface ResolvedPin {
  kind: 'event' | 'range';
  pin: EvidencePin;
  y: string;
  x1: number;
  x2: number;
  text: string;
}

/** Evidence to chart positions: eventId → that event's time on its agent's row; agentId (+ from/to) → a range on that agent's row. */
function resolvePins(pins: EvidencePin[], spans: Span[], events: TimelineEvent[], t0: number): ResolvedPin[] {
  const label = (s: Span) => `${'· '.repeat(s.depth)}${s.id}`;
  const spanOf = new Map(spans.map((s) => [s.id, s]));
  const eventOf = new Map(events.map((e) => [e.eventId, e]));
  const at = (iso: string) => (Date.parse(iso) - t0) / 1000;
  const out: ResolvedPin[] = [];
  for (const pin of pins) {
    const e = pin.eventId ? eventOf.get(pin.eventId) : undefined;
    if (e && spanOf.has(e.agentId)) {
      const x = at(e.time);
      out.push({ kind: 'event', pin, y: label(spanOf.get(e.agentId)!), x1: x, x2: x, text: `${pin.who}: ${pin.pattern}: event ${e.eventId} (${e.type}) by ${e.agentId} at ${seconds(x)}` });
      continue;
    }
    const s = pin.agentId ? spanOf.get(pin.agentId) : undefined;
    if (!s) continue;
    const x1 = pin.from ? at(pin.from) : s.offsetSeconds;
    const x2 = pin.to ? at(pin.to) : s.offsetSeconds + s.durationSeconds;
    out.push({ kind: 'range', pin, y: label(s), x1: Math.min(x1, x2), x2: Math.max(x1, x2), text: `${pin.who}: ${pin.pattern}: agent ${s.id} from ${seconds(Math.min(x1, x2))} to ${seconds(Math.max(x1, x2))}` });
  }
  return out;
}
