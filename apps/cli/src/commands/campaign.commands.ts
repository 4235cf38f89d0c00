import type { Command } from 'commander';
import { graphql, type ApiOptions } from '../api-client.js';
import { print, table, type OutputOptions } from '../output.js';
import { readText } from './catalog.commands.js';

type Globals = ApiOptions & OutputOptions;

const PLAN_FIELDS = `executionCount repetitions modes
  agents { name version model }
  benchmarks { key version suite fraction sampledTasks strata { difficulty available sampled } }
  estimate { lowUsd expectedUsd highUsd basis { model benchmark executions source detail } }`;
const CAMPAIGN_FIELDS = `id name status visibility executionCount budgetUsd createdAt launchedAt
  progress { queued dispatching running completed infraFailed cancelled total }`;

interface Plan {
  executionCount: number;
  repetitions: number;
  modes: string[];
  agents: { name: string; version: number; model: string }[];
  benchmarks: { key: string; version: string; suite: string | null; fraction: number | null; sampledTasks: number; strata: { difficulty: string; available: number; sampled: number }[] }[];
  estimate: { lowUsd: number | null; expectedUsd: number | null; highUsd: number | null; basis: { model: string; benchmark: string; executions: number; source: string; detail: string }[] };
}

interface Campaign {
  id: string;
  name: string;
  status: string;
  executionCount: number;
  budgetUsd: number;
  progress: Record<string, number>;
}

const usd = (v: number | null) => (v == null ? '-' : `$${v.toFixed(2)}`);

/** The study's Table 1 (sample per benchmark and difficulty), the unit count and the estimate. */
export function formatPlan(plan: Plan, budgetUsd?: number): string {
  const rows = plan.benchmarks.flatMap((b) =>
    b.strata.map((s) => ({
      benchmark: `${b.key} ${b.version}${b.suite ? ` / ${b.suite}` : ''}`,
      selection: b.fraction != null ? `${(b.fraction * 100).toFixed(1)}%` : 'task list',
      difficulty: s.difficulty.toLowerCase(),
      available: s.available,
      sampled: s.sampled,
    })),
  );
  const lines = [
    table(rows, ['benchmark', 'selection', 'difficulty', 'available', 'sampled']),
    '',
    `executions: ${plan.executionCount} = ${plan.agents.length} agent(s) x ${plan.modes.length} mode(s) [${plan.modes.join(', ')}] x ${plan.benchmarks.reduce((n, b) => n + b.sampledTasks, 0)} task(s) x ${plan.repetitions} repetition(s)`,
    `estimate: ${usd(plan.estimate.expectedUsd)} (range ${usd(plan.estimate.lowUsd)} to ${usd(plan.estimate.highUsd)})${budgetUsd != null ? `, budget cap $${budgetUsd.toFixed(2)}` : ''}`,
    ...plan.estimate.basis.map((b) => `  ${b.model} on ${b.benchmark}: ${b.executions} execution(s), ${b.source}: ${b.detail}`),
  ];
  return lines.join('\n');
}

function formatCampaigns(campaigns: Campaign[]): string {
  return table(
    campaigns.map((c) => ({
      id: c.id,
      name: c.name,
      status: c.status.toLowerCase(),
      queued: c.progress.queued,
      running: (c.progress.running ?? 0) + (c.progress.dispatching ?? 0),
      done: (c.progress.completed ?? 0) + (c.progress.infraFailed ?? 0),
      cancelled: c.progress.cancelled,
      total: c.progress.total,
      budget: usd(c.budgetUsd),
    })),
    ['id', 'name', 'status', 'queued', 'running', 'done', 'cancelled', 'total', 'budget'],
  );
}

