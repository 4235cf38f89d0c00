import type { V1Job, V1Pod } from '@kubernetes/client-node';
import { describe, expect, it } from 'vitest';
import { classify, podsOf } from './attempt-classifier.js';

const NOW = Date.parse('2026-11-29T12:00:00Z');
const ago = (s: number) => new Date(NOW - s * 1000);
const options = { now: NOW, unschedulableSeconds: 600, imagePullSeconds: 300 };

function job(conditions: { type: string; reason?: string; message?: string }[] = [], spec: V1Job['spec'] = { template: {} }, created = 10): V1Job {
  return {
    metadata: { name: 'fanout-x-1', uid: 'job-uid', creationTimestamp: ago(created) },
    spec: { activeDeadlineSeconds: 2400, ...spec },
    status: { conditions: conditions.map((c) => ({ status: 'True', ...c })) },
  } as V1Job;
}

function pod(status: V1Pod['status'], created = 10, nodeName?: string): V1Pod {
  return { metadata: { name: 'p', uid: 'pod-uid', creationTimestamp: ago(created), ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'fanout-x-1', uid: 'job-uid' }] }, spec: { containers: [], nodeName }, status } as V1Pod;
}

const terminated = (exitCode: number, reason?: string) => [{ name: 'runner', ready: false, restartCount: 0, image: 'i', imageID: '', state: { terminated: { exitCode, reason } } }];
const waiting = (reason: string, message?: string) => [{ name: 'runner', ready: false, restartCount: 0, image: 'i', imageID: '', state: { waiting: { reason, message } } }];
const infra = (reason: RegExp | string, deleteJob: boolean) => ({ state: 'ended', code: null, cause: { kind: 'infrastructure', reason: typeof reason === 'string' ? reason : expect.stringMatching(reason) }, deleteJob });

describe('classify', () => {
  it.each<[string, V1Job, V1Pod[], unknown]>([
    ['a running pod', job(), [pod({ phase: 'Running' }, 10, 'node-1')], { state: 'waiting' }],
    ['a pod pending a little while', job(), [pod({ phase: 'Pending' }, 60)], { state: 'waiting' }],
    ['Kueue has not admitted it (suspended, no pod), however long', job([], { template: {}, suspend: true }, 86_400), [], { state: 'waiting' }],
    ['the runner graded and exited 0: its own report', job([{ type: 'Complete' }]), [pod({ phase: 'Succeeded', containerStatuses: terminated(0) })], { state: 'ended', code: 0, deleteJob: false }],
    ['the runner exited 1 (its own failure: retried by the scheduler)', job([{ type: 'Failed', reason: 'BackoffLimitExceeded' }]), [pod({ phase: 'Failed', containerStatuses: terminated(1) })], { state: 'ended', code: 1, deleteJob: false }],
    ['the runner exited 2 (bad environment)', job([{ type: 'Failed', reason: 'BackoffLimitExceeded' }]), [pod({ phase: 'Failed', containerStatuses: terminated(2) })], { state: 'ended', code: 2, deleteJob: false }],
    [
      'OOMKilled: an agent failure, not retried',
      job([{ type: 'Failed', reason: 'BackoffLimitExceeded' }]),
      [pod({ phase: 'Failed', containerStatuses: terminated(137, 'OOMKilled') })],
      { state: 'ended', code: 137, cause: { kind: 'agent', agentEnd: 'crashed', agentExitCode: 137, reason: expect.stringMatching(/OOMKilled/) }, deleteJob: false },
    ],
    [
      'the deadline: an agent timeout',
      job([{ type: 'Failed', reason: 'DeadlineExceeded' }]),
      [],
      { state: 'ended', code: null, cause: { kind: 'agent', agentEnd: 'timeout', agentExitCode: null, reason: "the Job's deadline (2400 s) passed before a grade" }, deleteJob: false },
    ],
    ['evicted (the 1.20 Job controller fails the Job)', job([{ type: 'Failed', reason: 'BackoffLimitExceeded' }]), [pod({ phase: 'Failed', reason: 'Evicted', message: 'low on memory' })], infra('evicted: low on memory', false)],
    ['evicted, with podFailurePolicy Ignore (the Job lives on: delete it)', job(), [pod({ phase: 'Failed', reason: 'Evicted' })], infra('evicted', true)],
    [
      'preempted (DisruptionTarget, 1.26+)',
      job(),
      [pod({ phase: 'Failed', conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler', message: 'by a higher priority pod' }] })],
      infra('preempted: by a higher priority pod', true),
    ],
    ['node lost', job([{ type: 'Failed', reason: 'BackoffLimitExceeded' }]), [pod({ phase: 'Failed', reason: 'NodeLost' })], infra('node lost', false)],
    ['node lost (taint manager)', job(), [pod({ phase: 'Running', conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'DeletionByTaintManager' }] })], infra('node lost', true)],
    ['image pull failing a short while: wait', job(), [pod({ phase: 'Pending', containerStatuses: waiting('ImagePullBackOff') }, 60, 'node-1')], { state: 'waiting' }],
    ['image pull failing beyond the timeout', job(), [pod({ phase: 'Pending', containerStatuses: waiting('ImagePullBackOff', 'not found') }, 400, 'node-1')], infra(/^image pull failed for 400 s: ImagePullBackOff: not found$/, true)],
    ['an invalid image name at once', job(), [pod({ phase: 'Pending', containerStatuses: waiting('InvalidImageName') }, 1, 'node-1')], infra(/^image pull failed: InvalidImageName/, true)],
    ['a missing Secret or config beyond the timeout', job(), [pod({ phase: 'Pending', containerStatuses: waiting('CreateContainerConfigError') }, 400, 'node-1')], infra(/could not be created for 400 s/, true)],
    [
      'unschedulable beyond the timeout',
      job(),
      [pod({ phase: 'Pending', conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/3 nodes are available: 3 Insufficient cpu.' }] }, 700)],
      infra('unschedulable for 700 s: 0/3 nodes are available: 3 Insufficient cpu.', true),
    ],
    ['no pod at all beyond the timeout (quota)', job([], { template: {} }, 700), [], infra(/no pod was created within 600 s/, true)],
    ['a Job that failed with no pod left to tell why', job([{ type: 'Failed', reason: 'BackoffLimitExceeded', message: 'Job has reached the specified backoff limit' }]), [], infra(/the runner's pod failed \(BackoffLimitExceeded/, false)],
  ])('%s', (_name, j, pods, verdict) => {
    expect(classify(j, podsOf(j, pods), options)).toEqual(verdict);
  });

  it('a completed Job wins over an old disruption of its pod', () => {
    const p = pod({ phase: 'Succeeded', reason: 'Evicted', containerStatuses: terminated(0) });
    expect(classify(job([{ type: 'Complete' }]), [p], options)).toEqual({ state: 'ended', code: 0, deleteJob: false });
  });

  it('podsOf keeps only the pods of this Job (its uid), the newest first', () => {
    const mine = pod({ phase: 'Running' }, 5);
    const older = pod({ phase: 'Failed' }, 50);
    const stranger = { ...pod({ phase: 'Running' }), metadata: { ...mine.metadata, ownerReferences: [{ apiVersion: 'batch/v1', kind: 'Job', name: 'fanout-x-1', uid: 'a-previous-job' }] } } as V1Pod;
    expect(podsOf(job(), [older, stranger, mine])).toEqual([mine, older]);
  });
});
