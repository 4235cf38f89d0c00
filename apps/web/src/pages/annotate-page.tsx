import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { GraphqlError, graphql } from '../api/graphql-client';
import { useSession } from '../api/session';
import { useGraphql } from '../api/use-graphql';
import { Async, Empty, Loading } from '../components/states';
import { dateTime } from '../format';
import { Link, navigate } from '../router';
import { AgreementNumbers, AwaitingAdjudication } from './annotation-results';
import { Checklist, useCodebook } from './codebook-checklist';

interface AnnotationCampaign {
  id: string;
  name: string;
  campaignId: string;
  codebookVersionId: string;
  blind: boolean;
  annotatorsPerItem: number;
  progress: { pending: number; doubleCoded: number; agreed: number; disagreed: number; adjudicated: number; total: number };
}
interface Assignment {
  slot: number;
  reservedUntil: string;
  item: { id: string; agentName: string; executionId: string; pairedExecutionId: string | null; status: string; suggestions: { id: string; pattern: string; summary: string; detector: string }[] };
}

const CAMPAIGNS = 'query { annotationCampaigns { id name campaignId codebookVersionId blind annotatorsPerItem progress { pending doubleCoded agreed disagreed adjudicated total } } }';
const ONE = 'query($id: ID!) { annotationCampaign(id: $id) { id name campaignId codebookVersionId blind annotatorsPerItem progress { pending doubleCoded agreed disagreed adjudicated total } } }';
const NEXT = 'mutation($c: ID!) { nextAnnotationItem(annotationCampaign: $c) { slot reservedUntil item { id agentName executionId pairedExecutionId status suggestions { id pattern summary detector } } } }';
const SUBMIT = 'mutation($i: ID!, $l: [LabelInput!]!) { submitAnnotation(item: $i, labels: $l) { revision } }';
const STATUS = 'query($i: ID!) { annotationItem(id: $i) { id status } }';

export function AnnotationCampaignsPage() {
  const state = useGraphql<{ annotationCampaigns: AnnotationCampaign[] }>(CAMPAIGNS, {});
  const [itemId, setItemId] = useState('');
  return (
    <>
      <h1>Annotation</h1>
      <Async state={state} what="annotation campaigns">
        {({ annotationCampaigns }) =>
          annotationCampaigns.length === 0 ? (
            <Empty>Your organization has no annotation campaigns yet.</Empty>
          ) : (
            <ul className="cards">
              {annotationCampaigns.map((a) => (
                <li key={a.id}>
                  <Link to={`/annotate/${a.id}`}>{a.name}</Link> · {a.progress.total} items: {a.progress.pending} pending, {a.progress.agreed} agreed, {a.progress.disagreed} disagreed,{' '}
                  {a.progress.adjudicated} adjudicated
                </li>
              ))}
            </ul>
          )
        }
      </Async>
      <form
        className="pickers"
        aria-label="Open an item"
        onSubmit={(e) => {
          e.preventDefault();
          if (itemId.trim()) navigate(`/annotate/items/${itemId.trim()}`);
        }}
      >
        <label>
          Item id (discussion and adjudication)
          <input value={itemId} onChange={(e) => setItemId(e.target.value)} />
        </label>
        <button type="submit">Open item</button>
      </form>
    </>
  );
}

