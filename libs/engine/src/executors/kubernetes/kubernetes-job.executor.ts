import { BatchV1Api, CoordinationV1Api, CoreV1Api, NetworkingV1Api, PatchStrategy, setHeaderOptions, type KubeConfig, type V1Job } from '@kubernetes/client-node';
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import { Executor, type StartRequest } from '../executor.js';
import { classify, podsOf, type Verdict } from './attempt-classifier.js';
import type { AttemptSource } from './attempt-source.js';
import { LABEL, RUNNER_SELECTOR, buildJob, buildTokenSecret, jobName, ownerReference } from './job-manifests.js';
import { describeError, statusOf } from './kube-errors.js';
import { LeaseLeaderElector } from './lease-leader-election.js';
import { NamespaceProvisioner } from './namespace-provisioner.js';
import { RunnerInformers } from './runner-informers.js';
import { TokenBucket, rateLimited } from './token-bucket.js';

export interface KubernetesExecutorOptions {
  kubeConfig: KubeConfig;
  source: AttemptSource;
  image: string;
  /** FANOUT_API for runners: the API as pods reach it. */
  apiUrl: string;
  namespacePrefix: string;
  /** Where the platform runs: the Lease, and the API pods runners may reach. */
  systemNamespace: string;
  /** Jobs at once (the scheduler never dispatches more). */
  maxJobs: number;
  /** API calls per second; bursts of twice that. */
  qps: number;
  ttlSecondsAfterFinished: number;
  unschedulableSeconds: number;
  imagePullSeconds?: number;
  /** Kueue: Jobs are created suspended for this LocalQueue, at most `maxPending` of them not yet admitted. */
  kueue: { queue: string; maxPending: number } | null;
  /** false: this process always reconciles (one scheduler, or tests). */
  leaderElection?: false | { leaseName?: string; identity?: string; leaseDurationSeconds?: number; retryMs?: number };
  /** Full resync of every cached Job, and the sweep of unowned token Secrets. */
  resyncMs?: number;
  /** A token Secret without an owner this old is adopted by its Job, or deleted. */
  orphanGraceMs?: number;
  watchBackoff?: { baseMs: number; maxMs: number };
  /** Override of the Job deadline (tests). Default: budget + grading + 5 min (job-manifests). */
  deadlineSeconds?: (timeBudgetSeconds: number) => number;
  logger: Logger;
}

const TERMINAL = (job: V1Job) => job.status?.conditions?.some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True') ?? false;
const MERGE_PATCH = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * Runs each attempt as a `batch/v1` Job in its org's namespace (see
 * docs/engine.md, "Kubernetes executor").
 *
 * Start: the token Secret, then the Job, then the Secret is adopted by the
 * Job (ownerReference) so the garbage collector deletes it with the Job. A
 * crash between those steps leaves a Secret without owner: the leader's
 * resync adopts it when its Job exists, else deletes it, once it is older
 * than `orphanGraceMs`; its token is dead anyway (a retried attempt gets a
 * new one, and the old hash is cleared).
 *
 * Ends: informers on the Jobs and Pods feed a queue that the leader drains:
 * each Job that ended (or vanished) is classified and reported once per
 * process through `onExit`. The scheduler's handling is conditional on the
 * attempt still being live, so a report after a restart, a second leader or
 * a late event changes nothing that was already decided.
 */
export class KubernetesJobExecutor extends Executor {
  private readonly batch: BatchV1Api;
  private readonly core: CoreV1Api;
  private readonly bucket: TokenBucket;
  private readonly namespaces: NamespaceProvisioner;
  readonly informers: RunnerInformers;
  private readonly elector: LeaseLeaderElector | null;
  private readonly queue = new Set<string>();
  private readonly tombstones = new Map<string, V1Job>();
  /** Job uids already reported (or deliberately stopped): reported once per process. */
  private readonly settled = new Set<string>();
  private readonly stopping = new Set<string>();
  /** execution id → namespace, for the calls that carry only ids. */
  private readonly placements = new Map<string, string>();
  private draining: Promise<void> | null = null;
  private resyncTimer: NodeJS.Timeout | null = null;
  private running = false;

