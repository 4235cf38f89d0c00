import * as Plot from '@observablehq/plot';
import { useGraphql } from '../api/use-graphql';
import { PlotFigure } from '../components/plot-figure';
import { Async, Empty } from '../components/states';
import { num, pValue, pct } from '../format';
import { Link, setQuery, useLocation } from '../router';

interface DelegationRow {
  agent: string;
  benchmark: string;
  difficulty: 'EASY' | 'MEDIUM' | 'HARD';
  n: number;
  meanCreated: number | null;
  meanPeak: number | null;
  medianOverlapRatio: number | null;
  medianFirstSpawnPosition: number | null;
  medianFirstOverlapPosition: number | null;
  medianLastEndPosition: number | null;
  neverOverlapping: number;
  neverOverlappingRate: number | null;
}
interface Delegation {
  mode: string;
  permutations: number;
  family: { description: string; correction: string; m: number };
  rows: DelegationRow[];
  neverOverlapping: { agent: string; n: number; neverOverlapping: number; rate: number | null }[];
  spearman: { agent: string; benchmark: string; variable: string; n: number; rho: number | null; p: number | null; pAdjusted: number | null }[];
}

const QUERY = `query($id: ID!, $mode: String!) {
  campaign(id: $id) { id name plan { modes } }
  delegation(campaign: $id, mode: $mode) {
    mode permutations family { description correction m }
    rows { agent benchmark difficulty n meanCreated meanPeak medianOverlapRatio medianFirstSpawnPosition medianFirstOverlapPosition medianLastEndPosition neverOverlapping neverOverlappingRate }
    neverOverlapping { agent n neverOverlapping rate }
    spearman { agent benchmark variable n rho p pAdjusted }
  }
}`;

const DIFFICULTIES = ['EASY', 'MEDIUM', 'HARD'] as const;
const difficultyLabel = (d: string) => d.toLowerCase();

export function DelegationPage({ id }: { id: string }) {
  const { query } = useLocation();
  const mode = query.get('mode') || 'concurrent';
  const state = useGraphql<{ campaign: { id: string; name: string; plan: { modes: string[] } }; delegation: Delegation }>(QUERY, { id, mode });
  return (
    <Async state={state} what="campaign">
      {({ campaign, delegation: d }) => (
        <>
          <p className="crumbs">
            <Link to={`/campaigns/${campaign.id}`}>← {campaign.name}</Link>
          </p>
          <h1>Delegation · {campaign.name}</h1>
          <p className="lede">
            How the agents spawn sub-agents by task difficulty in the {d.mode} mode: sub-agents created and their peak at one instant, overlap, and where in the execution (as a fraction of its span) the first
            spawn, the first overlap and the last end fall.
          </p>
          <form className="pickers" aria-label="Delegation mode" onSubmit={(e) => e.preventDefault()}>
            <label>
              Mode
              <select value={mode} onChange={(e) => setQuery({ mode: e.target.value === 'concurrent' ? null : e.target.value })}>
                {[...new Set([...campaign.plan.modes, mode])].map((m) => (
                  <option key={m} value={m}>
                    {m}
                  </option>
                ))}
              </select>
            </label>
          </form>
          {d.rows.length === 0 ? (
            <Empty>No {d.mode} execution of this campaign has a result with agent spans yet: the delegation metrics appear once executions finish.</Empty>
          ) : (
            <>
              <section aria-labelledby="by-difficulty-title">
                <h2 id="by-difficulty-title">By difficulty</h2>
                <div className="panels">
                  <DifficultyChart rows={d.rows} field="meanCreated" title="Mean sub-agents created" />
                  <DifficultyChart rows={d.rows} field="meanPeak" title="Mean peak of concurrent sub-agents" />
                </div>
                <RowsTable rows={d.rows} />
              </section>
              <NeverOverlapping rows={d.neverOverlapping} />
              <Spearman d={d} />
            </>
          )}
        </>
      )}
    </Async>
  );
}

function DifficultyChart({ rows, field, title }: { rows: DelegationRow[]; field: 'meanCreated' | 'meanPeak'; title: string }) {
  const multiBenchmark = new Set(rows.map((r) => r.benchmark)).size > 1;
  const points = rows
    .filter((r) => r[field] != null)
    .map((r) => ({ series: multiBenchmark ? `${r.agent} · ${r.benchmark}` : r.agent, difficulty: difficultyLabel(r.difficulty), value: r[field]!, order: DIFFICULTIES.indexOf(r.difficulty), n: r.n }))
    .sort((a, b) => a.series.localeCompare(b.series) || a.order - b.order);
  if (points.length === 0) return <Empty>No execution has this measure yet.</Empty>;
  type Point = (typeof points)[number];
  const series = [...new Set(points.map((p) => p.series))];
  const summary = series.map((s) => `${s}: ${points.filter((p) => p.series === s).map((p) => `${p.difficulty} ${num(p.value)}`).join(', ')}`).join('; ');
  return (
    <PlotFigure
      deps={[rows, field]}
      caption={`${title} per difficulty (easy, medium, hard), one line and symbol per agent. ${summary}.`}
      summary={`${title}: ${summary}`}
      render={(width) =>
        Plot.plot({
          width: Math.min(width, 560),
          height: 260,
          marginLeft: 44,
          marginRight: 16,
          x: { label: 'Difficulty', domain: DIFFICULTIES.map(difficultyLabel), padding: 0.3 },
          y: { label: title, grid: true, zero: true },
          color: { legend: true, domain: series },
          symbol: { domain: series },
          marks: [
            Plot.line(points, { x: 'difficulty', y: 'value', z: 'series', stroke: 'series', strokeWidth: 2 }),
            Plot.dot(points, { x: 'difficulty', y: 'value', stroke: 'series', fill: 'series', symbol: 'series', r: 5, tip: true, title: (p: Point) => `${p.series}, ${p.difficulty}: ${num(p.value)} (n = ${p.n})` }),
            Plot.ruleY([0]),
          ],
        }) as Element
      }
    />
  );
}

