import type { V1Job, V1Pod } from '@kubernetes/client-node';
import type { ExitCause } from '../executor.js';
import { RUNNER_CONTAINER } from './job-manifests.js';

/**
 * What a Job and its pods say about an attempt. Pure: the reconciler passes
 * the objects and the time, and acts on the verdict.
 *
 * - `waiting`: queued by Kueue, pulling, scheduling or running: nothing to do.
 * - `ended`: report `code` (and `cause`) to the scheduler; `deleteJob` when
 *   the Job would otherwise stay (a stuck pod, a replacement pod after a
 *   disruption), so nothing of the old attempt keeps running.
 */
export type Verdict = { state: 'waiting' } | { state: 'ended'; code: number | null; cause?: ExitCause; deleteJob: boolean };

export interface ClassifyOptions {
  now: number;
  /** A pod not scheduled (or a Job without its pod) this long is an infrastructure failure. */
  unschedulableSeconds: number;
  /** An image that cannot be pulled this long is one too. */
  imagePullSeconds: number;
}

const WAITING: Verdict = { state: 'waiting' };
const IMAGE_FAILURES = new Set(['ErrImagePull', 'ImagePullBackOff', 'RegistryUnavailable']);
/** Never fixed by waiting. */
const IMAGE_FATAL = new Set(['InvalidImageName', 'ErrImageNeverPull']);
/** The kubelet could not set the container up (a missing Secret or config): an infrastructure problem when it lasts. */
const CONFIG_FAILURES = new Set(['CreateContainerConfigError', 'CreateContainerError']);
/** Pod-level reasons with which a node takes a pod away. */
const NODE_REASONS: Record<string, string> = {
  Evicted: 'evicted',
  Preempting: 'preempted',
  NodeLost: 'node lost',
  NodeShutdown: 'node shut down',
  Shutdown: 'node shut down',
  Terminated: 'node shut down',
  UnexpectedAdmissionError: 'rejected by the node',
  OutOfcpu: 'rejected by the node (out of cpu)',
  OutOfmemory: 'rejected by the node (out of memory)',
  OutOfpods: 'rejected by the node (out of pod slots)',
  NodeAffinity: 'rejected by the node (affinity)',
};
/** DisruptionTarget condition reasons (1.26+). */
const DISRUPTION_REASONS: Record<string, string> = {
  PreemptionByScheduler: 'preempted',
  PreemptionByKubeScheduler: 'preempted',
  DeletionByTaintManager: 'node lost',
  EvictionByEvictionAPI: 'evicted',
  DeletionByPodGC: 'node lost',
  TerminationByKubelet: 'evicted',
};

const infra = (reason: string, deleteJob: boolean): Verdict => ({ state: 'ended', code: null, cause: { kind: 'infrastructure', reason }, deleteJob });
const ms = (t: Date | string | undefined): number | null => (t ? new Date(t).getTime() : null);
const condition = (job: V1Job, type: string) => job.status?.conditions?.find((c) => c.type === type && c.status === 'True');

/** The pods of this Job (its controller uid), the last one created first. */
export function podsOf(job: V1Job, pods: readonly V1Pod[]): V1Pod[] {
  const uid = job.metadata?.uid;
  return pods
    .filter((p) => p.metadata?.ownerReferences?.some((o) => o.uid === uid) ?? false)
    .sort((a, b) => (ms(b.metadata?.creationTimestamp) ?? 0) - (ms(a.metadata?.creationTimestamp) ?? 0));
}