  constructor(private readonly options: KubernetesExecutorOptions) {
    super();
    const kc = options.kubeConfig;
    this.bucket = new TokenBucket(options.qps, Math.max(1, options.qps * 2));
    this.batch = rateLimited(kc.makeApiClient(BatchV1Api), this.bucket);
    this.core = rateLimited(kc.makeApiClient(CoreV1Api), this.bucket);
    const logger = options.logger;
    this.namespaces = new NamespaceProvisioner(
      this.core,
      rateLimited(kc.makeApiClient(NetworkingV1Api), this.bucket),
      { prefix: options.namespacePrefix, maxJobs: options.maxJobs, systemNamespace: options.systemNamespace, apiUrl: options.apiUrl },
      logger,
    );
    // The informers' own list calls take tokens from the bucket; the raw clients here avoid taking two.
    this.informers = new RunnerInformers(
      kc,
      kc.makeApiClient(BatchV1Api),
      kc.makeApiClient(CoreV1Api),
      this.bucket,
      options.watchBackoff ?? { baseMs: 500, maxMs: 30_000 },
      logger,
      (ns, name, change) => this.changed(ns, name, change),
    );
    const election = options.leaderElection;
    this.elector =
      election === false
        ? null
        : new LeaseLeaderElector(
            rateLimited(kc.makeApiClient(CoordinationV1Api), this.bucket),
            {
              namespace: options.systemNamespace,
              name: election?.leaseName ?? 'fanout-scheduler',
              identity: election?.identity ?? `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
              leaseDurationSeconds: election?.leaseDurationSeconds ?? 15,
              retryMs: election?.retryMs ?? 4_000,
              logger,
            },
            (leader) => {
              if (leader) this.resync();
              else this.queue.clear();
            },
          );
  }

  /**
   * Jobs at once. With Kueue: the admitted ones plus at most `maxPending`
   * waiting for admission (the scheduler dispatches capacity minus what the
   * database counts in flight, which includes both).
   */
  get capacity(): number {
    const kueue = this.options.kueue;
    if (!kueue) return this.options.maxJobs;
    const admitted = this.informers.jobs().filter((j) => !TERMINAL(j) && !j.spec?.suspend).length;
    return Math.min(this.options.maxJobs, admitted + kueue.maxPending);
  }

  get isLeader(): boolean {
    return this.elector ? this.elector.isLeader : this.running;
  }

  /** Starts leader election, the watches of the namespaces with attempts in flight, and the periodic resync. */
  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    for (const orgId of await this.options.source.activeOrgs()) void this.informers.watch(this.namespaces.nameFor(orgId));
    this.elector?.start();
    this.resyncTimer = setInterval(() => this.resync(), this.options.resyncMs ?? 30_000);
    this.resyncTimer.unref();
    if (!this.elector) this.resync();
  }

  async close(): Promise<void> {
    this.running = false;
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    await this.elector?.stop();
    await this.informers.stop();
    await this.draining;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.close();
  }

  async start(request: StartRequest): Promise<void> {
    try {
      await this.startJob(request);
    } catch (err) {
      // The scheduler records the message as last_error: the API's own words, not the client's dump of headers.
      const status = statusOf(err);
      throw Object.assign(new Error(describeError(err)), status ? { code: status } : {});
    }
  }

  private async startJob(request: StartRequest): Promise<void> {
    const details = await this.options.source.details(request.executionId, request.attempt);
    let namespace = await this.namespaces.ensure(details.orgId, details.orgSlug);
    this.placements.set(request.executionId, namespace);
    void this.informers.watch(namespace);
    const build = (ns: string) => {
      const job = buildJob(ns, details, { image: this.options.image, apiUrl: this.options.apiUrl, ttlSecondsAfterFinished: this.options.ttlSecondsAfterFinished, kueueQueue: this.options.kueue?.queue ?? null });
      if (this.options.deadlineSeconds) job.spec!.activeDeadlineSeconds = this.options.deadlineSeconds(details.timeBudgetSeconds);
      return { job, secret: buildTokenSecret(ns, details, request.token) };
    };
    let { job, secret } = build(namespace);
    try {
      await this.createSecret(namespace, secret);
    } catch (err) {
      // The namespace was deleted since it was made ready: make it again, once.
      if (statusOf(err) !== 404) throw err;
      this.namespaces.forget(namespace);
      namespace = await this.namespaces.ensure(details.orgId, details.orgSlug);
      ({ job, secret } = build(namespace));
      await this.createSecret(namespace, secret);
    }
    let created: V1Job;
    try {
      created = await this.batch.createNamespacedJob({ namespace, body: job });
    } catch (err) {
      if (statusOf(err) !== 409) throw err;
      // Idempotent start: the Job of this very attempt is already there.
      const existing = await this.batch.readNamespacedJob({ name: job.metadata!.name!, namespace });
      const labels = existing.metadata?.labels ?? {};
      if (labels[LABEL.execution] !== job.metadata!.labels![LABEL.execution] || labels[LABEL.attempt] !== String(request.attempt)) {
        throw new Error(`Job ${namespace}/${job.metadata!.name} exists for another execution`);
      }
      created = existing;
    }
    try {
      await this.adopt(namespace, secret.metadata!.name!, created);
    } catch (err) {
      this.options.logger.warn({ executionId: request.executionId, error: describeError(err) }, 'could not hand the token Secret to its Job; the resync will');
    }
  }

  async isRunning(executionId: string, attempt: number): Promise<boolean> {
    const namespace = await this.namespaceOf(executionId);
    if (!namespace) return false;
    try {
      const job = await this.batch.readNamespacedJob({ name: jobName(executionId, attempt), namespace });
      return !TERMINAL(job);
    } catch (err) {
      if (statusOf(err) === 404) return false;
      // Cannot tell (the API server is away): alive, so nothing is retried on a guess.
      this.options.logger.warn({ executionId, error: describeError(err) }, 'could not read a Job; presuming it runs');
      return true;
    }
  }

  async stop(executionId: string, attempt: number): Promise<void> {
    const namespace = await this.namespaceOf(executionId);
    if (!namespace) return;
    const name = jobName(executionId, attempt);
    this.stopping.add(`${namespace}/${name}`);
    this.placements.delete(executionId);
    await this.deleteJob(namespace, name);
    // The garbage collector deletes an adopted Secret with its Job; this one may not be adopted yet.
    await this.core.deleteNamespacedSecret({ name, namespace }).catch((err) => {
      if (statusOf(err) !== 404) throw err;
    });
  }

  /** The leader's periodic pass: every cached Job again, and unowned token Secrets. */
  resync(): void {
    if (!this.isLeader) return;
    for (const ns of this.informers.watched()) {
      for (const job of this.informers.jobs(ns)) this.queue.add(`${ns}/${job.metadata!.name}`);
      void this.sweepSecrets(ns).catch((err) => this.options.logger.warn({ namespace: ns, error: describeError(err) }, 'could not sweep token Secrets'));
    }
    this.drain();
  }

  /** Resolves when the reconcile queue is empty (tests). */
  async idle(): Promise<void> {
    while (this.draining) await this.draining;
  }

  private changed(namespace: string, name: string, change: { deleted: boolean; last?: V1Job }): void {
    const key = `${namespace}/${name}`;
    if (change.deleted && change.last) this.tombstones.set(key, change.last);
    if (!this.isLeader) {
      // The leader reconciles; here, only forget what is gone.
      if (change.deleted) this.forgetJob(key, change.last);
      return;
    }
    this.queue.add(key);
    this.drain();
  }

  private drain(): void {
    if (this.draining || !this.running) return;
    this.draining = (async () => {
      while (this.queue.size > 0 && this.isLeader) {
        const key = this.queue.values().next().value as string;
        this.queue.delete(key);
        try {
          await this.reconcile(key);
        } catch (err) {
          this.options.logger.warn({ job: key, error: describeError(err) }, 'could not reconcile a Job; the next resync retries');
        }
      }
    })().finally(() => {
      this.draining = null;
    });
  }

  private async reconcile(key: string): Promise<void> {
    const [namespace, name] = key.split('/') as [string, string];
    const live = this.informers.job(namespace, name);
    const job = live ?? this.tombstones.get(key);
    if (!job) return;
    const uid = job.metadata?.uid ?? key;
    if (this.settled.has(uid) || this.stopping.has(key)) {
      if (!live) this.forgetJob(key, job);
      return;
    }
    const executionId = job.metadata?.labels?.[LABEL.execution];
    const attempt = Number(job.metadata?.labels?.[LABEL.attempt]);
    if (!executionId || !Number.isInteger(attempt)) return;
    const options = { now: Date.now(), unschedulableSeconds: this.options.unschedulableSeconds, imagePullSeconds: this.options.imagePullSeconds ?? 300 };
    let pods = podsOf(job, this.informers.pods(namespace));
    let verdict: Verdict = classify(job, pods, options);
    // The pod watch may lag the Job's: read the pods before judging a failure by them.
    if (verdict.state === 'ended' && job.status?.conditions?.some((c) => c.type === 'Failed') && !pods.some((p) => p.status?.containerStatuses?.some((c) => c.state?.terminated))) {
      const list = await this.core.listNamespacedPod({ namespace, labelSelector: `${RUNNER_SELECTOR},${LABEL.execution}=${executionId},${LABEL.attempt}=${attempt}` });
      pods = podsOf(job, list.items);
      verdict = classify(job, pods, options);
    }
    if (!live && verdict.state === 'waiting') {
      verdict = { state: 'ended', code: null, cause: { kind: 'infrastructure', reason: 'the Job was deleted before it ended (by hand, or with its namespace)' }, deleteJob: false };
    }
    if (verdict.state === 'waiting') return;
    this.settled.add(uid);
    this.placements.delete(executionId);
    if (!live) this.forgetJob(key, job);
    if (verdict.deleteJob) await this.deleteJob(namespace, name);
    this.options.logger.info({ executionId, attempt, job: key, code: verdict.code, cause: verdict.cause }, 'runner Job ended');
    this.onExit(executionId, attempt, verdict.code, verdict.cause);
  }

  private forgetJob(key: string, job?: V1Job): void {
    this.tombstones.delete(key);
    this.stopping.delete(key);
    if (job?.metadata?.uid) this.settled.delete(job.metadata.uid);
  }

  private async namespaceOf(executionId: string): Promise<string | null> {
    const known = this.placements.get(executionId);
    if (known) return known;
    const orgId = await this.options.source.orgOf(executionId);
    return orgId ? this.namespaces.nameFor(orgId) : null;
  }

  private async createSecret(namespace: string, secret: ReturnType<typeof buildTokenSecret>): Promise<void> {
    try {
      await this.core.createNamespacedSecret({ namespace, body: secret });
    } catch (err) {
      if (statusOf(err) !== 409) throw err;
      // Left by an earlier try of this same start: make sure it holds this token.
      await this.core.patchNamespacedSecret({ name: secret.metadata!.name!, namespace, body: { data: secret.data } }, MERGE_PATCH);
    }
  }

  private async adopt(namespace: string, secretName: string, job: V1Job): Promise<void> {
    await this.core.patchNamespacedSecret({ name: secretName, namespace, body: { metadata: { ownerReferences: [ownerReference(job)] } } }, MERGE_PATCH);
  }

  private async deleteJob(namespace: string, name: string): Promise<void> {
    try {
      // Background: the garbage collector removes the pods (and the adopted Secret) after the Job.
      await this.batch.deleteNamespacedJob({ name, namespace, propagationPolicy: 'Background' });
    } catch (err) {
      if (statusOf(err) !== 404) throw err;
    }
  }

  private async sweepSecrets(namespace: string): Promise<void> {
    const grace = this.options.orphanGraceMs ?? 120_000;
    const secrets = await this.core.listNamespacedSecret({ namespace, labelSelector: RUNNER_SELECTOR });
    for (const secret of secrets.items) {
      const name = secret.metadata?.name;
      const created = secret.metadata?.creationTimestamp ? new Date(secret.metadata.creationTimestamp).getTime() : Date.now();
      if (!name || (secret.metadata?.ownerReferences?.length ?? 0) > 0 || Date.now() - created < grace) continue;
      let job: V1Job | null = this.informers.job(namespace, name) ?? null;
      if (!job) job = await this.batch.readNamespacedJob({ name, namespace }).catch((err) => (statusOf(err) === 404 ? null : Promise.reject(err)));
      if (job && job.metadata?.labels?.[LABEL.execution] === secret.metadata?.labels?.[LABEL.execution]) {
        await this.adopt(namespace, name, job);
        this.options.logger.info({ namespace, secret: name }, 'adopted a token Secret left without owner');
      } else {
        await this.core.deleteNamespacedSecret({ name, namespace }).catch((err) => {
          if (statusOf(err) !== 404) throw err;
        });
        this.options.logger.info({ namespace, secret: name }, 'deleted a token Secret whose Job was never created');
      }
    }
  }
}
