import * as Plot from '@observablehq/plot';
import { useEffect, useState, type FormEvent } from 'react';
import { useGraphql } from '../api/use-graphql';
import { PlotFigure } from '../components/plot-figure';
import { SortableTable, type Column } from '../components/sortable-table';
import { Async, Empty } from '../components/states';
import { DASH, num, pct, usd } from '../format';
import { Link, setQuery, useLocation } from '../router';

interface Row {
  agent: string;
  agentVersion: number;
  agentConfigVersionId: string;
  model: string;
  mode: string;
  n: number;
  resolved: number;
  taskPass: number | null;
  taskPassLow: number | null;
  taskPassHigh: number | null;
  testPass: number | null;
  meanMinutes: number | null;
  meanTokensMillions: number | null;
  meanCostUsd: number | null;
  totalCostUsd: number;
  costPerResolvedUsd: number | null;
  infraFailed: number;
  onParetoFront: boolean;
  campaigns: { id: string; name: string }[];
}

const BOARD = `query($benchmark: String!, $suite: String, $difficulty: Difficulty, $mode: String, $version: String) {
  leaderboard(benchmark: $benchmark, suite: $suite, difficulty: $difficulty, mode: $mode, version: $version) {
    benchmark version
    rows { agent agentVersion agentConfigVersionId model mode n resolved taskPass taskPassLow taskPassHigh testPass meanMinutes meanTokensMillions
           meanCostUsd totalCostUsd costPerResolvedUsd infraFailed onParetoFront campaigns { id name } }
  }
}`;

const DEFAULT_BENCHMARK = 'fanout-mini';
const label = (r: Row) => `${r.agent} v${r.agentVersion} · ${r.mode}`;

export function LeaderboardPage() {
  const { query } = useLocation();
  const benchmark = query.get('benchmark') || DEFAULT_BENCHMARK;
  const filters = { suite: query.get('suite') || null, difficulty: query.get('difficulty') || null, mode: query.get('mode') || null, version: query.get('version') || null };
  const board = useGraphql<{ leaderboard: { benchmark: string; version: string; rows: Row[] } }>(BOARD, { benchmark, ...filters });
  // Modes seen on this benchmark's board, kept while a mode filter narrows the rows.
  const [modes, setModes] = useState<string[]>([]);
  useEffect(() => {
    const seen = board.data?.leaderboard.rows.map((r) => r.mode) ?? [];
    if (seen.length) setModes((m) => [...new Set([...m, ...seen])].sort());
  }, [board.data]);

  return (
    <>
      <h1>Public leaderboard</h1>
      <p className="lede">Public campaigns only: one row per agent config version and mode. Task pass with its 95% Wilson interval; means are per execution.</p>
      <Pickers benchmark={benchmark} filters={filters} modes={modes} />
      <Async state={board} what="leaderboard">
        {({ leaderboard }) =>
          leaderboard.rows.length === 0 ? (
            <Empty>No public results for these filters on {leaderboard.benchmark} {leaderboard.version} yet.</Empty>
          ) : (
            <>
              <h2>
                {leaderboard.benchmark} {leaderboard.version}
              </h2>
              <BoardTable rows={leaderboard.rows} />
              <ParetoChart rows={leaderboard.rows} />
            </>
          )
        }
      </Async>
    </>
  );
}

const PUBLIC_BENCHMARKS = 'query { publicBenchmarks { key name version } }';

