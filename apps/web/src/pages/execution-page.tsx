import { useEffect, useState } from 'react';
import { graphql } from '../api/graphql-client';
import { useSession } from '../api/session';
import { useGraphql } from '../api/use-graphql';
import { Async, Empty } from '../components/states';
import { dateTime, int, num, pct, seconds, usd } from '../format';
import { Link } from '../router';
import { Timeline, type Span, type TimelineEvent } from './timeline';

interface Execution {
  id: string;
  campaignId: string;
  agentName: string;
  model: string;
  mode: string;
  benchmark: string;
  suite: string;
  task: string;
  difficulty: string;
  repetition: number;
  attempt: number;
  status: string;
  outcome: string | null;
  resolved: boolean | null;
  testsPassed: number | null;
  testsTotal: number | null;
  costUsd: number | null;
  wallSeconds: number | null;
  shellCalls: number | null;
  startedAt: string | null;
  finishedAt: string | null;
  tokens: { input: number | null; cacheRead: number | null; cacheWrite: number | null; output: number | null; reasoning: number | null };
  grade: { agentEnd: string | null; agentExitCode: number | null; graderExitCode: number | null; graderOutputTail: string | null } | null;
  summary: Record<string, unknown> | null;
  delegation: { created: number; peak: number; overlapRatio: number; overlapSeconds: number; spanSeconds: number; firstSpawnPosition: number | null; neverOverlapping: boolean } | null;
  agentTree: Span[];
}
interface EventPage {
  totalCount: number;
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
  nodes: TimelineEvent[];
}

const EXECUTION = `query($id: ID!) { execution(id: $id) {
  id campaignId agentName model mode benchmark suite task difficulty repetition attempt status outcome resolved testsPassed testsTotal costUsd wallSeconds shellCalls startedAt finishedAt
  tokens { input cacheRead cacheWrite output reasoning }
  grade { agentEnd agentExitCode graderExitCode graderOutputTail }
  summary
  delegation { created peak overlapRatio overlapSeconds spanSeconds firstSpawnPosition neverOverlapping }
  agentTree { id parentId depth start end offsetSeconds durationSeconds }
} }`;
const EVENTS = `query($id: ID!, $after: String, $kinds: [String!]) { execution(id: $id) { events(first: 100, after: $after, kinds: $kinds) {
  totalCount pageInfo { endCursor hasNextPage } nodes { seq eventId type agentId time data payload } } } }`;
const PAIRED = `query($campaign: ID!, $f: ExecutionFilterInput) { campaign(id: $campaign) { plan { modes } } executions(filter: $f, first: 100) { nodes { id mode task suite repetition } } }`;
const KINDS = ['tool.call', 'model.call', 'file.write', 'message', 'agent.start', 'agent.end'];

export function ExecutionPage({ id }: { id: string }) {
  const state = useGraphql<{ execution: Execution }>(EXECUTION, { id });
  return <Async state={state} what="execution">{({ execution }) => <ExecutionView e={execution} />}</Async>;
}

function ExecutionView({ e }: { e: Execution }) {
  const events = useEvents(e.id);
  return (
    <>
      <p className="crumbs">
        <Link to={`/campaigns/${e.campaignId}`}>← Campaign</Link>
      </p>
      <h1>
        {e.agentName} · {e.mode} · {e.task}
      </h1>
      <p className="lede">
        {e.benchmark} / {e.suite} / {e.task} ({e.difficulty.toLowerCase()}), repetition {e.repetition}, attempt {e.attempt} · model {e.model} ·{' '}
        <span className={`status status-${e.status.toLowerCase()}`}>{e.status.toLowerCase().replace('_', ' ')}</span>
      </p>
      <PairedLink e={e} />
      <div className="panels">
        <section className="panel" aria-labelledby="grade-title">
          <h2 id="grade-title">Grade</h2>
          <dl className="stats">
            <div>
              <dt>resolved</dt>
              <dd>{e.resolved == null ? '–' : e.resolved ? 'yes ✓' : 'no ✗'}</dd>
            </div>
            <div>
              <dt>tests</dt>
              <dd>{e.testsTotal == null ? '–' : `${e.testsPassed}/${e.testsTotal} (${pct(e.testsTotal ? (e.testsPassed ?? 0) / e.testsTotal : null)}%)`}</dd>
            </div>
            <div>
              <dt>outcome</dt>
              <dd>{e.outcome ?? '–'}</dd>
            </div>
            <div>
              <dt>agent end</dt>
              <dd>{e.grade?.agentEnd ?? '–'}</dd>
            </div>
            <div>
              <dt>grader exit</dt>
              <dd>{e.grade?.graderExitCode ?? '–'}</dd>
            </div>
          </dl>
          {e.grade?.graderOutputTail ? (
            <details>
              <summary>Grader output (tail)</summary>
              <pre>{e.grade.graderOutputTail}</pre>
            </details>
          ) : null}
        </section>
        <section className="panel" aria-labelledby="usage-title">
          <h2 id="usage-title">Usage and cost</h2>
          <dl className="stats">
            <div>
              <dt>cost</dt>
              <dd>{usd(e.costUsd, 4)}</dd>
            </div>
            <div>
              <dt>input tokens</dt>
              <dd>{int(e.tokens.input)}</dd>
            </div>
            <div>
              <dt>cache read</dt>
              <dd>{int(e.tokens.cacheRead)}</dd>
            </div>
            <div>
              <dt>cache write</dt>
              <dd>{int(e.tokens.cacheWrite)}</dd>
            </div>
            <div>
              <dt>output</dt>
              <dd>{int(e.tokens.output)}</dd>
            </div>
            <div>
              <dt>wall time</dt>
              <dd>{seconds(e.wallSeconds)}</dd>
            </div>
            <div>
              <dt>shell calls</dt>
              <dd>{e.shellCalls ?? '–'}</dd>
            </div>
          </dl>
        </section>
        {e.delegation ? (
          <section className="panel" aria-labelledby="delegation-title">
            <h2 id="delegation-title">Delegation</h2>
            <dl className="stats">
              <div>
                <dt>sub-agents created</dt>
                <dd>{e.delegation.created}</dd>
              </div>
              <div>
                <dt>peak concurrent</dt>
                <dd>{e.delegation.peak}</dd>
              </div>
              <div>
                <dt>overlap</dt>
                <dd>
                  {seconds(e.delegation.overlapSeconds)} ({num(e.delegation.overlapRatio * 100, 1)}% of the span)
                </dd>
              </div>
              <div>
                <dt>first spawn at</dt>
                <dd>{e.delegation.firstSpawnPosition == null ? '–' : `${num(e.delegation.firstSpawnPosition * 100, 0)}%`}</dd>
              </div>
            </dl>
          </section>
        ) : null}
      </div>
      <section aria-labelledby="timeline-title">
        <h2 id="timeline-title">Timeline</h2>
        {e.agentTree.length === 0 ? <Empty>No agent spans recorded for this execution.</Empty> : <Timeline spans={e.agentTree} events={events.rows} />}
      </section>
      <EventsSection events={events} />
    </>
  );
}

