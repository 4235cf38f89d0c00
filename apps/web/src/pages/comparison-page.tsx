import * as Plot from '@observablehq/plot';
import { useEffect, useState } from 'react';
import { graphql } from '../api/graphql-client';
import { useSession } from '../api/session';
import { useGraphql } from '../api/use-graphql';
import { PlotFigure } from '../components/plot-figure';
import { Async, Empty } from '../components/states';
import { num, pValue, pct, usd } from '../format';
import { Link, setQuery, useLocation } from '../router';
import type { ExecutionRow } from './campaign-page';

type AB = { a: number | null; b: number | null };
interface BenchmarkRow {
  subject: string;
  benchmark: string;
  successRule: string;
  pairs: number;
  n: AB;
  taskPass: AB;
  testPass: AB;
  shellCalls: AB;
  minutes: AB;
  tokensMillions: AB;
  costUsd: AB;
  infraFailed: AB;
  pUnadjusted: number;
  b: number;
  c: number;
  uniqueA: number;
  uniqueB: number;
  aFasterShare: number | null;
  aFaster20Share: number | null;
  benefitPairs: number;
}
interface Pair {
  subject: string;
  benchmark: string;
  suite: string;
  task: string;
  repetition: number;
  executionA: string | null;
  executionB: string | null;
}
interface Comparison {
  sideA: string;
  sideB: string;
  by: string;
  family: { family: string; description: string; correction: string; m: number };
  inputs: { executions: number; pairs: number; unpaired: number };
  tests: { subject: string; benchmark: string | null; pairs: number; b: number; c: number; p: number; pAdjusted: number | null; testPassDifference: { mean: number; lower: number; upper: number } | null }[];
  benchmarks: BenchmarkRow[];
  discordantPairs: (Pair & { resolvedBy: string })[];
  benefitPairs: (Pair & { reasons: string[] })[];
  differenceBySize: { benchmark: string; medianReferenceKloc: number | null; differencePp: number | null }[];
}

const COMPARISON = `query($id: ID!, $modeA: String!, $modeB: String!, $family: ComparisonFamily!) {
  comparison(campaign: $id, modeA: $modeA, modeB: $modeB, family: $family) {
    sideA sideB by family { family description correction m } inputs { executions pairs unpaired }
    tests { subject benchmark pairs b c p pAdjusted testPassDifference { mean lower upper } }
    benchmarks { subject benchmark successRule pairs n { a b } taskPass { a b } testPass { a b } shellCalls { a b } minutes { a b } tokensMillions { a b }
                 costUsd { a b } infraFailed { a b } pUnadjusted b c uniqueA uniqueB aFasterShare aFaster20Share benefitPairs }
    discordantPairs { subject benchmark suite task repetition resolvedBy executionA executionB }
    benefitPairs { subject benchmark suite task repetition reasons executionA executionB }
    differenceBySize { benchmark medianReferenceKloc differencePp }
  }
}`;
const EXECUTIONS = `query($f: ExecutionFilterInput, $after: String) { executions(filter: $f, first: 100, after: $after) {
  pageInfo { endCursor hasNextPage } nodes { id agentName mode benchmark suite task difficulty repetition status resolved testsPassed testsTotal costUsd wallSeconds } } }`;

/** Table 2's metrics, with the direction that counts as better for A. */
const METRICS: { key: keyof BenchmarkRow; label: string; better: 'higher' | 'lower' | null; show: (x: number | null) => string }[] = [
  { key: 'n', label: 'Executions', better: null, show: (x) => (x == null ? '–' : String(x)) },
  { key: 'taskPass', label: 'Task pass %', better: 'higher', show: (x) => pct(x) },
  { key: 'testPass', label: 'Test pass %', better: 'higher', show: (x) => pct(x) },
  { key: 'shellCalls', label: 'Shell calls', better: 'lower', show: (x) => num(x, 1) },
  { key: 'minutes', label: 'Minutes', better: 'lower', show: (x) => num(x, 1) },
  { key: 'tokensMillions', label: 'Tokens (M)', better: 'lower', show: (x) => num(x) },
  { key: 'costUsd', label: 'Cost $', better: 'lower', show: (x) => usd(x) },
  { key: 'infraFailed', label: 'Infra failed', better: 'lower', show: (x) => (x == null ? '–' : String(x)) },
];

