import { useEffect, useRef, useState } from 'react';
import { GraphqlError, graphql } from '../api/graphql-client';
import { useSession } from '../api/session';
import { useGraphql } from '../api/use-graphql';
import { Async, Empty } from '../components/states';
import { DASH, int, num, pct, shortId } from '../format';
import { Link } from '../router';

/** The adjudicators' list (items awaiting adjudication) and the agreement numbers of an annotation campaign. */

interface ItemNode {
  id: string;
  executionId: string;
  agentName: string;
  status: string;
}
interface ItemPage {
  totalCount: number;
  nodes: ItemNode[];
  pageInfo: { endCursor: string | null; hasNextPage: boolean };
}

const PAGE = 20;

/** Refetches (keeping the answer on screen) when `key` changes after the first render. */
function useRefetchOn(key: number, refetch: () => void) {
  const first = useRef(key);
  useEffect(() => {
    if (key !== first.current) refetch();
  }, [key, refetch]);
}
const DISAGREED = `query($id: ID!, $first: Int, $after: String) { annotationCampaign(id: $id) { id
  items(status: ["disagreed"], first: $first, after: $after) { totalCount nodes { id executionId agentName status } pageInfo { endCursor hasNextPage } } } }`;

export function AwaitingAdjudication({ annotationCampaignId, refreshKey }: { annotationCampaignId: string; refreshKey: number }) {
  const { token } = useSession();
  const state = useGraphql<{ annotationCampaign: { items: ItemPage } }>(DISAGREED, { id: annotationCampaignId, first: PAGE });
  useRefetchOn(refreshKey, state.refetch);
  const [more, setMore] = useState<{ key: number; nodes: ItemNode[]; pageInfo: ItemPage['pageInfo'] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Extra pages belong to the first page they were loaded after; a refresh starts over.
  const extra = more && more.key === refreshKey ? more : null;

  return (
    <section aria-labelledby="awaiting-title">
      <h2 id="awaiting-title">Awaiting adjudication</h2>
      <Async state={state} what="items awaiting adjudication">
        {({ annotationCampaign: { items } }) => {
          const nodes = [...items.nodes, ...(extra?.nodes ?? [])];
          const pageInfo = extra?.pageInfo ?? items.pageInfo;
          const loadMore = async () => {
            setBusy(true);
            try {
              const data = await graphql<{ annotationCampaign: { items: ItemPage } }>(DISAGREED, { id: annotationCampaignId, first: PAGE, after: pageInfo.endCursor }, token);
              const next = data.annotationCampaign.items;
              setMore({ key: refreshKey, nodes: [...(extra?.nodes ?? []), ...next.nodes], pageInfo: next.pageInfo });
              setError(null);
            } catch (e) {
              setError(e instanceof GraphqlError ? e.message : String(e));
            } finally {
              setBusy(false);
            }
          };
          if (items.totalCount === 0) return <Empty>No item awaits adjudication: the annotators agree on every double-coded item so far.</Empty>;
          return (
            <>
              <div className="table-scroll">
                <table>
                  <caption>
                    Disagreed items {nodes.length} of {items.totalCount}, oldest first (open one to discuss and adjudicate it)
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col">Item</th>
                      <th scope="col">Agent</th>
                      <th scope="col">Execution</th>
                      <th scope="col">Status</th>
                    </tr>
                  </thead>
                  <tbody>
                    {nodes.map((n) => (
                      <tr key={n.id}>
                        <th scope="row">
                          <Link to={`/annotate/items/${n.id}`}>item {shortId(n.id)}</Link>
                        </th>
                        <td>{n.agentName}</td>
                        <td>
                          <Link to={`/executions/${n.executionId}`} aria-label={`execution ${shortId(n.executionId)} of item ${shortId(n.id)}`}>
                            {shortId(n.executionId)}
                          </Link>
                        </td>
                        <td>
                          <span className="status">{n.status}</span>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              {error ? <p role="alert">{error}</p> : null}
              {pageInfo.hasNextPage ? (
                <button type="button" disabled={busy} onClick={() => void loadMore()}>
                  {busy ? 'Loading…' : 'Load more items'}
                </button>
              ) : null}
            </>
          );
        }}
      </Async>
    </section>
  );
}

interface Kappa {
  n: number;
  po: number | null;
  kappa: number | null;
  prevalence: number | null;
}
interface KappaRow extends Kappa {
  level: string;
  key: string;
}
interface Results {
  doubleCoded: number;
  final: number;
  agreement: { perPattern: KappaRow[]; pooled: Record<'pattern' | 'subcategory' | 'category', Kappa> } | null;
  distribution: {
    totalInstances: number;
    totalTrajectories: number;
    trajectoriesWithPattern: number;
    rows: { level: string; key: string; instances: number; share: number | null; trajectories: number; byAgent: { agent: string; instances: number; share: number | null }[] }[];
  };
  suggestionAccuracy: {
    patterns: { pattern: string; truePositives: number; falsePositives: number; falseNegatives: number; precision: number | null; recall: number | null; n: number }[];
    pooled: { truePositives: number; falsePositives: number; falseNegatives: number; precision: number | null; recall: number | null; n: number };
  };
}

const RESULTS = 'query($id: ID!) { annotationCampaign(id: $id) { id results } }';

export function AgreementNumbers({ annotationCampaignId, refreshKey }: { annotationCampaignId: string; refreshKey: number }) {
  const state = useGraphql<{ annotationCampaign: { results: Results } }>(RESULTS, { id: annotationCampaignId });
  useRefetchOn(refreshKey, state.refetch);
  return (
    <section aria-labelledby="agreement-title">
      <h2 id="agreement-title">Agreement and results</h2>
      <Async state={state} what="agreement numbers">
        {({ annotationCampaign: { results: r } }) => (
          <>
            <AgreementTables r={r} />
            <DistributionTable r={r} />
            <AccuracyTable r={r} />
          </>
        )}
      </Async>
    </section>
  );
}

const kappa = (x: number | null | undefined) => (x == null ? DASH : x.toFixed(3));

function AgreementTables({ r }: { r: Results }) {
  if (!r.agreement || r.doubleCoded === 0) return <Empty>No item is double coded yet: Cohen's kappa needs both annotators' labels on the same items.</Empty>;
  const pooled = r.agreement.pooled.pattern;
  const seen = r.agreement.perPattern.filter((p) => (p.prevalence ?? 0) > 0);
  const omitted = r.agreement.perPattern.length - seen.length;
  return (
    <>
      <p data-testid="pooled-kappa">
        Pooled over every (item, pattern) cell: Cohen's κ = <strong>{kappa(pooled.kappa)}</strong>, n = {int(pooled.n)} cells, prevalence {pct(pooled.prevalence)}%, observed agreement {pct(pooled.po)}%.
        Annotator A vs B, latest labels before adjudication, over {r.doubleCoded} double-coded item(s).
      </p>
      <div className="table-scroll">
        <table>
          <caption>
            Cohen's κ per pattern (present or absent per item), pooled and rolled up{omitted ? `; ${omitted} pattern(s) neither annotator chose are left out` : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Pattern</th>
              <th scope="col" className="num">n</th>
              <th scope="col" className="num">Prevalence %</th>
              <th scope="col" className="num">Observed agreement %</th>
              <th scope="col" className="num">κ</th>
            </tr>
          </thead>
          <tbody>
            {seen.map((p) => (
              <tr key={p.key}>
                <th scope="row">{p.key}</th>
                <td className="num">{p.n}</td>
                <td className="num">{pct(p.prevalence)}</td>
                <td className="num">{pct(p.po)}</td>
                <td className="num">{kappa(p.kappa)}</td>
              </tr>
            ))}
            {(['pattern', 'subcategory', 'category'] as const).map((level) => {
              const k = r.agreement!.pooled[level];
              return (
                <tr key={`pooled-${level}`}>
                  <th scope="row">all, pooled by {level}</th>
                  <td className="num">{k.n}</td>
                  <td className="num">{pct(k.prevalence)}</td>
                  <td className="num">{pct(k.po)}</td>
                  <td className="num">{kappa(k.kappa)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function DistributionTable({ r }: { r: Results }) {
  const d = r.distribution;
  const rows = d.rows.filter((x) => x.instances > 0);
  if (rows.length === 0) return <Empty>No final labels yet (agreed or adjudicated items), so no distribution.</Empty>;
  const agents = [...new Set(rows.flatMap((x) => x.byAgent.map((a) => a.agent)))].sort();
  return (
    <div className="table-scroll">
      <table>
        <caption>
          Distribution of final labels: {d.totalInstances} label(s) over {d.totalTrajectories} trajectories ({d.trajectoriesWithPattern} with a pattern); share of instances overall and per agent
        </caption>
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Level</th>
            <th scope="col" className="num">Instances</th>
            <th scope="col" className="num">Share %</th>
            <th scope="col" className="num">Trajectories</th>
            {agents.map((a) => (
              <th key={a} scope="col" className="num">
                {a} %
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((x) => (
            <tr key={`${x.level}:${x.key}`}>
              <th scope="row">{x.key}</th>
              <td>{x.level}</td>
              <td className="num">{x.instances}</td>
              <td className="num">{pct(x.share)}</td>
              <td className="num">{x.trajectories}</td>
              {agents.map((a) => (
                <td key={a} className="num">
                  {pct(x.byAgent.find((b) => b.agent === a)?.share)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AccuracyTable({ r }: { r: Results }) {
  const s = r.suggestionAccuracy;
  const rows = s.patterns.filter((p) => p.truePositives + p.falsePositives + p.falseNegatives > 0);
  if (rows.length === 0) return <Empty>No detector suggestion or final label to score the suggestions against yet.</Empty>;
  return (
    <div className="table-scroll">
      <table>
        <caption>Detector suggestions against final labels: precision = TP / (TP + FP), recall = TP / (TP + FN), per pattern and pooled (micro-average)</caption>
        <thead>
          <tr>
            <th scope="col">Pattern</th>
            <th scope="col" className="num">TP</th>
            <th scope="col" className="num">FP</th>
            <th scope="col" className="num">FN</th>
            <th scope="col" className="num">Precision</th>
            <th scope="col" className="num">Recall</th>
          </tr>
        </thead>
        <tbody>
          {[...rows, { pattern: 'all, pooled', ...s.pooled }].map((p) => (
            <tr key={p.pattern}>
              <th scope="row">{p.pattern}</th>
              <td className="num">{p.truePositives}</td>
              <td className="num">{p.falsePositives}</td>
              <td className="num">{p.falseNegatives}</td>
              <td className="num">{num(p.precision)}</td>
              <td className="num">{num(p.recall)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
