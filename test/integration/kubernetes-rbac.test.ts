import { BatchV1Api, CoreV1Api, KubeConfig, type V1PolicyRule } from '@kubernetes/client-node';
import { claimExecutions, jobName, statusOf, type KubernetesJobExecutor } from '#libs/engine';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApi, type TestApi } from '../support/api.js';
import { launchedCampaign, scheduler } from '../support/engine.js';
import { eventually, setPodStatus, startKubeCluster, type KubeCluster } from '../support/kube-cluster.js';
import { dispatch, executionRow, jobsOf, kubeExecutor, namespaceOf, podOf, postGrade, tokenOf } from '../support/kube-engine.js';

/** What the scheduler needs in a tenant namespace (docs/engine.md lists the same). */
export const TENANT_RULES: V1PolicyRule[] = [
  { apiGroups: ['batch'], resources: ['jobs'], verbs: ['create', 'get', 'list', 'watch', 'delete'] },
  { apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['create', 'get', 'list', 'patch', 'delete'] },
  { apiGroups: ['networking.k8s.io'], resources: ['networkpolicies'], verbs: ['create'] },
  { apiGroups: [''], resources: ['limitranges', 'resourcequotas'], verbs: ['create'] },
];
const LEASE_RULES: V1PolicyRule[] = [{ apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] }];

/**
 * The scheduler with its own ServiceAccount's token (a TokenRequest token,
 * no admin rights), granted a Role in its tenants' namespaces (created
 * beforehand by an operator) and the Lease's: enough for the whole cycle,
 * and nothing in a namespace it was not granted.
 */
describe('Kubernetes executor with the scheduler\'s own ServiceAccount', () => {
  let cluster: KubeCluster;
  let api: TestApi;
  let executor: KubernetesJobExecutor;
  let saConfig: string;
  let granted: { orgId: string; token: string };
  let other: { orgId: string; token: string };

  beforeAll(async () => {
    [cluster, api] = await Promise.all([startKubeCluster(), startTestApi()]);
    granted = await signUp(api, 'rbac-granted');
    other = await signUp(api, 'rbac-other');
    for (const org of [granted, other]) await cluster.core.createNamespace({ body: { metadata: { name: namespaceOf(org.orgId) } } });
    saConfig = await cluster.serviceAccountKubeconfig('fanout-scheduler', [
      { namespace: namespaceOf(granted.orgId), rules: TENANT_RULES },
      { namespace: 'default', rules: LEASE_RULES },
    ]);
    executor = kubeExecutor(cluster, api, { leaderElection: { leaseName: 'fanout-scheduler', leaseDurationSeconds: 5, retryMs: 300 } }, saConfig);
    await executor.run();
  });
  afterAll(async () => {
    await executor?.close();
    await api?.close();
    await cluster?.stop();
  });

  it('is enough for the whole cycle: namespace objects, Secret, Job, watches, the Lease, completion', async () => {
    await eventually('leadership through the Lease', async () => executor.isLeader);
    const campaignId = await launchedCampaign(api, granted.token, { tasks: 1 });
    const s = scheduler(api.db.dataSource, executor);
    const [id] = await dispatch(api, s, campaignId);
    const ns = namespaceOf(granted.orgId);
    expect((await cluster.core.readNamespacedResourceQuota({ name: 'fanout-runners', namespace: ns })).metadata!.name).toBe('fanout-runners');
    const pod = await podOf(cluster, granted.orgId, id!, 1);
    await postGrade(api, id!, 1, await tokenOf(cluster, granted.orgId, jobName(id!, 1)));
    await setPodStatus(cluster.core, pod, { phase: 'Succeeded', exitCode: 0 });
    await eventually('the Job to complete', async () => (await jobsOf(cluster, granted.orgId, id!))[0]?.status?.conditions?.some((c) => c.type === 'Complete'));
    await eventually('the executor to see it', async () => !(await executor.isRunning(id!, 1)));
    expect(await executionRow(api, id!)).toMatchObject({ status: 'completed', attempt: 1 });
  });

  it('cannot touch a namespace it was not granted: the start fails with 403, nothing is created', async () => {
    await launchedCampaign(api, other.token, { tasks: 1 });
    const [request] = (await claimExecutions(api.db.dataSource, 10)).filter((r) => r.orgId === other.orgId);
    const err = await executor.start(request!).then(
      () => null,
      (e: unknown) => e,
    );
    expect(statusOf(err)).toBe(403);
    expect(await jobsOf(cluster, other.orgId, request!.executionId)).toEqual([]);
    // Directly, with the same token: no reading, no writing there, nor cluster-wide.
    const kc = new KubeConfig();
    kc.loadFromFile(saConfig);
    const batch = kc.makeApiClient(BatchV1Api);
    const core = kc.makeApiClient(CoreV1Api);
    const ns = namespaceOf(other.orgId);
    const attempts: [string, () => Promise<unknown>][] = [
      ['list jobs there', () => batch.listNamespacedJob({ namespace: ns })],
      ['list secrets there', () => core.listNamespacedSecret({ namespace: ns })],
      ['create a secret there', () => core.createNamespacedSecret({ namespace: ns, body: { metadata: { name: 'x' }, data: { a: 'eA==' } } })],
      ['list pods in kube-system', () => core.listNamespacedPod({ namespace: 'kube-system' })],
      ['list jobs cluster-wide', () => batch.listJobForAllNamespaces({})],
      ['create a namespace', () => core.createNamespace({ body: { metadata: { name: 'fanout-stolen' } } })],
    ];
    for (const [what, attempt] of attempts) expect(await attempt().then(() => 200, statusOf), what).toBe(403);
  });
});
