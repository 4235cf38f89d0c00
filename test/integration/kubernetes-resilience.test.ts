import { CoordinationV1Api } from '@kubernetes/client-node';
import { LABEL, claimExecutions, jobName, type KubernetesJobExecutor } from '#libs/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApi, type TestApi } from '../support/api.js';
import { launchedCampaign, scheduler } from '../support/engine.js';
import { eventually, setPodStatus, startKubeCluster, type KubeCluster } from '../support/kube-cluster.js';
import { dispatch, executionRow, jobsOf, kubeExecutor, namespaceOf, podOf } from '../support/kube-engine.js';

/** Crashes, restarts and two schedulers: what must hold when the platform's processes do not. */
describe('Kubernetes executor: crashes, restarts, leader election', () => {
  let cluster: KubeCluster;
  let api: TestApi;
  const executors: KubernetesJobExecutor[] = [];
  const executor = (overrides: Parameters<typeof kubeExecutor>[2] = {}) => {
    const e = kubeExecutor(cluster, api, overrides);
    executors.push(e);
    return e;
  };

  beforeAll(async () => {
    [cluster, api] = await Promise.all([startKubeCluster(), startTestApi()]);
  });
  afterAll(async () => {
    await Promise.all(executors.map((e) => e.close()));
    await api?.close();
    await cluster?.stop();
  });

  const campaign = async (name: string, tasks = 1) => {
    const u = await signUp(api, name);
    return { orgId: u.orgId, campaignId: await launchedCampaign(api, u.token, { tasks }) };
  };
  /** As if the dispatch was 31 s ago: the reconciler's "never started" check applies now. */
  const age = (id: string) => api.db.dataSource.query(`UPDATE executions SET dispatched_at = now() - interval '31 seconds' WHERE id = $1`, [id]);

  it('a scheduler killed between the database commit and the Job create: restarted, no duplicate Job, no lost execution', async () => {
    const { orgId, campaignId } = await campaign('k8s-crash', 2);
    // The first scheduler claims (commits: dispatching, attempt 1, token hash) and dies before any Job exists.
    const claimed = (await claimExecutions(api.db.dataSource, 10)).filter((r) => r.orgId === orgId);
    expect(claimed).toHaveLength(2);
    const [early, late] = claimed;
    // ... for `late` it got further: the Job exists, but the row still says dispatching.
    const first = executor();
    await first.start(late!);
    await first.close();

    // The restarted scheduler: a new process, nothing in memory.
    const restarted = executor();
    await restarted.run();
    const s = scheduler(api.db.dataSource, restarted);
    await age(early!.executionId);
    await age(late!.executionId);
    await s.reconcileOnce();
    // Never started: retried. Started: alive, left to run (its runner's heartbeat makes it running).
    expect(await executionRow(api, early!.executionId)).toMatchObject({ status: 'queued', attempt: 1, last_error: 'the runner never started' });
    expect(await executionRow(api, late!.executionId)).toMatchObject({ status: 'dispatching', attempt: 1 });
    await dispatch(api, s, campaignId, 1);
    expect(await executionRow(api, early!.executionId)).toMatchObject({ status: 'running', attempt: 2 });
    expect((await jobsOf(cluster, orgId, early!.executionId)).map((j) => j.metadata!.name)).toEqual([jobName(early!.executionId, 2)]);
    expect((await jobsOf(cluster, orgId, late!.executionId)).map((j) => j.metadata!.name)).toEqual([jobName(late!.executionId, 1)]);
  });

  it('a token Secret left without its Job by a crash is swept; one left without its owner is adopted', async () => {
    const { orgId } = await campaign('k8s-orphan', 2);
    const [lost, unowned] = (await claimExecutions(api.db.dataSource, 10)).filter((r) => r.orgId === orgId);
    const e = executor({ orphanGraceMs: 0 });
    await e.run();
    await e.start(unowned!);
    const ns = namespaceOf(orgId);
    // A crash after the Secret: there is no Job for it. And one before the adoption: no owner yet.
    await cluster.core.createNamespacedSecret({
      namespace: ns,
      body: { metadata: { name: jobName(lost!.executionId, 1), labels: { 'app.kubernetes.io/managed-by': 'fanout', 'app.kubernetes.io/component': 'runner', [LABEL.execution]: lost!.executionId } }, data: { token: 'eA==' } },
    });
    const name = jobName(unowned!.executionId, 1);
    await cluster.core.patchNamespacedSecret({ name, namespace: ns, body: [{ op: 'remove', path: '/metadata/ownerReferences' }] });
    e.resync();
    await eventually('the sweep', async () => {
      const secrets = await cluster.core.listNamespacedSecret({ namespace: ns });
      const names = secrets.items.map((x) => x.metadata!.name);
      const adopted = secrets.items.find((x) => x.metadata!.name === name)?.metadata?.ownerReferences?.[0]?.name === name;
      return !names.includes(jobName(lost!.executionId, 1)) && adopted;
    });
  });

  it('the informers come back after the API server restarts, and see what happened meanwhile', async () => {
    const { orgId, campaignId } = await campaign('k8s-reconnect');
    const e = executor();
    await e.run();
    const s = scheduler(api.db.dataSource, e);
    const [id] = await dispatch(api, s, campaignId);
    const pod = await podOf(cluster, orgId, id!, 1);
    await e.informers.watch(namespaceOf(orgId));
    await cluster.restartApiServer();
    await setPodStatus(cluster.core, pod, { phase: 'Failed', exitCode: 1 });
    // Only the informers can notice: no reconcile round runs in this test.
    const row = await eventually(
      'the failure to be seen through the restarted watch',
      async () => {
        const r = await executionRow(api, id!);
        return r.status === 'queued' ? r : undefined;
      },
      30_000,
    );
    expect(row.last_error).toBe('the runner exited with 1');
  });

  it('leader election: one of two schedulers reconciles; the other takes over when it stops', async () => {
    const election = (identity: string) => ({ leaderElection: { identity, leaseName: 'fanout-test-lease', leaseDurationSeconds: 2, retryMs: 200 } });
    const a = executor(election('scheduler-a'));
    const b = executor(election('scheduler-b'));
    await Promise.all([a.run(), b.run()]);
    const leader = await eventually('a leader', async () => (a.isLeader ? a : b.isLeader ? b : undefined));
    const other = leader === a ? b : a;
    // Stable: still exactly one after several renewals.
    await new Promise((r) => setTimeout(r, 1_000));
    expect([a.isLeader, b.isLeader].filter(Boolean)).toHaveLength(1);
    const lease = await cluster.kc.makeApiClient(CoordinationV1Api).readNamespacedLease({ name: 'fanout-test-lease', namespace: 'default' });
    expect(lease.spec!.holderIdentity).toBe(leader === a ? 'scheduler-a' : 'scheduler-b');
    await leader.close();
    await eventually('the other to take over', async () => other.isLeader, 10_000);
  });
});