export function registerCampaignCommands(program: Command): void {
  const globals = () => program.opts<Globals>();
  const campaign = program.command('campaign').description('Campaigns: plan, create, launch, pause, resume, cancel, list.');

  campaign
    .command('plan <file>')
    .description('Dry run of a campaign manifest: the sample per benchmark and difficulty, the execution count and the cost estimate.')
    .action(async (file: string) => {
      const data = await graphql<{ planCampaign: Plan & { budgetUsd: number; withinBudget: boolean | null } }>(
        globals(),
        `mutation($input: ManifestInput!) { planCampaign(input: $input) { ${PLAN_FIELDS} budgetUsd withinBudget } }`,
        { input: { yaml: await readText(file) } },
      );
      const p = data.planCampaign;
      print(globals(), p, () => `${formatPlan(p, p.budgetUsd)}${p.withinBudget === false ? '\nwarning: the estimate\'s low end is above the cap; launch will be refused' : ''}`);
    });

  campaign
    .command('create <file>')
    .description('Create a campaign and all its executions (queued). Use `campaign launch ID` to make it runnable.')
    .option('--launch', 'launch it right after creating it')
    .action(async (file: string, opts: { launch?: boolean }) => {
      const created = await graphql<{ createCampaign: Campaign & { plan: Plan } }>(
        globals(),
        `mutation($input: ManifestInput!) { createCampaign(input: $input) { ${CAMPAIGN_FIELDS} plan { ${PLAN_FIELDS} } } }`,
        { input: { yaml: await readText(file) } },
      );
      let c = created.createCampaign;
      if (opts.launch) {
        const launched = await graphql<{ launchCampaign: Campaign }>(globals(), `mutation($id: ID!) { launchCampaign(id: $id) { ${CAMPAIGN_FIELDS} } }`, { id: c.id });
        c = { ...c, ...launched.launchCampaign };
      }
      print(globals(), c, () => `created campaign ${c.name} (${c.id}), ${c.status.toLowerCase()}\n${formatPlan(c.plan, c.budgetUsd)}`);
    });

  for (const [verb, description] of [
    ['launch', 'Make a created campaign runnable (refused when the estimate\'s low end is above the cap).'],
    ['pause', 'Stop dispatching a running campaign\'s executions.'],
    ['resume', 'Resume a paused campaign.'],
    ['cancel', 'Cancel a campaign and its queued executions.'],
  ] as const) {
    campaign
      .command(`${verb} <id>`)
      .description(description)
      .action(async (id: string) => {
        const field = `${verb}Campaign`;
        const data = await graphql<Record<string, Campaign>>(globals(), `mutation($id: ID!) { ${field}(id: $id) { ${CAMPAIGN_FIELDS} } }`, { id });
        const c = data[field]!;
        print(globals(), c, () => `${c.name} (${c.id}) is now ${c.status.toLowerCase()}`);
      });
  }

  campaign
    .command('list')
    .description('Campaigns of your organization with progress by status.')
    .action(async () => {
      const data = await graphql<{ campaigns: { nodes: Campaign[] } }>(globals(), `{ campaigns(first: 100) { nodes { ${CAMPAIGN_FIELDS} } } }`);
      print(globals(), data.campaigns.nodes, () => formatCampaigns(data.campaigns.nodes));
    });

  campaign
    .command('show <id>')
    .description('One campaign: status, progress, sample table and estimate.')
    .action(async (id: string) => {
      const data = await graphql<{ campaign: Campaign & { plan: Plan } }>(globals(), `query($id: ID!) { campaign(id: $id) { ${CAMPAIGN_FIELDS} plan { ${PLAN_FIELDS} } } }`, { id });
      const c = data.campaign;
      print(globals(), c, () => `${formatCampaigns([c])}\n\n${formatPlan(c.plan, c.budgetUsd)}`);
    });

  registerWatchCommand(campaign, globals);
}

interface WatchProgress {
  queued: number;
  dispatching: number;
  running: number;
  completed: number;
  infraFailed: number;
  cancelled: number;
  total: number;
  resolved: number;
  spentUsd: number;
  passSoFar: number | null;
}

/** `fanout campaign watch ID`: live bars until the campaign ends (or Ctrl-C). */
function registerWatchCommand(campaign: Command, globals: () => Globals): void {
  campaign
    .command('watch <id>')
    .description('Live progress of a campaign: queued / running / done, pass so far, dollars so far, until it ends.')
    .option('--interval <seconds>', 'seconds between updates', '2')
    .action(async (id: string, opts: { interval: string }) => {
      const { MultiBar, Presets } = (await import('cli-progress')).default;
      const interval = Math.max(0.2, Number(opts.interval) || 2) * 1000;
      const query = `query($id: ID!) { campaign(id: $id) { name status budgetUsd progress { queued dispatching running completed infraFailed cancelled total resolved spentUsd passSoFar } } }`;
      const fetchOnce = async () => (await graphql<{ campaign: { name: string; status: string; budgetUsd: number; progress: WatchProgress } }>(globals(), query, { id })).campaign;
      let campaign = await fetchOnce();
      const tty = process.stderr.isTTY && !globals().json;
      const bars = tty ? new MultiBar({ format: ' {label} [{bar}] {value}/{total} {extra}', hideCursor: true, clearOnComplete: false }, Presets.shades_classic) : null;
      const total = campaign.progress.total;
      const done = bars?.create(total, 0, { label: 'done   ', extra: '' });
      const running = bars?.create(total, 0, { label: 'running', extra: '' });
      const queued = bars?.create(total, 0, { label: 'queued ', extra: '' });
      for (;;) {
        const p = campaign.progress;
        const finished = p.completed + p.infraFailed + p.cancelled;
        const pass = p.passSoFar == null ? '-' : `${(p.passSoFar * 100).toFixed(1)}%`;
        const extra = `pass so far ${pass}, $${p.spentUsd.toFixed(2)} of $${campaign.budgetUsd.toFixed(2)}, ${campaign.status.toLowerCase()}`;
        if (bars) {
          done!.update(finished, { extra });
          running!.update(p.running + p.dispatching, { extra: p.infraFailed ? `${p.infraFailed} infra failed` : '' });
          queued!.update(p.queued, { extra: p.cancelled ? `${p.cancelled} cancelled` : '' });
        } else {
          print(globals(), { status: campaign.status, ...p }, () => `${campaign.name}: ${finished}/${p.total} done, ${p.running + p.dispatching} running, ${p.queued} queued; ${extra}`);
        }
        if (campaign.status === 'COMPLETED' || campaign.status === 'CANCELLED') break;
        await new Promise((r) => setTimeout(r, interval));
        campaign = await fetchOnce();
      }
      bars?.stop();
      if (bars) process.stderr.write(`${campaign.name}: ${campaign.status.toLowerCase()}\n`);
    });
}
