import { makeInformer, type BatchV1Api, type CoreV1Api, type Informer, type KubeConfig, type ObjectCache, type V1Job, type V1Pod } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { RUNNER_SELECTOR } from './job-manifests.js';
import { describeError } from './kube-errors.js';
import type { TokenBucket } from './token-bucket.js';

/** A Job changed, or a pod of it did (`deleted`: the Job is gone; `last` is what was last seen of it). */
export type JobChange = (namespace: string, jobName: string, change: { deleted: boolean; last?: V1Job }) => void;

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
}

/**
 * A list+watch cache (client-node's informer) that comes back by itself:
 * the client's informer re-lists on 410 Gone but stops on any other error
 * (the API server restarting, a dropped connection, a 403), so each error
 * schedules a restart with exponential backoff and jitter. A restart
 * resumes the watch from the last resourceVersion, or re-lists when that
 * is too old; a re-list reports objects deleted meanwhile as deletions.
 */
class SupervisedInformer<T extends V1Job | V1Pod> {
  readonly informer: Informer<T> & ObjectCache<T>;
  private failures = 0;
  private lastFailure = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Resolves once the first list has arrived. */
  readonly listed: Promise<void>;
  private markListed!: () => void;

  constructor(
    kc: KubeConfig,
    path: string,
    list: () => Promise<{ items: T[]; metadata?: { resourceVersion?: string } }>,
    private readonly what: string,
    private readonly backoff: BackoffOptions,
    private readonly logger: Logger,
    onEvent: (obj: T, deleted: boolean) => void,
  ) {
    this.listed = new Promise((resolve) => (this.markListed = resolve));
    this.informer = makeInformer<T>(
      kc,
      path,
      async () => {
        const result = await list();
        this.markListed();
        return result as never;
      },
      RUNNER_SELECTOR,
    );
    this.informer.on('add', (obj) => onEvent(obj, false));
    this.informer.on('update', (obj) => onEvent(obj, false));
    this.informer.on('delete', (obj) => onEvent(obj, true));
    this.informer.on('error', (err) => this.restartLater(err));
  }

  start(): void {
    this.stopped = false;
    this.informer.start().catch((err) => this.restartLater(err));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.informer.stop();
  }

  private restartLater(err: unknown): void {
    if (this.stopped) return;
    const now = Date.now();
    // A watch that ran a while before failing starts its backoff over.
    if (now - this.lastFailure > 5 * this.backoff.maxMs) this.failures = 0;
    this.lastFailure = now;
    this.failures++;
    const delay = Math.min(this.backoff.maxMs, this.backoff.baseMs * 2 ** (this.failures - 1)) * (0.5 + Math.random() / 2);
    this.logger.warn({ what: this.what, failures: this.failures, retryInMs: Math.round(delay), error: describeError(err) }, 'watch failed; restarting it');
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.stopped) this.informer.start().catch((e) => this.restartLater(e));
    }, delay);
    this.timer.unref();
  }
}

/**
 * The platform's Jobs and Pods (label selector `app.kubernetes.io/managed-by=fanout,
 * app.kubernetes.io/component=runner`), one pair of watches per org namespace in
 * use: per namespace, so a scheduler granted only its tenants' namespaces
 * (a Role in each) needs no cluster-wide list or watch.
 */
export class RunnerInformers {
  private readonly namespaces = new Map<string, { jobs: SupervisedInformer<V1Job>; pods: SupervisedInformer<V1Pod> }>();
  private stopped = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly batch: BatchV1Api,
    private readonly core: CoreV1Api,
    private readonly bucket: TokenBucket,
    private readonly backoff: BackoffOptions,
    private readonly logger: Logger,
    private readonly onChange: JobChange,
  ) {}

  /** Starts watching a namespace (once); resolves when both first lists are in. */
  watch(namespace: string): Promise<void> {
    let pair = this.namespaces.get(namespace);
    if (!pair) {
      const jobs = new SupervisedInformer<V1Job>(
        this.kc,
        `/apis/batch/v1/namespaces/${namespace}/jobs`,
        async () => (await this.bucket.take(), this.batch.listNamespacedJob({ namespace, labelSelector: RUNNER_SELECTOR })),
        `jobs in ${namespace}`,
        this.backoff,
        this.logger,
        (job, deleted) => this.onChange(namespace, job.metadata!.name!, { deleted, last: job }),
      );
      const pods = new SupervisedInformer<V1Pod>(
        this.kc,
        `/api/v1/namespaces/${namespace}/pods`,
        async () => (await this.bucket.take(), this.core.listNamespacedPod({ namespace, labelSelector: RUNNER_SELECTOR })),
        `pods in ${namespace}`,
        this.backoff,
        this.logger,
        (pod) => {
          const owner = pod.metadata?.ownerReferences?.find((o) => o.kind === 'Job');
          if (owner) this.onChange(namespace, owner.name, { deleted: false });
        },
      );
      pair = { jobs, pods };
      this.namespaces.set(namespace, pair);
      if (!this.stopped) {
        jobs.start();
        pods.start();
      }
    }
    return Promise.all([pair.jobs.listed, pair.pods.listed]).then(() => undefined);
  }

  watched(): string[] {
    return [...this.namespaces.keys()];
  }

  job(namespace: string, name: string): V1Job | undefined {
    return this.namespaces.get(namespace)?.jobs.informer.get(name, namespace);
  }

  jobs(namespace?: string): readonly V1Job[] {
    if (namespace) return this.namespaces.get(namespace)?.jobs.informer.list(namespace) ?? [];
    return [...this.namespaces.entries()].flatMap(([ns, p]) => p.jobs.informer.list(ns));
  }

  pods(namespace: string): readonly V1Pod[] {
    return this.namespaces.get(namespace)?.pods.informer.list(namespace) ?? [];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.namespaces.values()].flatMap((p) => [p.jobs.stop(), p.pods.stop()]));
  }
}
