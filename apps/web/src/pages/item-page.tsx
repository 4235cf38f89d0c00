import { useMemo, useState, type FormEvent } from 'react';
import { GraphqlError, graphql } from '../api/graphql-client';
import { useSession } from '../api/session';
import { useGraphql } from '../api/use-graphql';
import { Async, Empty } from '../components/states';
import { dateTime } from '../format';
import { Link } from '../router';
import { Timeline, type EvidencePin, type Span, type TimelineEvent } from './timeline';

interface ItemLabel {
  pattern: string;
  rationale: string;
  evidence: { eventId: string | null; agentId: string | null; from: string | null; to: string | null }[] | null;
}
interface Item {
  id: string;
  annotationCampaignId: string;
  agentName: string;
  executionId: string;
  pairedExecutionId: string | null;
  status: string;
  annotations: { slot: number; revision: number; labels: ItemLabel[] }[];
  comments: { id: string; body: string; createdAt: string }[];
  adjudication: { rationale: string; labels: { pattern: string; source: string; rationale: string }[] } | null;
}
const ITEM = `query($i: ID!) { annotationItem(id: $i) { id annotationCampaignId agentName executionId pairedExecutionId status
  annotations { slot revision labels { pattern rationale evidence { eventId agentId from to } } } comments { id body createdAt } adjudication { rationale labels { pattern source rationale } } } }`;
const COMMENT = 'mutation($i: ID!, $b: String!) { addAnnotationComment(item: $i, body: $b) { id } }';
const ADJUDICATE = 'mutation($i: ID!, $l: [AdjudicatedLabelInput!]!, $r: String!) { adjudicateItem(item: $i, labels: $l, rationale: $r) { id } }';

const errorText = (e: unknown) => (e instanceof GraphqlError ? `${e.field ? `${e.field}: ` : ''}${e.message}` : String(e));

