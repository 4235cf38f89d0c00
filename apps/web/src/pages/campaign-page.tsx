import { useState } from 'react';
import { useGraphql } from '../api/use-graphql';
import { Async, Empty } from '../components/states';
import { dateTime, pct, usd } from '../format';
import { Link } from '../router';

interface Progress {
  queued: number;
  dispatching: number;
  running: number;
  completed: number;
  infraFailed: number;
  cancelled: number;
  total: number;
  resolved: number;
  passSoFar: number | null;
}
interface Campaign {
  id: string;
  name: string;
  description: string | null;
  status: string;
  pauseReason: string | null;
  visibility: string;
  createdAt: string;
  launchedAt: string | null;
  budgetUsd: number;
  spentUsd: number;
  reservedUsd: number;
  overrunUsd: number;
  maxConcurrency: number;
  executionCount: number;
  progress: Progress;
  plan: { modes: string[]; repetitions: number; agents: { name: string; version: number; model: string }[]; benchmarks: { key: string; version: string; suite: string | null; sampledTasks: number }[] };
}
export interface ExecutionRow {
  id: string;
  agentName: string;
  mode: string;
  benchmark: string;
  suite: string;
  task: string;
  difficulty: string;
  repetition: number;
  status: string;
  resolved: boolean | null;
  testsPassed: number | null;
  testsTotal: number | null;
  costUsd: number | null;
  wallSeconds: number | null;
}

const CAMPAIGN = `query($id: ID!) { campaign(id: $id) {
  id name description status pauseReason visibility createdAt launchedAt budgetUsd spentUsd reservedUsd overrunUsd maxConcurrency executionCount
  progress { queued dispatching running completed infraFailed cancelled total resolved passSoFar }
  plan { modes repetitions agents { name version model } benchmarks { key version suite sampledTasks } }
} }`;
const EXECUTIONS = `query($f: ExecutionFilterInput, $after: String) { executions(filter: $f, first: 50, after: $after) {
  totalCount pageInfo { endCursor hasNextPage }
  nodes { id agentName mode benchmark suite task difficulty repetition status resolved testsPassed testsTotal costUsd wallSeconds }
} }`;

const POLL_MS = 3000;
const live = (c: Campaign) => c.status === 'RUNNING' || c.progress.running + c.progress.dispatching > 0;

export function CampaignPage({ id }: { id: string }) {
  const [polling, setPolling] = useState(true);
  const campaign = useGraphql<{ campaign: Campaign }>(CAMPAIGN, { id }, { pollMs: polling ? POLL_MS : null });
  const isLive = campaign.data ? live(campaign.data.campaign) : false;
  if (campaign.data && polling !== isLive) setPolling(isLive);
  return (
    <Async state={campaign} what="campaign">
      {({ campaign: c }) => (
        <>
          <h1>{c.name}</h1>
          <p className="lede">
            <span className={`status status-${c.status.toLowerCase()}`}>{c.status.toLowerCase()}</span>
            {c.pauseReason ? ` (paused: ${c.pauseReason})` : ''} · {c.visibility} · created {dateTime(c.createdAt)}
            {c.launchedAt ? ` · launched ${dateTime(c.launchedAt)}` : ''}
            {isLive ? <span className="live"> · updating every {POLL_MS / 1000} s</span> : null}
          </p>
          {c.description ? <p>{c.description}</p> : null}
          <nav className="actions" aria-label="Campaign views">
            {c.plan.modes.length >= 2 ? <Link to={`/campaigns/${c.id}/compare?modeA=${encodeURIComponent(c.plan.modes[0]!)}&modeB=${encodeURIComponent(c.plan.modes[1]!)}`}>Compare {c.plan.modes[0]} vs {c.plan.modes[1]}</Link> : null}
            {c.plan.modes.length >= 2 ? ' · ' : null}
            <Link to={`/campaigns/${c.id}/delegation${c.plan.modes.includes('concurrent') || c.plan.modes.length === 0 ? '' : `?mode=${encodeURIComponent(c.plan.modes[0]!)}`}`}>Delegation by difficulty</Link>
          </nav>
          <ProgressPanel c={c} />
          <SpendPanel c={c} />
          <section aria-labelledby="plan-title">
            <h2 id="plan-title">Plan</h2>
            <p>
              {c.plan.agents.map((a) => `${a.name} v${a.version} (${a.model})`).join(', ')} × {c.plan.modes.join(', ')} ×{' '}
              {c.plan.benchmarks.map((b) => `${b.key} ${b.version}${b.suite ? ` / ${b.suite}` : ''}: ${b.sampledTasks} tasks`).join('; ')} × {c.plan.repetitions} repetition(s) = {c.executionCount} executions
            </p>
          </section>
          <SampleTable campaignId={c.id} pollMs={isLive ? POLL_MS : null} />
        </>
      )}
    </Async>
  );
}