export function ComparisonPage({ id }: { id: string }) {
  const { query } = useLocation();
  const modeA = query.get('modeA') || 'concurrent';
  const modeB = query.get('modeB') || 'sequential';
  const family = query.get('family') === 'PER_BENCHMARK' ? 'PER_BENCHMARK' : 'POOLED';
  const state = useGraphql<{ comparison: Comparison }>(COMPARISON, { id, modeA, modeB, family });
  return (
    <>
      <p className="crumbs">
        <Link to={`/campaigns/${id}`}>← Campaign</Link>
      </p>
      <h1>
        Paired comparison: {modeA} (A) vs {modeB} (B)
      </h1>
      <form className="pickers" aria-label="Comparison options" onSubmit={(e) => e.preventDefault()}>
        <label>
          Holm family
          <select value={family} onChange={(e) => setQuery({ family: e.target.value })}>
            <option value="POOLED">pooled: one test per agent</option>
            <option value="PER_BENCHMARK">per benchmark: agent × benchmark</option>
          </select>
        </label>
      </form>
      <Async state={state} what="comparison">
        {({ comparison }) =>
          comparison.inputs.pairs === 0 ? (
            <Empty>No pairs yet: a pair needs a result in both modes for the same agent, task and repetition.</Empty>
          ) : (
            <ComparisonView cmp={comparison} campaignId={id} />
          )
        }
      </Async>
    </>
  );
}

function ComparisonView({ cmp, campaignId }: { cmp: Comparison; campaignId: string }) {
  return (
    <>
      <p className="lede">
        {cmp.inputs.pairs} pairs from {cmp.inputs.executions} executions ({cmp.inputs.unpaired} unpaired).
      </p>
      <Table2 cmp={cmp} />
      <Tests cmp={cmp} />
      <PairList title="Discordant pairs (b: only A resolved, c: only B resolved)" pairs={cmp.discordantPairs} extra={(p) => `resolved by ${p.resolvedBy}`} />
      <PairList title="Benefit pairs" pairs={cmp.benefitPairs} extra={(p) => p.reasons.join('; ')} />
      <PairedPlot campaignId={campaignId} sideA={cmp.sideA} sideB={cmp.sideB} />
      <SizeChart rows={cmp.differenceBySize} />
    </>
  );
}

function Cell({ ab, metric }: { ab: AB; metric: (typeof METRICS)[number] }) {
  const { a, b } = ab;
  let direction: 'better' | 'worse' | 'same' = 'same';
  if (metric.better && a != null && b != null && a !== b) direction = (a > b) === (metric.better === 'higher') ? 'better' : 'worse';
  const arrow = direction === 'better' ? '▲' : direction === 'worse' ? '▼' : '=';
  const words = direction === 'same' ? 'no difference' : `A ${direction}`;
  return (
    <td className={`ab ab-${direction}`} title={words}>
      {metric.show(a)} / {metric.show(b)}{' '}
      <span className="dir" aria-label={words}>
        {metric.better ? arrow : ''}
      </span>
    </td>
  );
}