function Pickers({ benchmark, filters, modes }: { benchmark: string; filters: Record<string, string | null>; modes: string[] }) {
  const benchmarks = useGraphql<{ publicBenchmarks: { key: string; name: string; version: string }[] }>(PUBLIC_BENCHMARKS, {});
  const [suite, setSuite] = useState(filters.suite ?? '');
  useEffect(() => setSuite(filters.suite ?? ''), [filters.suite]);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setQuery({ suite: suite.trim() || null });
  };
  const list = benchmarks.data?.publicBenchmarks ?? [];
  // The benchmark in the URL stays selectable even when it is not (or not yet) in the public list.
  const options = list.some((b) => b.key === benchmark) ? list : [{ key: benchmark, name: benchmark, version: '' }, ...list];
  return (
    <form className="pickers" onSubmit={submit} aria-label="Leaderboard filters">
      <label>
        Benchmark
        <select name="benchmark" value={benchmark} aria-busy={benchmarks.loading} onChange={(e) => setQuery({ benchmark: e.target.value, version: null, suite: null })}>
          {options.map((b) => (
            <option key={b.key} value={b.key}>
              {b.name === b.key ? b.key : `${b.name} (${b.key})`}
              {b.version ? ` ${b.version}` : ''}
            </option>
          ))}
        </select>
      </label>
      {benchmarks.error ? (
        <p role="alert" className="error">
          Could not list the public benchmarks: {benchmarks.error.message}
        </p>
      ) : null}
      <label>
        Suite
        <input name="suite" value={suite} placeholder="all suites" onChange={(e) => setSuite(e.target.value)} />
      </label>
      <button type="submit">Show</button>
      <label>
        Difficulty
        <select name="difficulty" value={filters.difficulty ?? ''} onChange={(e) => setQuery({ difficulty: e.target.value })}>
          <option value="">all</option>
          <option value="EASY">easy</option>
          <option value="MEDIUM">medium</option>
          <option value="HARD">hard</option>
        </select>
      </label>
      <label>
        Mode
        <select name="mode" value={filters.mode ?? ''} onChange={(e) => setQuery({ mode: e.target.value })}>
          <option value="">all</option>
          {[...new Set([...modes, ...(filters.mode ? [filters.mode] : [])])].map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}

function BoardTable({ rows }: { rows: Row[] }) {
  const columns: Column<Row>[] = [
    { key: 'agent', label: 'Agent', sortValue: (r) => label(r), render: (r) => <span title={r.model}>{r.agent} v{r.agentVersion}</span> },
    { key: 'mode', label: 'Mode', sortValue: (r) => r.mode, render: (r) => r.mode },
    { key: 'n', label: 'n', numeric: true, sortValue: (r) => r.n, render: (r) => r.n },
    {
      key: 'taskPass',
      label: 'Task pass % [95% CI]',
      numeric: true,
      sortValue: (r) => r.taskPass,
      render: (r) => (
        <>
          {pct(r.taskPass)} <span className="ci">[{pct(r.taskPassLow)}, {pct(r.taskPassHigh)}]</span>
        </>
      ),
    },
    { key: 'testPass', label: 'Test pass %', numeric: true, sortValue: (r) => r.testPass, render: (r) => pct(r.testPass) },
    { key: 'minutes', label: 'Minutes', numeric: true, sortValue: (r) => r.meanMinutes, render: (r) => num(r.meanMinutes, 1) },
    { key: 'tokens', label: 'Tokens (M)', numeric: true, sortValue: (r) => r.meanTokensMillions, render: (r) => num(r.meanTokensMillions) },
    { key: 'cost', label: 'Cost $', numeric: true, sortValue: (r) => r.meanCostUsd, render: (r) => usd(r.meanCostUsd) },
    { key: 'total', label: 'Total $', numeric: true, sortValue: (r) => r.totalCostUsd, render: (r) => usd(r.totalCostUsd) },
    { key: 'perResolved', label: '$ / resolved', numeric: true, sortValue: (r) => r.costPerResolvedUsd, render: (r) => usd(r.costPerResolvedUsd) },
    { key: 'infra', label: 'Infra failed', numeric: true, sortValue: (r) => r.infraFailed, render: (r) => r.infraFailed },
    { key: 'pareto', label: 'Pareto', sortValue: (r) => (r.onParetoFront ? 1 : 0), render: (r) => (r.onParetoFront ? <span className="badge">on front</span> : DASH) },
    {
      key: 'campaigns',
      label: 'Campaigns',
      render: (r) => (
        <ul className="inline-list">
          {r.campaigns.map((c) => (
            <li key={c.id}>
              <Link to={`/campaigns/${c.id}`}>{c.name}</Link>
            </li>
          ))}
        </ul>
      ),
    },
  ];
  return <SortableTable caption="Agents by task pass (select a column header to sort)" columns={columns} rows={rows} rowKey={(r) => `${r.agentConfigVersionId}:${r.mode}`} initialSort={{ key: 'taskPass', descending: true }} />;
}

function ParetoChart({ rows }: { rows: Row[] }) {
  const points = rows.filter((r) => r.meanCostUsd != null && r.taskPass != null).map((r) => ({ ...r, label: label(r), cost: r.meanCostUsd!, pass: r.taskPass! * 100 }));
  if (points.length === 0) return <Empty>No row has both a cost and a task pass to plot.</Empty>;
  type Point = (typeof points)[number];
  const front = points.filter((p) => p.onParetoFront).sort((a, b) => a.cost - b.cost);
  return (
    <PlotFigure
      deps={[rows]}
      caption="Mean cost per execution vs task pass. The line joins the Pareto front (no other row is both cheaper and better); front rows are filled."
      summary={`Scatter of ${points.length} rows; on the Pareto front: ${front.map((p) => p.label).join(', ') || 'none'}.`}
      render={(width) =>
        Plot.plot({
          width,
          height: 320,
          marginLeft: 50,
          x: { label: 'Mean cost per execution ($)', grid: true, domain: [0, Math.max(...points.map((p) => p.cost)) * 1.15 || 1] },
          insetRight: 20,
          y: { label: 'Task pass (%)', grid: true, domain: [0, 100] },
          color: { legend: true, domain: ['on the Pareto front', 'dominated'], range: ['#1f6f43', '#8a8f98'] },
          marks: [
            Plot.line(front, { x: 'cost', y: 'pass', stroke: '#1f6f43', strokeDasharray: '4 3' }),
            Plot.dot(points, { x: 'cost', y: 'pass', r: 6, fill: (p: Point) => (p.onParetoFront ? 'on the Pareto front' : 'dominated'), stroke: 'black', symbol: (p: Point) => (p.onParetoFront ? 'circle' : 'square'), tip: true, title: (p: Point) => `${p.label}\n${pct(p.taskPass)}% task pass, ${usd(p.cost)}` }),
            Plot.text(points, { x: 'cost', y: 'pass', text: 'label', dy: -12, fontSize: 11 }),
          ],
        }) as Element
      }
    />
  );
}