function useEvents(id: string) {
  const { token } = useSession();
  const [kinds, setKinds] = useState<string[]>([]);
  const [rows, setRows] = useState<TimelineEvent[]>([]);
  const [page, setPage] = useState<EventPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const load = async (after: string | null, reset: boolean) => {
    setLoading(true);
    try {
      const data = await graphql<{ execution: { events: EventPage } }>(EVENTS, { id, after, kinds: kinds.length ? kinds : null }, token);
      setPage(data.execution.events);
      setRows((r) => (reset ? data.execution.events.nodes : [...r, ...data.execution.events.nodes]));
      setError(null);
    } catch (e) {
      setError(String(e instanceof Error ? e.message : e));
    } finally {
      setLoading(false);
    }
  };
  useEffect(() => {
    void load(null, true);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, kinds.join(','), token]);
  return { rows, page, error, loading, kinds, setKinds, more: () => page?.pageInfo.hasNextPage && load(page.pageInfo.endCursor, false) };
}

function EventsSection({ events }: { events: ReturnType<typeof useEvents> }) {
  const toggle = (k: string) => events.setKinds(events.kinds.includes(k) ? events.kinds.filter((x) => x !== k) : [...events.kinds, k]);
  return (
    <section aria-labelledby="events-title">
      <h2 id="events-title">Events</h2>
      <fieldset className="kinds">
        <legend>Event types (none checked: all)</legend>
        {KINDS.map((k) => (
          <label key={k}>
            <input type="checkbox" checked={events.kinds.includes(k)} onChange={() => toggle(k)} /> {k}
          </label>
        ))}
      </fieldset>
      {events.error ? <p role="alert">Could not load events: {events.error}</p> : null}
      {!events.page ? (
        <p role="status">Loading events…</p>
      ) : events.page.totalCount === 0 ? (
        <Empty>No trajectory events{events.kinds.length ? ' of these types' : ''} (imported results have none).</Empty>
      ) : (
        <>
          <div className="table-scroll">
            <table>
              <caption>
                {events.rows.length} of {events.page.totalCount} events, in arrival order
              </caption>
              <thead>
                <tr>
                  <th scope="col">Seq</th>
                  <th scope="col">Time (UTC)</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Type</th>
                  <th scope="col">Details</th>
                </tr>
              </thead>
              <tbody>
                {events.rows.map((ev) => (
                  <tr key={ev.seq}>
                    <th scope="row">{ev.seq}</th>
                    <td>{dateTime(ev.time)}</td>
                    <td>{ev.agentId}</td>
                    <td>{ev.type}</td>
                    <td className="details">{describe(ev)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div className="pager">
            <button type="button" disabled={!events.page.pageInfo.hasNextPage || events.loading} onClick={() => void events.more()}>
              {events.loading ? 'Loading…' : 'Load more events'}
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function describe(ev: TimelineEvent): string {
  const d = ev.data ?? {};
  const pick = ['path', 'tool', 'name', 'model', 'command', 'status', 'parentAgentId', 'bytes'].filter((k) => d[k] != null).map((k) => `${k}: ${String(d[k])}`);
  const payload = ev.payload ? ` — ${ev.payload.slice(0, 160)}${ev.payload.length > 160 ? '…' : ''}` : '';
  return `${pick.join(', ')}${payload}` || '–';
}

function PairedLink({ e }: { e: Execution }) {
  const state = useGraphql<{ campaign: { plan: { modes: string[] } }; executions: { nodes: { id: string; mode: string; task: string; suite: string; repetition: number }[] } }>(PAIRED, {
    campaign: e.campaignId,
    f: { campaignId: e.campaignId, agent: e.agentName, benchmark: e.benchmark, difficulty: e.difficulty },
  });
  if (!state.data) return null;
  const paired = state.data.executions.nodes.filter((x) => x.id !== e.id && x.mode !== e.mode && x.task === e.task && x.suite === e.suite && x.repetition === e.repetition);
  if (paired.length === 0) return <p className="paired">No paired execution in another mode.</p>;
  return (
    <p className="paired">
      Paired execution:{' '}
      {paired.map((p) => (
        <Link key={p.id} to={`/executions/${p.id}`}>
          the same task in {p.mode} mode
        </Link>
      ))}
    </p>
  );
}
