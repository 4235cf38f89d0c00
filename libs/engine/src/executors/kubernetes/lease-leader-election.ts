import { V1MicroTime, type CoordinationV1Api, type V1Lease } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { statusOf } from './kube-errors.js';

export interface LeaderElectionOptions {
  namespace: string;
  name: string;
  /** This process, unique among the schedulers (host name + pid + random). */
  identity: string;
  leaseDurationSeconds: number;
  /** How often the holder renews, and a candidate tries. */
  retryMs: number;
  logger: Logger;
}

/**
 * One scheduler at a time reconciles (reads the Jobs, reports their ends,
 * sweeps leftovers), through a coordination.k8s.io Lease, as client-go's
 * leader election does: a candidate takes the Lease once it has seen the
 * same record unchanged for a whole lease duration, judged on its own clock
 * (no comparison of clocks across machines); writes carry the
 * resourceVersion, so two candidates never both win. A holder that cannot
 * renew steps down before the lease could expire for others.
 *
 * Correctness never depends on it: every consequence is a conditional
 * update on the execution row, so two leaders at once only do work twice.
 */
export class LeaseLeaderElector {
  private leader = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private observed: { key: string; at: number } | null = null;
  private lastRenew = 0;
  private ticking: Promise<void> = Promise.resolve();

  constructor(
    private readonly api: CoordinationV1Api,
    private readonly options: LeaderElectionOptions,
    private readonly onChange: (leader: boolean) => void,
  ) {}

  get isLeader(): boolean {
    return this.leader;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const loop = () => {
      this.ticking = this.tick().finally(() => {
        if (!this.stopped) this.timer = setTimeout(loop, this.options.retryMs);
      });
    };
    loop();
  }

  /** Stops, and hands the Lease over at once when this process holds it. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    if (!this.leader) return;
    this.setLeader(false);
    try {
      const lease = await this.api.readNamespacedLease({ name: this.options.name, namespace: this.options.namespace });
      if (lease.spec?.holderIdentity !== this.options.identity) return;
      lease.spec = { ...lease.spec, holderIdentity: undefined, leaseDurationSeconds: 1, renewTime: new V1MicroTime() };
      await this.api.replaceNamespacedLease({ name: this.options.name, namespace: this.options.namespace, body: lease });
    } catch {
      // It expires by itself.
    }
  }

  /** One round: take, renew or watch the Lease. Exposed for tests. */
  async tick(): Promise<void> {
    const { name, namespace, identity, leaseDurationSeconds } = this.options;
    const now = Date.now();
    try {
      let lease: V1Lease | null = null;
      try {
        lease = await this.api.readNamespacedLease({ name, namespace });
      } catch (err) {
        if (statusOf(err) !== 404) throw err;
      }
      if (!lease) {
        await this.api.createNamespacedLease({
          namespace,
          body: {
            apiVersion: 'coordination.k8s.io/v1',
            kind: 'Lease',
            metadata: { name, namespace, labels: { 'app.kubernetes.io/managed-by': 'fanout' } },
            spec: { holderIdentity: identity, leaseDurationSeconds, acquireTime: new V1MicroTime(), renewTime: new V1MicroTime(), leaseTransitions: 0 },
          },
        });
        return this.won(now);
      }
      const spec = lease.spec ?? {};
      const holder = spec.holderIdentity ?? '';
      if (holder !== identity) {
        const key = `${holder}|${spec.renewTime ? new Date(spec.renewTime).getTime() : ''}|${lease.metadata?.resourceVersion ?? ''}`;
        if (this.observed?.key !== key) this.observed = { key, at: now };
        const duration = (spec.leaseDurationSeconds ?? leaseDurationSeconds) * 1000;
        if (holder && now - this.observed.at < duration) return this.setLeader(false);
      }
      lease.spec = {
        ...spec,
        holderIdentity: identity,
        leaseDurationSeconds,
        renewTime: new V1MicroTime(),
        acquireTime: holder === identity && spec.acquireTime ? new V1MicroTime(new Date(spec.acquireTime).getTime()) : new V1MicroTime(),
        leaseTransitions: (spec.leaseTransitions ?? 0) + (holder === identity ? 0 : 1),
      };
      // The resourceVersion read above makes this a compare-and-swap: a 409 means another candidate won.
      await this.api.replaceNamespacedLease({ name, namespace, body: lease });
      this.won(now);
    } catch (err) {
      const status = statusOf(err);
      if (status !== 409) this.options.logger.warn({ status, err: status ? undefined : err }, 'leader election: could not read or write the Lease');
      // Step down before the Lease can expire for the others (two thirds of its duration without a renewal).
      if (this.leader && (status === 409 || now - this.lastRenew > (leaseDurationSeconds * 1000 * 2) / 3)) this.setLeader(false);
    }
  }

  private won(now: number): void {
    this.lastRenew = now;
    this.observed = null;
    this.setLeader(true);
  }

  private setLeader(leader: boolean): void {
    if (leader === this.leader) return;
    this.leader = leader;
    this.options.logger.info({ identity: this.options.identity, leader }, leader ? 'leader election: this scheduler reconciles' : 'leader election: another scheduler reconciles');
    this.onChange(leader);
  }
}