export function AnnotatePage({ id }: { id: string }) {
  const { token, viewer } = useSession();
  // Adjudicators come here for the disagreed items: reserve an item for them only when they ask.
  const [labelling, setLabelling] = useState(viewer?.role !== 'ADJUDICATOR');
  const campaign = useGraphql<{ annotationCampaign: AnnotationCampaign }>(ONE, { id });
  const codebook = useCodebook(campaign.data?.annotationCampaign.codebookVersionId ?? null);
  const [assignment, setAssignment] = useState<Assignment | null | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<{ id: string; status: string }[]>([]);
  const [refreshKey, setRefreshKey] = useState(0);

  const next = useCallback(async () => {
    setAssignment(undefined);
    try {
      const data = await graphql<{ nextAnnotationItem: Assignment | null }>(NEXT, { c: id }, token);
      setAssignment(data.nextAnnotationItem);
      setError(null);
    } catch (e) {
      setAssignment(null);
      setError(e instanceof GraphqlError ? e.message : String(e));
    }
  }, [id, token]);
  useEffect(() => {
    if (labelling) void next();
  }, [next, labelling]);

  const submitted = async (itemId: string) => {
    const { annotationItem } = await graphql<{ annotationItem: { id: string; status: string } }>(STATUS, { i: itemId }, token).catch(() => ({ annotationItem: { id: itemId, status: 'submitted' } }));
    setDone((d) => [annotationItem, ...d.filter((x) => x.id !== itemId)]);
    campaign.refetch();
    setRefreshKey((k) => k + 1);
    await next();
  };

  return (
    <Async state={campaign} what="annotation campaign">
      {({ annotationCampaign: a }) => (
        <>
          <p className="crumbs">
            <Link to="/annotate">← Annotation campaigns</Link>
          </p>
          <h1>{a.name}</h1>
          <p className="lede" data-testid="annotation-progress">
            {a.progress.total} items: {a.progress.pending} pending, {a.progress.agreed} agreed, {a.progress.disagreed} disagreed, {a.progress.adjudicated} adjudicated ·{' '}
            {a.blind ? 'blind' : 'open'}, {a.annotatorsPerItem} annotators per item
          </p>
          {error ? <p role="alert">{error}</p> : null}
          {!labelling ? (
            <p>
              <button type="button" onClick={() => setLabelling(true)}>
                Reserve an item to label
              </button>{' '}
              (as an adjudicator you can also label; nothing is reserved until you ask)
            </p>
          ) : assignment === undefined || !codebook.data ? (
            codebook.error ? <p role="alert">Could not load the codebook: {codebook.error}</p> : <Loading what="Reserving the next item" />
          ) : assignment === null ? (
            <Empty>Nothing left for you to label in this campaign.</Empty>
          ) : (
            <LabelForm key={assignment.item.id} assignment={assignment} nodes={codebook.data} onSubmitted={submitted} />
          )}
          {done.length ? (
            <section aria-labelledby="done-title">
              <h2 id="done-title">Labelled in this session</h2>
              <ul>
                {done.map((d) => (
                  <li key={d.id}>
                    <Link to={`/annotate/items/${d.id}`}>item {d.id.slice(0, 8)}</Link>: {d.status}
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <AwaitingAdjudication annotationCampaignId={a.id} refreshKey={refreshKey} />
          <AgreementNumbers annotationCampaignId={a.id} refreshKey={refreshKey} />
        </>
      )}
    </Async>
  );
}

function LabelForm({ assignment, nodes, onSubmitted }: { assignment: Assignment; nodes: Parameters<typeof Checklist>[0]['nodes']; onSubmitted: (itemId: string) => Promise<void> }) {
  const { token } = useSession();
  const [chosen, setChosen] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { item } = assignment;
  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const labels = Object.entries(chosen).map(([pattern, rationale]) => ({ pattern, rationale }));
    if (labels.length === 0) return setError('Choose at least one pattern (no_failure when nothing applies).');
    if (labels.some((l) => !l.rationale.trim())) return setError('Every chosen pattern needs a rationale.');
    setBusy(true);
    try {
      await graphql(SUBMIT, { i: item.id, l: labels }, token);
      await onSubmitted(item.id);
    } catch (err) {
      setError(err instanceof GraphqlError ? `${err.field ? `${err.field}: ` : ''}${err.message}` : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={submit}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) void submit(e);
      }}
      aria-labelledby="item-title"
      className="label-form"
    >
      <h2 id="item-title">
        Item {item.id.slice(0, 8)} · {item.agentName} · you are annotator {assignment.slot === 1 ? 'A' : 'B'}
      </h2>
      <p>
        <Link to={`/executions/${item.executionId}`}>Open the execution and its timeline</Link>
        {item.pairedExecutionId ? (
          <>
            {' '}
            · <Link to={`/executions/${item.pairedExecutionId}`}>the paired execution (other mode)</Link>
          </>
        ) : null}{' '}
        · reserved until {dateTime(assignment.reservedUntil)}
      </p>
      <section aria-labelledby="suggestions-title" className="suggestions">
        <h3 id="suggestions-title">Suggestions from detectors (not selected for you)</h3>
        {item.suggestions.length === 0 ? (
          <p>No detector fired on this trajectory.</p>
        ) : (
          <ul>
            {item.suggestions.map((s) => (
              <li key={s.id}>
                <strong>{s.pattern}</strong>: {s.summary} <em>({s.detector})</em>
              </li>
            ))}
          </ul>
        )}
      </section>
      <Checklist nodes={nodes} chosen={chosen} onChange={setChosen} />
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy ? 'Submitting…' : 'Submit labels'} <kbd>Ctrl</kbd>+<kbd>Enter</kbd>
      </button>
    </form>
  );
}
