import { LABEL, claimExecutions, jobName, type KubernetesJobExecutor, type SchedulerService } from '#libs/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApi, type TestApi } from '../support/api.js';
import { launchedCampaign, scheduler } from '../support/engine.js';
import { eventually, setPodStatus, startKubeCluster, type KubeCluster } from '../support/kube-cluster.js';
import { RUNNER_IMAGE, dispatch, executionRow, jobsOf, kubeExecutor, namespaceOf, podOf, postGrade, tokenOf } from '../support/kube-engine.js';

/**
 * The Kubernetes executor against a real API server and Job controller:
 * the test plays the kubelet (pod status) and the runner (its grade, with
 * the token from the attempt's Secret); the scheduler and the informers do
 * the rest.
 */
describe('KubernetesJobExecutor on a real API server', () => {
  let cluster: KubeCluster;
  let api: TestApi;
  let executor: KubernetesJobExecutor;
  let s: SchedulerService;
  let deadline: number | null = null;

  beforeAll(async () => {
    [cluster, api] = await Promise.all([startKubeCluster(), startTestApi()]);
    executor = kubeExecutor(cluster, api, { deadlineSeconds: (budget) => deadline ?? budget + 600 });
    s = scheduler(api.db.dataSource, executor);
    await executor.run();
  });
  afterAll(async () => {
    await executor?.close();
    await api?.close();
    await cluster?.stop();
  });

  const campaign = async (name: string, tasks = 1) => {
    const u = await signUp(api, name);
    return { orgId: u.orgId, token: u.token, campaignId: await launchedCampaign(api, u.token, { tasks }) };
  };

  it('creates the org namespace with its policies, one locked-down Job per attempt, and its token Secret owned by the Job', async () => {
    const { orgId, campaignId } = await campaign('k8s-create');
    const [id] = await dispatch(api, s, campaignId);
    const ns = namespaceOf(orgId);

    const namespace = await cluster.core.readNamespace({ name: ns });
    expect(namespace.metadata!.labels).toMatchObject({ 'app.kubernetes.io/managed-by': 'fanout', [LABEL.org]: orgId });
    const policy = await cluster.kc.makeApiClient((await import('@kubernetes/client-node')).NetworkingV1Api).readNamespacedNetworkPolicy({ name: 'fanout-runners', namespace: ns });
    expect(policy.spec!.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy.spec!.ingress ?? []).toEqual([]);
    expect((await cluster.core.readNamespacedLimitRange({ name: 'fanout-runners', namespace: ns })).spec!.limits[0]!.defaultRequest).toEqual({ cpu: '1', memory: '2Gi' });
    expect((await cluster.core.readNamespacedResourceQuota({ name: 'fanout-runners', namespace: ns })).spec!.hard!.pods).toBe('50');

    const [job] = await jobsOf(cluster, orgId, id!);
    expect(job!.metadata!.name).toBe(jobName(id!, 1));
    expect(job!.metadata!.labels).toMatchObject({ [LABEL.org]: orgId, [LABEL.campaign]: campaignId, [LABEL.execution]: id, [LABEL.attempt]: '1' });
    expect(job!.metadata!.annotations!['fanout.dev/task']).toMatch(/\//);
    expect(job!.spec).toMatchObject({ backoffLimit: 0, ttlSecondsAfterFinished: 600 });
    // The campaign's 30-minute budget plus the test's margin.
    expect(job!.spec!.activeDeadlineSeconds).toBe(30 * 60 + 600);
    const pod = job!.spec!.template.spec!;
    expect(pod).toMatchObject({ restartPolicy: 'Never', automountServiceAccountToken: false, securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } });
    const container = pod.containers[0]!;
    expect(container.image).toBe(RUNNER_IMAGE);
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
    const env = Object.fromEntries(container.env!.map((e) => [e.name, e.value ?? e.valueFrom?.secretKeyRef?.name]));
    expect(env).toMatchObject({ FANOUT_API: api.url, FANOUT_EXECUTION_ID: id, FANOUT_RUNNER_TOKEN: jobName(id!, 1) });

    // The Secret is the Job's (the garbage collector deletes it with the Job) and holds a working token.
    const secret = await cluster.core.readNamespacedSecret({ name: jobName(id!, 1), namespace: ns });
    expect(secret.metadata!.ownerReferences).toEqual([expect.objectContaining({ kind: 'Job', name: jobName(id!, 1), uid: job!.metadata!.uid })]);
    const token = await tokenOf(cluster, orgId, jobName(id!, 1));
    expect((await fetch(`${api.url}/v1/executions/${id}/spec`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);

    // The real Job controller made the pod, with the labels the informers select on.
    const created = await podOf(cluster, orgId, id!, 1);
    expect(created.metadata!.labels).toMatchObject({ [LABEL.execution]: id, 'app.kubernetes.io/managed-by': 'fanout' });
    expect(await executor.isRunning(id!, 1)).toBe(true);
    expect(await executor.isRunning(id!, 2)).toBe(false);
  });

  it('starting an attempt twice is a no-op: one Job (409 with this execution\'s labels is success)', async () => {
    const { orgId } = await campaign('k8s-idem');
    const [request] = (await claimExecutions(api.db.dataSource, 10)).filter((r) => r.orgId === orgId);
    await executor.start(request!);
    await executor.start(request!);
    expect(await jobsOf(cluster, orgId, request!.executionId)).toHaveLength(1);
    // The Secret still holds this attempt's token after the second start.
    expect(await tokenOf(cluster, orgId, jobName(request!.executionId, 1))).toBe(request!.token);
  });

  it('complete: the runner grades, its pod succeeds, the Job controller completes the Job, and the result stands', async () => {
    const { orgId, campaignId } = await campaign('k8s-complete');
    const [id] = await dispatch(api, s, campaignId);
    const pod = await podOf(cluster, orgId, id!, 1);
    await setPodStatus(cluster.core, pod, { phase: 'Running' });
    await postGrade(api, id!, 1, await tokenOf(cluster, orgId, jobName(id!, 1)));
    await setPodStatus(cluster.core, pod, { phase: 'Succeeded', exitCode: 0 });
    await eventually('the Job to complete', async () => (await jobsOf(cluster, orgId, id!))[0]!.status?.conditions?.some((c) => c.type === 'Complete'));
    await eventually('the executor to see it', async () => !(await executor.isRunning(id!, 1)));
    await executor.idle();
    expect(await executionRow(api, id!)).toMatchObject({ status: 'completed', attempt: 1, tests_total: 1 });
    const [c] = await api.db.dataSource.query('SELECT status FROM campaigns WHERE id = $1', [campaignId]);
    expect(c.status).toBe('completed');
  });

  it('fail: a runner that exits 1 without a grade is retried as attempt 2, in a new Job', async () => {
    const { orgId, campaignId } = await campaign('k8s-fail');
    const [id] = await dispatch(api, s, campaignId);
    await setPodStatus(cluster.core, await podOf(cluster, orgId, id!, 1), { phase: 'Failed', exitCode: 1 });
    const row = await eventually('the attempt to be requeued', async () => {
      const r = await executionRow(api, id!);
      return r.status === 'queued' ? r : undefined;
    });
    expect(row.last_error).toBe('the runner exited with 1');
    await dispatch(api, s, campaignId);
    const jobs = await jobsOf(cluster, orgId, id!);
    expect(jobs.map((j) => j.metadata!.labels![LABEL.attempt]).sort()).toEqual(['1', '2']);
    expect(await executor.isRunning(id!, 2)).toBe(true);
  });

  it('cancel: cancelling the campaign deletes the Job in the background: its pod and Secret go too', async () => {
    const { orgId, token, campaignId } = await campaign('k8s-cancel');
    const [id] = await dispatch(api, s, campaignId);
    await podOf(cluster, orgId, id!, 1);
    const res = await api.gql('mutation($id: ID!) { cancelCampaign(id: $id) { status } }', { id: campaignId }, token);
    expect(res.errors).toBeUndefined();
    await s.reconcileOnce();
    expect((await executionRow(api, id!)).status).toBe('cancelled');
    await eventually('the Job, its pod and its Secret to be gone', async () => {
      const ns = namespaceOf(orgId);
      const [jobs, pods, secrets] = await Promise.all([
        cluster.batch.listNamespacedJob({ namespace: ns, labelSelector: `${LABEL.execution}=${id}` }),
        cluster.core.listNamespacedPod({ namespace: ns, labelSelector: `${LABEL.execution}=${id}` }),
        cluster.core.listNamespacedSecret({ namespace: ns, labelSelector: `${LABEL.execution}=${id}` }),
      ]);
      return jobs.items.length + pods.items.length + secrets.items.length === 0;
    });
    await executor.idle();
    expect((await executionRow(api, id!)).status).toBe('cancelled');
  });

  it('deadline: a Job past its activeDeadlineSeconds ends as an agent timeout (graded 0 of 0), not retried', async () => {
    deadline = 2;
    try {
      const { orgId, campaignId } = await campaign('k8s-deadline');
      const [id] = await dispatch(api, s, campaignId);
      await setPodStatus(cluster.core, await podOf(cluster, orgId, id!, 1), { phase: 'Running' });
      const row = await eventually(
        'the deadline to end the attempt',
        async () => {
          const r = await executionRow(api, id!);
          return r.status === 'completed' ? r : undefined;
        },
        45_000,
      );
      expect(row).toMatchObject({ attempt: 1, agent_end: 'timeout', tests_total: 0 });
      const [job] = await jobsOf(cluster, orgId, id!);
      expect(job!.status!.conditions).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'Failed', reason: 'DeadlineExceeded' })]));
    } finally {
      deadline = null;
    }
  });

  it('eviction: an evicted pod is an infrastructure failure, retried as a new attempt', async () => {
    const { orgId, campaignId } = await campaign('k8s-evict');
    const [id] = await dispatch(api, s, campaignId);
    const pod = await podOf(cluster, orgId, id!, 1);
    await setPodStatus(cluster.core, pod, { phase: 'Running' });
    await setPodStatus(cluster.core, pod, { phase: 'Failed', exitCode: 137, podReason: 'Evicted', message: 'The node was low on resource: memory.' });
    const row = await eventually('the attempt to be requeued', async () => {
      const r = await executionRow(api, id!);
      return r.status === 'queued' ? r : undefined;
    });
    expect(row.last_error).toMatch(/^evicted: The node was low on resource: memory\.$/);
    await dispatch(api, s, campaignId);
    expect((await executionRow(api, id!)).attempt).toBe(2);
    await podOf(cluster, orgId, id!, 2);
  });

  it('OOMKilled: the agent took the runner down, an agent failure (crashed), not retried', async () => {
    const { orgId, campaignId } = await campaign('k8s-oom');
    const [id] = await dispatch(api, s, campaignId);
    await setPodStatus(cluster.core, await podOf(cluster, orgId, id!, 1), { phase: 'Failed', exitCode: 137, reason: 'OOMKilled' });
    const row = await eventually('the attempt to end', async () => {
      const r = await executionRow(api, id!);
      return r.status === 'completed' ? r : undefined;
    });
    expect(row).toMatchObject({ attempt: 1, agent_end: 'crashed', agent_exit_code: 137, tests_total: 0 });
  });

  it('a Job deleted behind the platform\'s back: a running attempt is retried; a graded one keeps its result', async () => {
    const { orgId, campaignId } = await campaign('k8s-vanish', 2);
    const [a, b] = await dispatch(api, s, campaignId, 2);
    const ns = namespaceOf(orgId);
    // b: graded, then its Job disappears (as with its TTL): the recorded result stands.
    const podB = await podOf(cluster, orgId, b!, 1);
    await postGrade(api, b!, 1, await tokenOf(cluster, orgId, jobName(b!, 1)));
    await setPodStatus(cluster.core, podB, { phase: 'Succeeded', exitCode: 0 });
    await eventually('b\'s Job to complete', async () => (await jobsOf(cluster, orgId, b!))[0]?.status?.conditions?.some((c) => c.type === 'Complete'));
    await cluster.batch.deleteNamespacedJob({ name: jobName(b!, 1), namespace: ns, propagationPolicy: 'Background' });
    // a: still running when someone deletes its Job.
    await podOf(cluster, orgId, a!, 1);
    await cluster.batch.deleteNamespacedJob({ name: jobName(a!, 1), namespace: ns, propagationPolicy: 'Background' });
    const row = await eventually('a to be requeued', async () => {
      const r = await executionRow(api, a!);
      return r.status === 'queued' ? r : undefined;
    });
    expect(row.last_error).toMatch(/the Job was deleted before it ended/);
    await executor.idle();
    expect(await executionRow(api, b!)).toMatchObject({ status: 'completed', attempt: 1, tests_total: 1 });
  });
});
