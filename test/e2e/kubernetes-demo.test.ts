import { CoreV1Api, makeInformer, type V1Pod } from '@kubernetes/client-node';
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/free-port.js';
import { setPodStatus, startKubeCluster, type KubeCluster } from '../support/kube-cluster.js';
import { ROOT, requireBuild, startProcess, type Started } from '../support/processes.js';

/**
 * The demo campaign with FANOUT_EXECUTOR=kubernetes: the API (embedded
 * scheduler) creates a Job per attempt on a real API server, and this test
 * is the kubelet: for each pod the Job controller creates, it runs the
 * runner here with the pod's environment (the token read from the Secret the
 * pod references; the work folder a fresh temporary one, as an emptyDir would
 * be) and reports the runner's exit code in the pod's status. The Job
 * controller completes the Jobs; the executor's informers see it.
 */
describe('the demo campaign on Kubernetes (the test as kubelet)', () => {
  let cluster: KubeCluster;
  let home: string;
  let api: Started;
  let url: string;
  let campaignId: string;
  let pods: ReturnType<typeof makeInformer<V1Pod>>;
  const runners = new Map<string, Promise<number | null>>();
  let stopping = false;
  const exits: number[] = [];
  const DEMO_TIMEOUT_MS = 9 * 60_000;

  /** What the kubelet does with a new pod: start its container (here, the runner as a process), then report how it ended. */
  const kubelet = (core: CoreV1Api) => async (pod: V1Pod) => {
    const uid = pod.metadata!.uid!;
    if (runners.has(uid) || pod.status?.phase !== 'Pending' || pod.metadata?.deletionTimestamp) return;
    const container = pod.spec!.containers[0]!;
    const env: Record<string, string> = {};
    for (const e of container.env ?? []) {
      if (e.value !== undefined) env[e.name] = e.value;
      else if (e.valueFrom?.secretKeyRef) {
        const secret = await core.readNamespacedSecret({ name: e.valueFrom.secretKeyRef.name!, namespace: pod.metadata!.namespace! });
        env[e.name] = Buffer.from(secret.data![e.valueFrom.secretKeyRef.key]!, 'base64').toString('utf8');
      }
    }
    const run = (async () => {
      const dir = await mkdtemp(join(home, 'pod-'));
      await mkdir(join(dir, 'home'));
      await setPodStatus(core, pod, { phase: 'Running' });
      const log = openSync(join(dir, 'runner.log'), 'a');
      // The image's PATH would hold the demo agent; here it is the repository's.
      const child = spawn(process.execPath, [join(ROOT, 'dist/apps/runner/src/main.js')], {
        cwd: dir,
        stdio: ['ignore', log, log],
        env: { ...env, FANOUT_WORK_DIR: join(dir, 'run'), HOME: join(dir, 'home'), LANG: 'C.UTF-8', PATH: [join(ROOT, 'apps/demo-agent/bin'), join(ROOT, 'node_modules/.bin'), process.env.PATH].join(':') },
      });
      closeSync(log);
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      exits.push(code ?? -1);
      await setPodStatus(core, pod, code === 0 ? { phase: 'Succeeded', exitCode: 0 } : { phase: 'Failed', exitCode: code ?? 137 });
      return code;
    })();
    runners.set(uid, run);
  };

  beforeAll(async () => {
    requireBuild();
    cluster = await startKubeCluster();
    home = await mkdtemp(join(tmpdir(), 'fanout-k8s-demo-'));
    pods = makeInformer<V1Pod>(cluster.kc, '/api/v1/pods', () => cluster.core.listPodForAllNamespaces({ labelSelector: 'app.kubernetes.io/managed-by=fanout' }), 'app.kubernetes.io/managed-by=fanout');
    const onPod = kubelet(cluster.core);
    pods.on('add', (pod) => void onPod(pod));
    pods.on('error', () => setTimeout(() => void (stopping || pods.start()), 500));
    await pods.start();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    api = await startProcess(
      ['dist/apps/api/src/main.js'],
      {
        FANOUT_HOME: home,
        PORT: String(port),
        FANOUT_PG_PORT: String(await freePort()),
        DATABASE_URL: '',
        FANOUT_DEMO: 'on',
        FANOUT_SCHEDULER: 'embedded',
        FANOUT_EXECUTOR: 'kubernetes',
        FANOUT_KUBECONFIG: cluster.kubeconfigPath,
        FANOUT_RUNNER_IMAGE: 'registry.example.test/fanout-runner:demo',
        FANOUT_K8S_SYSTEM_NAMESPACE: 'default',
        // As many runners at once as the local demo (two cores); the others wait as Pending pods would.
        FANOUT_K8S_MAX_JOBS: '2',
        LOG_LEVEL: 'info',
      },
      /demo campaign launched/,
    );
    campaignId = /"campaignId":"([0-9a-f-]{36})"/.exec(api.output())![1]!;
  });
  afterAll(async () => {
    stopping = true;
    await pods?.stop();
    if (api && api.child.exitCode === null) {
      api.child.kill('SIGINT');
      await api.exited;
    }
    await Promise.allSettled(runners.values());
    await cluster?.stop();
    if (home) await rm(home, { recursive: true, force: true });
  });

  const gql = async (query: string, variables: Record<string, unknown>) => {
    const res = await fetch(`${url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) });
    return (await res.json()) as { data: any; errors?: unknown[] };
  };

  it(
    'runs to completion: every execution a Job, graded by the runner, completed by the Job controller',
    async () => {
      const started = Date.now();
      let status = '';
      let progress: Record<string, number> = {};
      while (Date.now() - started < DEMO_TIMEOUT_MS) {
        const res = await gql('query($id: ID!) { campaign(id: $id) { status progress { queued running completed infraFailed resolved total } } }', { id: campaignId });
        expect(res.errors).toBeUndefined();
        ({ status, progress } = res.data.campaign);
        if (status === 'COMPLETED') break;
        await new Promise((r) => setTimeout(r, 2000));
      }
      const minutes = (Date.now() - started) / 60_000;
      console.log(`demo campaign on Kubernetes: ${status} after ${minutes.toFixed(2)} min`, progress, `runner exits: ${exits.length} (${exits.filter((c) => c === 0).length} with 0)`);
      expect(status).toBe('COMPLETED');
      expect(progress.completed, api.output().split('\n').filter((l) => /"level":(40|50)/.test(l)).slice(-10).join('\n')).toBe(progress.total);
      expect(progress.total).toBe(24);

      const executions = await gql('query($f: ExecutionFilterInput) { executions(filter: $f, first: 100) { nodes { id mode task status testsPassed testsTotal wallSeconds costUsd } } }', { f: { campaignId } });
      const nodes = executions.data.executions.nodes as { id: string; mode: string; testsTotal: number; costUsd: number }[];
      expect(nodes.filter((n) => !(n.testsTotal > 0 && n.costUsd > 0)), 'every execution graded by real tests, with its cost').toEqual([]);
      // Every execution ran as a Job (one per attempt), and the Job controller completed each that graded.
      const jobs = (await cluster.batch.listJobForAllNamespaces({ labelSelector: 'app.kubernetes.io/managed-by=fanout' })).items;
      const executionsWithJobs = new Set(jobs.map((j) => j.metadata!.labels!['fanout.dev/execution']));
      expect(nodes.every((n) => executionsWithJobs.has(n.id))).toBe(true);
      expect(jobs.filter((j) => j.status?.conditions?.some((c) => c.type === 'Complete' && c.status === 'True')).length).toBeGreaterThanOrEqual(24);
      expect(new Set(jobs.map((j) => j.metadata!.namespace)).size).toBe(1);
    },
    DEMO_TIMEOUT_MS + 60_000,
  );

  it('Ctrl-C afterwards stops the API cleanly; the Jobs stay for their TTL', async () => {
    api.child.kill('SIGINT');
    expect(await api.exited).toBe(0);
    expect((await cluster.batch.listJobForAllNamespaces({ labelSelector: 'app.kubernetes.io/managed-by=fanout' })).items.length).toBeGreaterThanOrEqual(24);
  });
});