/** One annotation item: both annotators' labels once unblinded, the discussion, and adjudication of a disagreement. */
export function ItemPage({ id }: { id: string }) {
  const state = useGraphql<{ annotationItem: Item }>(ITEM, { i: id });
  if (state.error?.code === 'FORBIDDEN') {
    return (
      <>
        <p role="alert" className="state">
          This item is blind until both annotators have submitted.
        </p>
        <OwnEvidence id={id} />
      </>
    );
  }
  return (
    <Async state={state} what="annotation item">
      {({ annotationItem: item }) => (
        <>
          <p className="crumbs">
            <Link to={`/annotate/${item.annotationCampaignId}`}>← Queue</Link>
          </p>
          <h1>
            Item {item.id.slice(0, 8)} · {item.agentName}
          </h1>
          <p className="lede">
            Status: <strong data-testid="item-status">{item.status}</strong> · <Link to={`/executions/${item.executionId}`}>execution</Link>
            {item.pairedExecutionId ? (
              <>
                {' '}
                · <Link to={`/executions/${item.pairedExecutionId}`}>paired execution</Link>
              </>
            ) : null}
          </p>
          <Labels item={item} />
          <ItemTimeline executionId={item.executionId} pins={visiblePins(item.annotations.map((a) => ({ ...a, who: a.slot === 1 ? 'A' : 'B' })))} />
          <Discussion item={item} refetch={state.refetch} />
          {item.status === 'disagreed' ? <Adjudicate item={item} refetch={state.refetch} /> : null}
          {item.adjudication ? (
            <section aria-labelledby="final-title">
              <h2 id="final-title">Final labels (adjudicated)</h2>
              <p>{item.adjudication.rationale}</p>
              <ul>
                {item.adjudication.labels.map((l) => (
                  <li key={l.pattern}>
                    <strong>{l.pattern}</strong> from {l.source}: {l.rationale}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      )}
    </Async>
  );
}

function Labels({ item }: { item: Item }) {
  const latest = [1, 2].map((slot) => item.annotations.filter((a) => a.slot === slot).sort((x, y) => y.revision - x.revision)[0]);
  return (
    <section aria-labelledby="labels-title">
      <h2 id="labels-title">Annotators' labels (latest revisions)</h2>
      {item.annotations.length === 0 ? (
        <Empty>No labels yet.</Empty>
      ) : (
        <table>
          <caption>A is the first annotator, B the second</caption>
          <thead>
            <tr>
              <th scope="col">Annotator</th>
              <th scope="col">Patterns and rationale</th>
            </tr>
          </thead>
          <tbody>
            {latest.map((a, i) =>
              a ? (
                <tr key={i}>
                  <th scope="row">
                    {i === 0 ? 'A' : 'B'} (revision {a.revision})
                  </th>
                  <td>
                    <ul>
                      {a.labels.map((l) => (
                        <li key={l.pattern}>
                          <strong>{l.pattern}</strong>: {l.rationale}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ) : null,
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}

function Discussion({ item, refetch }: { item: Item; refetch: () => void }) {
  const { token } = useSession();
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const post = async (e: FormEvent) => {
    e.preventDefault();
    try {
      await graphql(COMMENT, { i: item.id, b: body }, token);
      setBody('');
      setError(null);
      refetch();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <section aria-labelledby="discussion-title">
      <h2 id="discussion-title">Discussion</h2>
      {item.comments.length === 0 ? <Empty>No comments yet.</Empty> : null}
      <ol className="comments">
        {item.comments.map((c) => (
          <li key={c.id}>
            <time dateTime={c.createdAt}>{dateTime(c.createdAt)}</time> {c.body}
          </li>
        ))}
      </ol>
      {item.status === 'pending' ? null : (
        <form onSubmit={post} className="stack">
          <label>
            Comment
            <textarea value={body} onChange={(e) => setBody(e.target.value)} required rows={2} />
          </label>
          {error ? <p role="alert">{error}</p> : null}
          <button type="submit">Post comment</button>
        </form>
      )}
    </section>
  );
}

function Adjudicate({ item, refetch }: { item: Item; refetch: () => void }) {
  const { token } = useSession();
  const latest = (slot: number) => item.annotations.filter((a) => a.slot === slot).sort((x, y) => y.revision - x.revision)[0]?.labels.map((l) => l.pattern) ?? [];
  const a = latest(1);
  const b = latest(2);
  const candidates = [...new Set([...a, ...b])];
  const sourceOf = (p: string) => (a.includes(p) && b.includes(p) ? 'both' : a.includes(p) ? 'A' : 'B');
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [rationale, setRationale] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const labels = Object.entries(chosen).map(([pattern, r]) => ({ pattern, rationale: r, source: sourceOf(pattern) }));
    if (labels.length === 0 || labels.some((l) => !l.rationale.trim())) return setError('Choose at least one final pattern, each with a rationale.');
    try {
      await graphql(ADJUDICATE, { i: item.id, l: labels, r: rationale }, token);
      setError(null);
      refetch();
    } catch (err) {
      setError(errorText(err));
    }
  };
  return (
    <form onSubmit={submit} aria-labelledby="adjudicate-title" className="label-form">
      <h2 id="adjudicate-title">Adjudicate</h2>
      <fieldset className="checklist">
        <legend>Final patterns (source shown: A, B or both)</legend>
        <ul>
          {candidates.map((p) => (
            <li key={p}>
              <label className="check">
                <input
                  type="checkbox"
                  checked={p in chosen}
                  onChange={() =>
                    setChosen((c) => {
                      const next = { ...c };
                      if (p in next) delete next[p];
                      else next[p] = '';
                      return next;
                    })
                  }
                />
                <span>
                  <strong>{p}</strong> (from {sourceOf(p)})
                </span>
              </label>
              {p in chosen ? (
                <label className="rationale">
                  Rationale for {p}
                  <textarea value={chosen[p]} onChange={(e) => setChosen((c) => ({ ...c, [p]: e.target.value }))} rows={2} required />
                </label>
              ) : null}
            </li>
          ))}
        </ul>
      </fieldset>
      <label>
        Adjudication rationale
        <textarea value={rationale} onChange={(e) => setRationale(e.target.value)} rows={2} required />
      </label>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <button type="submit">Record final labels</button>
    </form>
  );
}

/** Pins of the latest revision per annotator (the labels this viewer may read). */
function visiblePins(annotations: { slot: number; revision: number; who: string; labels: ItemLabel[] }[]): EvidencePin[] {
  const latest = new Map<number, (typeof annotations)[number]>();
  for (const a of annotations) if ((latest.get(a.slot)?.revision ?? 0) < a.revision) latest.set(a.slot, a);
  return [...latest.values()]
    .sort((x, y) => x.slot - y.slot)
    .flatMap((a) => a.labels.flatMap((l) => (l.evidence ?? []).map((e) => ({ who: a.who, pattern: l.pattern, ...e }))));
}

const OWN = `query($i: ID!) { annotationItem(id: $i) { id executionId myAnnotations { slot revision labels { pattern rationale evidence { eventId agentId from to } } } } }`;

/** While the item is blind: your own labels' evidence only. */
function OwnEvidence({ id }: { id: string }) {
  const state = useGraphql<{ annotationItem: { executionId: string; myAnnotations: { slot: number; revision: number; labels: ItemLabel[] }[] } }>(OWN, { i: id });
  const item = state.data?.annotationItem;
  if (!item || item.myAnnotations.length === 0) return null;
  return <ItemTimeline executionId={item.executionId} pins={visiblePins(item.myAnnotations.map((a) => ({ ...a, who: 'you' })))} />;
}

const ITEM_TIMELINE = `query($id: ID!) { execution(id: $id) { agentTree { id parentId depth start end offsetSeconds durationSeconds }
  events(first: 100) { totalCount nodes { seq eventId type agentId time data payload } } } }`;

/** The execution's timeline with the labels' evidence pinned (events: the first 100). */
function ItemTimeline({ executionId, pins }: { executionId: string; pins: EvidencePin[] }) {
  const state = useGraphql<{ execution: { agentTree: Span[]; events: { totalCount: number; nodes: TimelineEvent[] } } }>(ITEM_TIMELINE, { id: executionId });
  const key = JSON.stringify(pins);
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const stablePins = useMemo(() => pins, [key]);
  return (
    <section aria-labelledby="item-timeline-title">
      <h2 id="item-timeline-title">Timeline with evidence</h2>
      <Async state={state} what="timeline">
        {({ execution }) =>
          execution.agentTree.length === 0 ? (
            <Empty>This execution has no agent tree.</Empty>
          ) : (
            <>
              {stablePins.length === 0 ? <p>No evidence on the labels you can read.</p> : null}
              <Timeline spans={execution.agentTree} events={execution.events.nodes} pins={stablePins} />
              {execution.events.totalCount > execution.events.nodes.length ? (
                <p>
                  Marks from the first {execution.events.nodes.length} of {execution.events.totalCount} events; the <Link to={`/executions/${executionId}`}>execution page</Link> pages through the rest.
                </p>
              ) : null}
            </>
          )
        }
      </Async>
    </section>
  );
}