function ProgressPanel({ c }: { c: Campaign }) {
  const p = c.progress;
  const done = p.completed + p.infraFailed + p.cancelled;
  return (
    <section aria-labelledby="progress-title" className="panel">
      <h2 id="progress-title">Progress</h2>
      <progress max={p.total || 1} value={done} aria-label={`${done} of ${p.total} executions finished`} />
      <p data-testid="progress-summary" aria-live="polite">
        {done} of {p.total} finished
      </p>
      <dl className="stats">
        {(
          [
            ['queued', p.queued],
            ['dispatching', p.dispatching],
            ['running', p.running],
            ['completed', p.completed],
            ['infra failed', p.infraFailed],
            ['cancelled', p.cancelled],
            ['resolved', p.resolved],
          ] as const
        ).map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
        <div>
          <dt>task pass so far</dt>
          <dd>{p.passSoFar == null ? '–' : `${pct(p.passSoFar)}%`}</dd>
        </div>
      </dl>
    </section>
  );
}

function SpendPanel({ c }: { c: Campaign }) {
  const share = c.budgetUsd > 0 ? Math.min(1, c.spentUsd / c.budgetUsd) : 0;
  return (
    <section aria-labelledby="spend-title" className="panel">
      <h2 id="spend-title">Spend against the cap</h2>
      <meter min={0} max={c.budgetUsd || 1} low={c.budgetUsd * 0.5} high={c.budgetUsd * 0.8} optimum={0} value={c.spentUsd} aria-label={`${usd(c.spentUsd)} spent of ${usd(c.budgetUsd)}`} />
      <dl className="stats">
        <div>
          <dt>spent</dt>
          <dd>{usd(c.spentUsd)}</dd>
        </div>
        <div>
          <dt>budget cap</dt>
          <dd>{usd(c.budgetUsd)}</dd>
        </div>
        <div>
          <dt>share of cap</dt>
          <dd>{(share * 100).toFixed(1)}%</dd>
        </div>
        <div>
          <dt>reserved</dt>
          <dd>{usd(c.reservedUsd)}</dd>
        </div>
        <div>
          <dt>overrun</dt>
          <dd className={c.overrunUsd > 0 ? 'bad' : undefined}>{usd(c.overrunUsd)}</dd>
        </div>
      </dl>
    </section>
  );
}

function SampleTable({ campaignId, pollMs }: { campaignId: string; pollMs: number | null }) {
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const after = cursors[cursors.length - 1];
  const page = useGraphql<{ executions: { totalCount: number; pageInfo: { endCursor: string | null; hasNextPage: boolean }; nodes: ExecutionRow[] } }>(EXECUTIONS, { f: { campaignId }, after }, { pollMs });
  return (
    <section aria-labelledby="sample-title">
      <h2 id="sample-title">Executions</h2>
      <Async state={page} what="executions">
        {({ executions }) =>
          executions.totalCount === 0 ? (
            <Empty>This campaign has no executions.</Empty>
          ) : (
            <>
              <ExecutionTable rows={executions.nodes} caption={`Executions ${(cursors.length - 1) * 50 + 1} to ${(cursors.length - 1) * 50 + executions.nodes.length} of ${executions.totalCount}`} />
              <div className="pager">
                <button type="button" disabled={cursors.length === 1} onClick={() => setCursors((c) => c.slice(0, -1))}>
                  Previous page
                </button>
                <button type="button" disabled={!executions.pageInfo.hasNextPage} onClick={() => setCursors((c) => [...c, executions.pageInfo.endCursor])}>
                  Next page
                </button>
              </div>
            </>
          )
        }
      </Async>
    </section>
  );
}

export function ExecutionTable({ rows, caption }: { rows: ExecutionRow[]; caption: string }) {
  return (
    <div className="table-scroll">
      <table>
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Execution</th>
            <th scope="col">Agent</th>
            <th scope="col">Mode</th>
            <th scope="col">Task</th>
            <th scope="col">Difficulty</th>
            <th scope="col" className="num">
              Rep.
            </th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Tests
            </th>
            <th scope="col">Resolved</th>
            <th scope="col" className="num">
              Cost
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((e) => (
            <tr key={e.id}>
              <th scope="row">
                <Link to={`/executions/${e.id}`}>{e.id.slice(0, 8)}</Link>
              </th>
              <td>{e.agentName}</td>
              <td>{e.mode}</td>
              <td>
                {e.benchmark} / {e.suite} / {e.task}
              </td>
              <td>{e.difficulty.toLowerCase()}</td>
              <td className="num">{e.repetition}</td>
              <td>
                <span className={`status status-${e.status.toLowerCase()}`}>{e.status.toLowerCase().replace('_', ' ')}</span>
              </td>
              <td className="num">{e.testsTotal == null ? '–' : `${e.testsPassed}/${e.testsTotal}`}</td>
              <td>{e.resolved == null ? '–' : e.resolved ? 'yes' : 'no'}</td>
              <td className="num">{usd(e.costUsd)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

