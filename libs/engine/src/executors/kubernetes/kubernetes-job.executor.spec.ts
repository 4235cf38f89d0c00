import { KubeConfig, type V1Job } from '@kubernetes/client-node';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { KubernetesJobExecutor, type KubernetesExecutorOptions } from './kubernetes-job.executor.js';

function executor(kueue: KubernetesExecutorOptions['kueue'], jobs: V1Job[]): KubernetesJobExecutor {
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [{ name: 'c', server: 'https://127.0.0.1:1', skipTLSVerify: true }],
    users: [{ name: 'u', token: 't' }],
    contexts: [{ name: 'x', cluster: 'c', user: 'u' }],
    currentContext: 'x',
  });
  const e = new KubernetesJobExecutor({
    kubeConfig: kc,
    source: { details: async () => { throw new Error('unused'); }, orgOf: async () => null, activeOrgs: async () => [] },
    image: 'runner:1',
    apiUrl: 'http://127.0.0.1:3000',
    namespacePrefix: 'fanout-',
    systemNamespace: 'fanout',
    maxJobs: 100,
    qps: 10,
    ttlSecondsAfterFinished: 60,
    unschedulableSeconds: 600,
    kueue,
    leaderElection: false,
    logger: pino({ level: 'silent' }),
  });
  // The cache as the informers would hold it.
  e.informers.jobs = () => jobs;
  return e;
}

const job = (suspend: boolean, done = false): V1Job => ({ spec: { template: {}, suspend }, status: done ? { conditions: [{ type: 'Complete', status: 'True' }] } : {} });

describe('KubernetesJobExecutor capacity', () => {
  it('without Kueue: FANOUT_K8S_MAX_JOBS', () => {
    expect(executor(null, [job(false), job(true)]).capacity).toBe(100);
  });

  it('with Kueue: the admitted Jobs plus at most maxPending waiting for admission, never above the max', () => {
    // 3 admitted and running, 1 finished (not counted): the scheduler may have 3 + 5 in flight, so at most 5 wait for Kueue.
    expect(executor({ queue: 'agents', maxPending: 5 }, [job(false), job(false), job(false), job(false, true), job(true)]).capacity).toBe(8);
    expect(executor({ queue: 'agents', maxPending: 5 }, []).capacity).toBe(5);
    expect(executor({ queue: 'agents', maxPending: 50 }, Array.from({ length: 90 }, () => job(false))).capacity).toBe(100);
  });
});