function Table2({ cmp }: { cmp: Comparison }) {
  return (
    <section aria-labelledby="t2-title">
      <h2 id="t2-title">Outcomes, A / B</h2>
      <p className="legend">
        Each cell is A / B. <span className="ab-better">▲ A better</span> <span className="ab-worse">▼ A worse</span> = no difference (direction: higher pass, lower cost, time, tokens, calls
        and failures).
      </p>
      <div className="table-scroll">
        <table>
          <caption>
            {cmp.sideA} (A) vs {cmp.sideB} (B) per {subjectLabel(cmp.by).toLowerCase()} and benchmark
          </caption>
          <thead>
            <tr>
              <th scope="col">{subjectLabel(cmp.by)}</th>
              <th scope="col">Benchmark</th>
              {METRICS.map((m) => (
                <th scope="col" key={m.key}>
                  {m.label}
                </th>
              ))}
              <th scope="col">Unique A / B</th>
              <th scope="col">A faster (≥20%)</th>
              <th scope="col">p</th>
            </tr>
          </thead>
          <tbody>
            {cmp.benchmarks.map((r) => (
              <tr key={`${r.subject}:${r.benchmark}`}>
                <th scope="row">{r.subject}</th>
                <td>{r.benchmark}</td>
                {METRICS.map((m) => (
                  <Cell key={m.key} ab={r[m.key] as AB} metric={m} />
                ))}
                <td>
                  {r.uniqueA} / {r.uniqueB}
                </td>
                <td>
                  {pct(r.aFasterShare, 0)}% ({pct(r.aFaster20Share, 0)}%)
                </td>
                <td>{pValue(r.pUnadjusted)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Tests({ cmp }: { cmp: Comparison }) {
  return (
    <section aria-labelledby="tests-title">
      <h2 id="tests-title">Exact McNemar with Holm</h2>
      <p className="family" data-testid="family">
        Family: <strong>{cmp.family.family === 'POOLED' ? 'pooled' : 'perBenchmark'}</strong>, {cmp.family.description}; {cmp.family.correction} over m = {cmp.family.m} tests.
      </p>
      <div className="table-scroll">
        <table>
          <caption>Resolved: b = only A resolved, c = only B resolved; test pass difference A − B with its 95% paired bootstrap interval</caption>
          <thead>
            <tr>
              <th scope="col">{subjectLabel(cmp.by)}</th>
              <th scope="col">Benchmark</th>
              <th scope="col" className="num">Pairs</th>
              <th scope="col" className="num">b</th>
              <th scope="col" className="num">c</th>
              <th scope="col" className="num">p</th>
              <th scope="col" className="num">p (Holm)</th>
              <th scope="col" className="num">Test pass A − B (pp) [95%]</th>
            </tr>
          </thead>
          <tbody>
            {cmp.tests.map((t) => (
              <tr key={`${t.subject}:${t.benchmark ?? ''}`}>
                <th scope="row">{t.subject}</th>
                <td>{t.benchmark ?? 'all (pooled)'}</td>
                <td className="num">{t.pairs}</td>
                <td className="num">{t.b}</td>
                <td className="num">{t.c}</td>
                <td className="num">{pValue(t.p)}</td>
                <td className="num">{pValue(t.pAdjusted)}</td>
                <td className="num">
                  {t.testPassDifference
                    ? `${signed(t.testPassDifference.mean * 100)} [${signed(t.testPassDifference.lower * 100)}, ${signed(t.testPassDifference.upper * 100)}]`
                    : '–'}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** `by` names what A and B are (modes, or agents): the rows are then the other. */
const subjectLabel = (by: string) => (by === 'mode' ? 'Agent' : 'Mode');
const signed = (x: number) => `${x > 0 ? '+' : x < 0 ? '−' : ''}${Math.abs(x).toFixed(1)}`;

function PairList<P extends Pair>({ title, pairs, extra }: { title: string; pairs: P[]; extra: (p: P) => string }) {
  return (
    <section aria-label={title}>
      <h2>{title}</h2>
      {pairs.length === 0 ? (
        <Empty>None.</Empty>
      ) : (
        <ul className="pairs">
          {pairs.map((p) => (
            <li key={`${p.subject}:${p.benchmark}:${p.suite}:${p.task}:${p.repetition}`}>
              <strong>{p.subject}</strong> {p.benchmark}/{p.suite}/{p.task} rep {p.repetition}: {extra(p)} ·{' '}
              {p.executionA ? <Link to={`/executions/${p.executionA}`}>execution A</Link> : 'A missing'} ·{' '}
              {p.executionB ? <Link to={`/executions/${p.executionB}`}>execution B</Link> : 'B missing'}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Per task and repetition: test pass of A against B (points above the diagonal favour B). */
function PairedPlot({ campaignId, sideA, sideB }: { campaignId: string; sideA: string; sideB: string }) {
  const { token } = useSession();
  const [rows, setRows] = useState<ExecutionRow[] | null>(null);
  const [failed, setFailed] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    (async () => {
      const all: ExecutionRow[] = [];
      for (const mode of [sideA, sideB]) {
        let after: string | null = null;
        // At most 20 pages per side: a bigger campaign is plotted from its first 2,000 executions.
        for (let i = 0; i < 20; i++) {
          const page: { executions: { pageInfo: { endCursor: string | null; hasNextPage: boolean }; nodes: ExecutionRow[] } } = await graphql(EXECUTIONS, { f: { campaignId, mode }, after }, token);
          all.push(...page.executions.nodes);
          if (!page.executions.pageInfo.hasNextPage) break;
          after = page.executions.pageInfo.endCursor;
        }
      }
      if (live) setRows(all);
    })().catch((e: unknown) => live && setFailed(String(e)));
    return () => {
      live = false;
    };
  }, [campaignId, sideA, sideB, token]);
  if (failed) return <p role="alert">Could not load the executions for the paired plot: {failed}</p>;
  if (!rows) return <p role="status">Loading the paired plot…</p>;
  const rate = (e: ExecutionRow) => (e.testsTotal ? (e.testsPassed ?? 0) / e.testsTotal : null);
  const key = (e: ExecutionRow) => `${e.agentName}|${e.benchmark}|${e.suite}|${e.task}|${e.repetition}`;
  const bSide = new Map(rows.filter((e) => e.mode === sideB).map((e) => [key(e), e]));
  const points = rows
    .filter((e) => e.mode === sideA)
    .flatMap((a) => {
      const b = bSide.get(key(a));
      const x = rate(a);
      const y = b ? rate(b) : null;
      return b && x != null && y != null ? [{ agent: a.agentName, task: a.task, x: x * 100, y: y * 100 }] : [];
    });
  if (points.length === 0) return <Empty>No pair has test results in both modes yet.</Empty>;
  const favourA = points.filter((p) => p.x > p.y).length;
  return (
    <PlotFigure
      deps={[rows]}
      caption={`Paired plot: test pass per task and repetition, ${sideA} (A, x) vs ${sideB} (B, y). Below the diagonal A passed more tests (${favourA} of ${points.length}).`}
      render={(width) =>
        Plot.plot({
          width: Math.min(width, 520),
          height: Math.min(width, 520) * 0.85,
          x: { label: `${sideA} test pass (%)`, domain: [0, 100], grid: true },
          y: { label: `${sideB} test pass (%)`, domain: [0, 100], grid: true },
          symbol: { legend: true },
          marks: [
            Plot.line([{ x: 0, y: 0 }, { x: 100, y: 100 }], { x: 'x', y: 'y', stroke: '#999', strokeDasharray: '4 3' }),
            Plot.dot(points, { x: 'x', y: 'y', symbol: 'agent', stroke: 'agent', r: 5, tip: true, title: (p) => `${p.agent} ${p.task}: A ${p.x.toFixed(0)}%, B ${p.y.toFixed(0)}%` }),
          ],
        }) as Element
      }
    />
  );
}

function SizeChart({ rows }: { rows: Comparison['differenceBySize'] }) {
  const data = rows.filter((r) => r.differencePp != null);
  const extent = Math.max(5, ...data.map((r) => Math.abs(r.differencePp!) * 1.2));
  if (data.length === 0) return <Empty>No difference by size: no benchmark has pairs with test results.</Empty>;
  return (
    <PlotFigure
      deps={[rows]}
      caption="Test pass difference A − B (pp) by benchmark, ordered by median reference size (kLOC)."
      summary={data.map((r) => `${r.benchmark} (${num(r.medianReferenceKloc, 1)} kLOC): ${signed(r.differencePp!)} pp`).join('; ')}
      render={(width) =>
        Plot.plot({
          width,
          height: 60 + 40 * data.length,
          marginLeft: 160,
          x: { label: 'A − B (pp)', grid: true, domain: [-extent, extent] },
          y: { label: null, domain: data.map((r) => `${r.benchmark} (${num(r.medianReferenceKloc, 1)} kLOC)`) },
          marks: [
            Plot.barX(data, { y: (r) => `${r.benchmark} (${num(r.medianReferenceKloc, 1)} kLOC)`, x: 'differencePp', fill: (r) => ((r.differencePp ?? 0) >= 0 ? '#1f6f43' : '#b3261e') }),
            Plot.text(data, { y: (r) => `${r.benchmark} (${num(r.medianReferenceKloc, 1)} kLOC)`, x: 'differencePp', text: (r) => `${signed(r.differencePp!)} pp`, dx: 24 }),
            Plot.ruleX([0]),
          ],
        }) as Element
      }
    />
  );
}