function RowsTable({ rows }: { rows: DelegationRow[] }) {
  const sorted = [...rows].sort((a, b) => a.agent.localeCompare(b.agent) || a.benchmark.localeCompare(b.benchmark) || DIFFICULTIES.indexOf(a.difficulty) - DIFFICULTIES.indexOf(b.difficulty));
  return (
    <div className="table-scroll">
      <table>
        <caption>Delegation by agent, benchmark and difficulty: means over executions; medians of positions (fraction of the execution span) over the executions that have them</caption>
        <thead>
          <tr>
            <th scope="col">Agent</th>
            <th scope="col">Benchmark</th>
            <th scope="col">Difficulty</th>
            <th scope="col" className="num">n</th>
            <th scope="col" className="num">Mean created</th>
            <th scope="col" className="num">Mean peak</th>
            <th scope="col" className="num">Median overlap ratio</th>
            <th scope="col" className="num">First spawn</th>
            <th scope="col" className="num">First overlap</th>
            <th scope="col" className="num">Last end</th>
            <th scope="col" className="num">Never overlapping</th>
          </tr>
        </thead>
        <tbody>
          {sorted.map((r) => (
            <tr key={`${r.agent}:${r.benchmark}:${r.difficulty}`}>
              <th scope="row">{r.agent}</th>
              <td>{r.benchmark}</td>
              <td>{difficultyLabel(r.difficulty)}</td>
              <td className="num">{r.n}</td>
              <td className="num">{num(r.meanCreated)}</td>
              <td className="num">{num(r.meanPeak)}</td>
              <td className="num">{num(r.medianOverlapRatio)}</td>
              <td className="num">{num(r.medianFirstSpawnPosition)}</td>
              <td className="num">{num(r.medianFirstOverlapPosition)}</td>
              <td className="num">{num(r.medianLastEndPosition)}</td>
              <td className="num">
                {r.neverOverlapping} ({pct(r.neverOverlappingRate)}%)
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function NeverOverlapping({ rows }: { rows: Delegation['neverOverlapping'] }) {
  return (
    <section aria-labelledby="never-title">
      <h2 id="never-title">Never overlapping</h2>
      {rows.length === 0 ? (
        <Empty>No agent has executions to count yet.</Empty>
      ) : (
        <div className="table-scroll">
          <table>
            <caption>Executions in which no two sub-agents were ever active at once, per agent</caption>
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col" className="num">n</th>
                <th scope="col" className="num">Never overlapping</th>
                <th scope="col" className="num">Rate %</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.agent}>
                  <th scope="row">{r.agent}</th>
                  <td className="num">{r.n}</td>
                  <td className="num">{r.neverOverlapping}</td>
                  <td className="num">{pct(r.rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function Spearman({ d }: { d: Delegation }) {
  return (
    <section aria-labelledby="spearman-title">
      <h2 id="spearman-title">Spearman: difficulty vs delegation, with Holm</h2>
      <p className="family" data-testid="family">
        Family: {d.family.description}; {d.family.correction} over m = {d.family.m} tests; p from {d.permutations.toLocaleString('en-US')} permutations.
      </p>
      {d.spearman.length === 0 ? (
        <Empty>No test yet: Spearman needs executions at more than one difficulty.</Empty>
      ) : (
        <div className="table-scroll">
          <table>
            <caption>Spearman ρ of difficulty (easy = 1, medium = 2, hard = 3) vs sub-agents created and peak, one test per agent × benchmark × variable</caption>
            <thead>
              <tr>
                <th scope="col">Agent</th>
                <th scope="col">Benchmark</th>
                <th scope="col">Variable</th>
                <th scope="col" className="num">n</th>
                <th scope="col" className="num">ρ</th>
                <th scope="col" className="num">p</th>
                <th scope="col" className="num">p (Holm)</th>
              </tr>
            </thead>
            <tbody>
              {d.spearman.map((s) => (
                <tr key={`${s.agent}:${s.benchmark}:${s.variable}`}>
                  <th scope="row">{s.agent}</th>
                  <td>{s.benchmark}</td>
                  <td>{s.variable}</td>
                  <td className="num">{s.n}</td>
                  <td className="num">{num(s.rho, 3)}</td>
                  <td className="num">{pValue(s.p)}</td>
                  <td className="num">{pValue(s.pAdjusted)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
