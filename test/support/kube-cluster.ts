import { BatchV1Api, CoreV1Api, KubeConfig, PatchStrategy, RbacAuthorizationV1Api, setHeaderOptions, type V1PolicyRule, type V1Pod } from '@kubernetes/client-node';
import { spawn, execFile } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './processes.js';

const run = promisify(execFile);

/**
 * The shared control plane script: beside the repository (`../shared/tools`,
 * where CI lays shared/ next to its clone), or FANOUT_KUBE_TEST_CLUSTER.
 */
export function kubeTestClusterScript(): string {
  const script = process.env.FANOUT_KUBE_TEST_CLUSTER ?? resolve(ROOT, '../shared/tools/kube-test-cluster');
  if (!existsSync(script)) throw new Error(`kube-test-cluster not found at ${script}: set FANOUT_KUBE_TEST_CLUSTER`);
  return script;
}

export const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

export interface KubeCluster {
  dir: string;
  kubeconfigPath: string;
  /** Admin (system:masters). */
  kc: KubeConfig;
  core: CoreV1Api;
  batch: BatchV1Api;
  rbac: RbacAuthorizationV1Api;
  /** Kills the API server and starts it again on the same port, certificates and etcd. */
  restartApiServer(): Promise<void>;
  /** A kubeconfig file for a ServiceAccount holding these rules in these namespaces (Role + RoleBinding each), with a TokenRequest token. */
  serviceAccountKubeconfig(name: string, grants: { namespace: string; rules: V1PolicyRule[] }[]): Promise<string>;
  stop(): Promise<void>;
}

/**
 * A real kube-apiserver 1.20 + controller manager (Job controller, garbage
 * collector, TTL, quotas) on loopback, for one test file. Nothing runs pods:
 * tests act as the kubelet with `setPodStatus`.
 */
export async function startKubeCluster(): Promise<KubeCluster> {
  const script = kubeTestClusterScript();
  const dir = await mkdtemp(join(tmpdir(), 'fanout-kube-'));
  try {
    await run('bash', [script, 'start', dir], { timeout: 120_000 });
  } catch (err) {
    await run('bash', [script, 'stop', dir]).catch(() => undefined);
    throw err;
  }
  const kubeconfigPath = join(dir, 'kubeconfig');
  const kc = new KubeConfig();
  kc.loadFromFile(kubeconfigPath);
  const cluster = kc.getCurrentCluster()!;
  return {
    dir,
    kubeconfigPath,
    kc,
    core: kc.makeApiClient(CoreV1Api),
    batch: kc.makeApiClient(BatchV1Api),
    rbac: kc.makeApiClient(RbacAuthorizationV1Api),
    async restartApiServer() {
      const pidFile = join(dir, 'apiserver.pid');
      const pid = Number(await readFile(pidFile, 'utf8'));
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 100 && alive(pid); i++) await new Promise((r) => setTimeout(r, 100));
      if (alive(pid)) process.kill(pid, 'SIGKILL');
      const log = openSync(join(dir, 'apiserver.log'), 'a');
      const child = spawn(argv[0]!, argv.slice(1), { detached: true, stdio: ['ignore', log, log] });
      closeSync(log);
      child.unref();
      await writeFile(pidFile, String(child.pid));
      const token = kc.getCurrentUser()!.token!;
      for (let i = 0; i < 600; i++) {
        const ok = await run('curl', ['-ksf', '-H', `Authorization: Bearer ${token}`, `${cluster.server}/readyz`]).then(
          () => true,
          () => false,
        );
        if (ok) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error('the API server did not come back');
    },
    async serviceAccountKubeconfig(name, grants) {
      const core = kc.makeApiClient(CoreV1Api);
      const rbac = kc.makeApiClient(RbacAuthorizationV1Api);
      await core.createNamespacedServiceAccount({ namespace: 'default', body: { metadata: { name } } });
      for (const g of grants) {
        await rbac.createNamespacedRole({ namespace: g.namespace, body: { metadata: { name }, rules: g.rules } });
        await rbac.createNamespacedRoleBinding({
          namespace: g.namespace,
          body: { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name }, subjects: [{ kind: 'ServiceAccount', name, namespace: 'default' }] },
        });
      }
      // TokenRequest (GA in 1.20): a short-lived token bound to the ServiceAccount, as a projected volume gives a pod.
      const request = await core.createNamespacedServiceAccountToken({ name, namespace: 'default', body: { spec: { audiences: [], expirationSeconds: 3600 } } });
      const path = join(dir, `${name}.kubeconfig`);
      await writeFile(
        path,
        [
          'apiVersion: v1',
          'kind: Config',
          `clusters: [{name: test, cluster: {server: "${cluster.server}", certificate-authority: "${cluster.caFile}"}}]`,
          `contexts: [{name: sa, context: {cluster: test, user: sa}}]`,
          'current-context: sa',
          `users: [{name: sa, user: {token: "${request.status!.token}"}}]`,
          '',
        ].join('\n'),
      );
      return path;
    },
    async stop() {
      await run('bash', [script, 'stop', dir]).catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** What a kubelet would write: the pod running, or its runner container ended with this code. */
export async function setPodStatus(
  core: CoreV1Api,
  pod: V1Pod,
  state: { phase: 'Running' } | { phase: 'Succeeded' | 'Failed'; exitCode: number; reason?: string; podReason?: string; message?: string },
): Promise<void> {
  const now = new Date().toISOString();
  const container =
    state.phase === 'Running'
      ? { name: 'runner', ready: true, restartCount: 0, image: 'runner', imageID: '', state: { running: { startedAt: now } } }
      : {
          name: 'runner',
          ready: false,
          restartCount: 0,
          image: 'runner',
          imageID: '',
          state: { terminated: { exitCode: state.exitCode, reason: state.reason ?? (state.exitCode === 0 ? 'Completed' : 'Error'), startedAt: now, finishedAt: now } },
        };
  await core.patchNamespacedPodStatus(
    {
      name: pod.metadata!.name!,
      namespace: pod.metadata!.namespace!,
      body: { status: { phase: state.phase, ...('podReason' in state && state.podReason ? { reason: state.podReason, message: state.message ?? '' } : {}), containerStatuses: [container] } },
    },
    MERGE_PATCH,
  );
}

/** Polls until `check` returns a value (not undefined/false), or fails after `timeoutMs` with `what`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false | null>, timeoutMs = 30_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false && value !== null) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
