import { KubernetesJobExecutor, LABEL, RUNNER_SELECTOR, databaseAttemptSource, type KubernetesExecutorOptions, type SchedulerService } from '#libs/engine';
import { KubeConfig, type V1Job, type V1Pod } from '@kubernetes/client-node';
import { pino } from 'pino';
import type { TestApi } from './api.js';
import { eventually, type KubeCluster } from './kube-cluster.js';

export const RUNNER_IMAGE = 'registry.example.test/fanout-runner:test';

/** A Kubernetes executor on the test cluster and the test API's database (no leader election unless asked). */
export function kubeExecutor(cluster: KubeCluster, api: TestApi, overrides: Partial<KubernetesExecutorOptions> = {}, kubeconfigPath = cluster.kubeconfigPath): KubernetesJobExecutor {
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  return new KubernetesJobExecutor({
    kubeConfig: kc,
    source: databaseAttemptSource(api.db.dataSource),
    image: RUNNER_IMAGE,
    apiUrl: api.url,
    namespacePrefix: 'fanout-',
    systemNamespace: 'default',
    maxJobs: 50,
    qps: 200,
    ttlSecondsAfterFinished: 600,
    unschedulableSeconds: 600,
    kueue: null,
    leaderElection: false,
    resyncMs: 2_000,
    watchBackoff: { baseMs: 200, maxMs: 2_000 },
    logger: pino({ level: process.env.FANOUT_TEST_KUBE_LOG ?? 'silent' }),
    ...overrides,
  });
}

export function namespaceOf(orgId: string): string {
  return `fanout-${orgId}`;
}

/** The Jobs of an execution, any attempt. */
export async function jobsOf(cluster: KubeCluster, orgId: string, executionId: string): Promise<V1Job[]> {
  const list = await cluster.batch.listNamespacedJob({ namespace: namespaceOf(orgId), labelSelector: `${RUNNER_SELECTOR},${LABEL.execution}=${executionId}` });
  return list.items;
}

/** The pod the Job controller created for this attempt. */
export function podOf(cluster: KubeCluster, orgId: string, executionId: string, attempt: number): Promise<V1Pod> {
  return eventually(`the pod of ${executionId} attempt ${attempt}`, async () => {
    const list = await cluster.core.listNamespacedPod({ namespace: namespaceOf(orgId), labelSelector: `${LABEL.execution}=${executionId},${LABEL.attempt}=${attempt}` });
    return list.items[0];
  });
}

/** The runner token the attempt's Secret holds. */
export async function tokenOf(cluster: KubeCluster, orgId: string, jobName: string): Promise<string> {
  const secret = await cluster.core.readNamespacedSecret({ name: jobName, namespace: namespaceOf(orgId) });
  return Buffer.from(secret.data!.token!, 'base64').toString('utf8');
}

export async function executionRow(api: TestApi, id: string): Promise<{ status: string; attempt: number; last_error: string | null; agent_end: string | null; tests_total: number | null; agent_exit_code: number | null }> {
  const [row] = await api.db.dataSource.query('SELECT status, attempt, last_error, agent_end, tests_total, agent_exit_code FROM executions WHERE id = $1', [id]);
  return row;
}

/** Dispatches until `n` executions of the campaign are running; returns their ids. */
export async function dispatch(api: TestApi, s: SchedulerService, campaignId: string, n = 1): Promise<string[]> {
  return eventually(`${n} running executions`, async () => {
    await s.dispatchOnce();
    const rows: { id: string }[] = await api.db.dataSource.query(`SELECT id FROM executions WHERE campaign_id = $1 AND status = 'running' ORDER BY id`, [campaignId]);
    return rows.length >= n ? rows.map((r) => r.id) : undefined;
  });
}

/** Posts a grade with the runner token, as the runner would before exiting 0. */
export async function postGrade(api: TestApi, executionId: string, attempt: number, token: string, passed = 1): Promise<void> {
  const res = await fetch(`${api.url}/v1/executions/${executionId}/grade`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ attempt, testsPassed: passed, testsTotal: 1, resolved: passed === 1, agentEnd: 'exited', agentExitCode: 0, graderExitCode: passed === 1 ? 0 : 1, wallSeconds: 1.5 }),
  });
  if (res.status !== 200 && res.status !== 201) throw new Error(`grade: ${res.status} ${await res.text()}`);
}