export function classify(job: V1Job, pods: V1Pod[], o: ClassifyOptions): Verdict {
  // Success is the runner's own report: it posted a grade (or was cancelled).
  if (condition(job, 'Complete')) return { state: 'ended', code: runnerExit(pods) ?? 0, deleteJob: false };
  const failed = condition(job, 'Failed');
  // A pod the cluster took away (whatever the Job controller made of it): infrastructure, retried.
  for (const pod of pods) {
    const disruption = disrupted(pod);
    if (disruption) return infra(disruption, !failed);
  }
  if (failed) {
    if (failed.reason === 'DeadlineExceeded') {
      const deadline = job.spec?.activeDeadlineSeconds;
      return { state: 'ended', code: null, cause: { kind: 'agent', agentEnd: 'timeout', agentExitCode: null, reason: `the Job's deadline (${deadline ?? '?'} s) passed before a grade` }, deleteJob: false };
    }
    const terminated = pods.map((p) => runnerState(p)?.terminated).find((t) => t);
    if (terminated?.reason === 'OOMKilled') {
      return { state: 'ended', code: terminated.exitCode ?? 137, cause: { kind: 'agent', agentEnd: 'crashed', agentExitCode: terminated.exitCode ?? 137, reason: 'out of memory: the container was OOMKilled before a grade' }, deleteJob: false };
    }
    // The runner's exit code is its report (runner.md): 1 and 2 are its own failures, retried.
    if (terminated) return { state: 'ended', code: terminated.exitCode, deleteJob: false };
    return infra(`the runner's pod failed (${failed.reason ?? 'no reason'}${failed.message ? `: ${failed.message}` : ''})`, false);
  }
  if (job.spec?.suspend) return WAITING; // Kueue has not admitted it yet: no timeout of ours.
  const pod = pods[0];
  if (!pod) {
    const since = ms(job.status?.startTime) ?? ms(job.metadata?.creationTimestamp);
    if (since !== null && o.now - since > o.unschedulableSeconds * 1000) return infra(`no pod was created within ${o.unschedulableSeconds} s (quota or admission?)`, true);
    return WAITING;
  }
  const stuck = stuckPod(pod, o);
  return stuck ? infra(stuck, true) : WAITING;
}

function runnerState(pod: V1Pod) {
  return pod.status?.containerStatuses?.find((c) => c.name === RUNNER_CONTAINER)?.state;
}

function runnerExit(pods: V1Pod[]): number | null {
  for (const pod of pods) {
    const code = runnerState(pod)?.terminated?.exitCode;
    if (code !== undefined && pod.status?.phase === 'Succeeded') return code;
  }
  return null;
}

/** Why the cluster took the pod away, or null. */
function disrupted(pod: V1Pod): string | null {
  const s = pod.status;
  const detail = (what: string, message?: string) => (message ? `${what}: ${message}` : what);
  if (s?.reason && NODE_REASONS[s.reason] && s.phase !== 'Succeeded') return detail(NODE_REASONS[s.reason]!, s.message);
  const target = s?.conditions?.find((c) => c.type === 'DisruptionTarget' && c.status === 'True');
  if (target && s?.phase !== 'Succeeded') return detail(DISRUPTION_REASONS[target.reason ?? ''] ?? 'disrupted', target.message);
  return null;
}

/** A pod that will not start by itself: never scheduled, image not pullable, container not creatable. */
function stuckPod(pod: V1Pod, o: ClassifyOptions): string | null {
  const created = ms(pod.metadata?.creationTimestamp) ?? o.now;
  const age = (o.now - created) / 1000;
  const waiting = pod.status?.containerStatuses?.find((c) => c.name === RUNNER_CONTAINER)?.state?.waiting;
  if (waiting?.reason && IMAGE_FATAL.has(waiting.reason)) return `image pull failed: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`;
  if (waiting?.reason && IMAGE_FAILURES.has(waiting.reason) && age > o.imagePullSeconds) {
    return `image pull failed for ${Math.round(age)} s: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`;
  }
  if (waiting?.reason && CONFIG_FAILURES.has(waiting.reason) && age > o.imagePullSeconds) {
    return `the container could not be created for ${Math.round(age)} s: ${waiting.reason}${waiting.message ? `: ${waiting.message}` : ''}`;
  }
  if ((pod.status?.phase ?? 'Pending') === 'Pending' && !pod.spec?.nodeName && age > o.unschedulableSeconds) {
    const unschedulable = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
    return `unschedulable for ${Math.round(age)} s${unschedulable?.message ? `: ${unschedulable.message}` : ''}`;
  }
  return null;
}
