import { createHash } from 'node:crypto';
import type { V1Job, V1LimitRange, V1Namespace, V1NetworkPolicy, V1NetworkPolicyEgressRule, V1ResourceQuota, V1Secret } from '@kubernetes/client-node';

/**
 * Pure builders of every object the Kubernetes executor creates: no I/O, so
 * a unit spec validates them against the Kubernetes schemas offline.
 */

export const LABEL = {
  managedBy: 'app.kubernetes.io/managed-by',
  component: 'app.kubernetes.io/component',
  org: 'fanout.dev/org',
  campaign: 'fanout.dev/campaign',
  execution: 'fanout.dev/execution',
  attempt: 'fanout.dev/attempt',
  kueueQueue: 'kueue.x-k8s.io/queue-name',
} as const;

export const ANNOTATION = {
  orgSlug: 'fanout.dev/org-slug',
  task: 'fanout.dev/task',
  agent: 'fanout.dev/agent',
  mode: 'fanout.dev/mode',
  benchmark: 'fanout.dev/benchmark',
} as const;

/** Every runner Job, Pod and Secret carries these: the informers' label selector. */
export const RUNNER_SELECTOR = `${LABEL.managedBy}=fanout,${LABEL.component}=runner`;
export const RUNNER_CONTAINER = 'runner';
export const TOKEN_KEY = 'token';
export const NETWORK_POLICY_NAME = 'fanout-runners';
export const LIMIT_RANGE_NAME = 'fanout-runners';
export const RESOURCE_QUOTA_NAME = 'fanout-runners';
/** The labels the API's pods carry (the Helm chart sets them): runners may reach those, and DNS. */
export const API_POD_LABELS = { 'app.kubernetes.io/name': 'fanout', 'app.kubernetes.io/component': 'api' };

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;
/** Keeps annotation text readable and far below the 256 KB a whole object's annotations may hold. */
const ANNOTATION_MAX = 1024;

export function isDns1123Label(name: string): boolean {
  return name.length <= 63 && DNS1123_LABEL.test(name);
}

export function isLabelValue(value: string): boolean {
  return value.length <= 63 && LABEL_VALUE.test(value);
}

const shortHash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 10);

/**
 * A valid label value for any text: the text itself when it is one, else
 * its safe characters, cut to fit, plus a hash of the original (so two long
 * values never collide). The full text goes in an annotation.
 */
export function labelValue(text: string): string {
  if (isLabelValue(text)) return text;
  const safe = text.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 52).replace(/[^A-Za-z0-9]+$/, '');
  return safe ? `${safe}-${shortHash(text)}` : shortHash(text);
}

/**
 * A DNS-1123 label (≤ 63): the parts joined by `-` when that already is
 * one; otherwise lowercased, cleaned, cut and suffixed with a hash of the
 * original (so `S` and `s` never meet in one name).
 */
export function dns1123Name(...parts: (string | number)[]): string {
  const joined = parts.join('-');
  if (isDns1123Label(joined)) return joined;
  const base = joined.toLowerCase().replace(/[^a-z0-9-]+/g, '-').replace(/-+/g, '-').replace(/^-+/, '').slice(0, 52).replace(/-+$/, '');
  return base ? `${base}-${shortHash(joined)}` : `x${shortHash(joined)}`;
}

/** The Job (and its token Secret) of one attempt: `fanout-<execution uuid>-<attempt>`, 45 or 46 characters for a UUID. */
export function jobName(executionId: string, attempt: number): string {
  return dns1123Name('fanout', executionId, attempt);
}

/** The org's namespace: the prefix, a dash and the org id (a UUID: 36 characters, so a 26-character prefix still fits). */
export function namespaceName(prefix: string, orgId: string): string {
  return dns1123Name(`${prefix.replace(/-+$/, '')}`, orgId);
}

/** What the executor knows about one attempt when it builds its Job. */
export interface AttemptDetails {
  executionId: string;
  attempt: number;
  orgId: string;
  orgSlug: string | null;
  campaignId: string;
  benchmark: string | null;
  task: string | null;
  agent: string | null;
  mode: string | null;
  /** The agent's time budget; the Job's deadline adds the grading and upload time after it. */
  timeBudgetSeconds: number;
  resources: { cpu?: string; memory?: string } | null;
}

export interface JobSettings {
  image: string;
  /** FANOUT_API for the runner. */
  apiUrl: string;
  ttlSecondsAfterFinished: number;
  /** Kueue LocalQueue: the Job is created suspended and labelled for it. */
  kueueQueue: string | null;
}

export const DEFAULT_RESOURCES = { cpu: '1', memory: '2Gi' };
const RUNNER_UID = 10001;

/**
 * The Job's deadline: the agent's budget, then the runner's grading (twice
 * the budget, 30 s to 5 min: runner.md), plus 5 minutes for the image pull,
 * the workspace copy and the uploads. The runner meets its own deadline
 * first; this one catches a runner that hangs.
 */
export function activeDeadlineSeconds(timeBudgetSeconds: number): number {
  const grading = Math.min(300, Math.max(30, 2 * timeBudgetSeconds));
  return Math.ceil(timeBudgetSeconds + grading + 300);
}

function runnerLabels(d: AttemptDetails): Record<string, string> {
  return {
    [LABEL.managedBy]: 'fanout',
    [LABEL.component]: 'runner',
    [LABEL.org]: labelValue(d.orgId),
    [LABEL.campaign]: labelValue(d.campaignId),
    [LABEL.execution]: labelValue(d.executionId),
    [LABEL.attempt]: String(d.attempt),
  };
}

function runnerAnnotations(d: AttemptDetails): Record<string, string> {
  const entries: [string, string | null][] = [
    [ANNOTATION.orgSlug, d.orgSlug],
    [ANNOTATION.benchmark, d.benchmark],
    [ANNOTATION.task, d.task],
    [ANNOTATION.agent, d.agent],
    [ANNOTATION.mode, d.mode],
  ];
  return Object.fromEntries(entries.filter((e): e is [string, string] => !!e[1]).map(([k, v]) => [k, v.slice(0, ANNOTATION_MAX)]));
}

/**
 * One attempt's Job: one pod, never restarted (retries are the scheduler's,
 * as new attempts with new tokens), locked down, with the token from the
 * attempt's Secret.
 */
export function buildJob(namespace: string, d: AttemptDetails, s: JobSettings): V1Job {
  const name = jobName(d.executionId, d.attempt);
  const labels = { ...runnerLabels(d), ...(s.kueueQueue ? { [LABEL.kueueQueue]: s.kueueQueue } : {}) };
  const resources = { ...DEFAULT_RESOURCES, ...(d.resources ?? {}) };
  return {
    apiVersion: 'batch/v1',
    kind: 'Job',
    metadata: { name, namespace, labels, annotations: runnerAnnotations(d) },
    spec: {
      backoffLimit: 0,
      activeDeadlineSeconds: activeDeadlineSeconds(d.timeBudgetSeconds),
      ttlSecondsAfterFinished: s.ttlSecondsAfterFinished,
      ...(s.kueueQueue ? { suspend: true } : {}),
      // Servers from 1.26 on: a disrupted pod (eviction, preemption, node
      // loss) does not fail the Job by itself. The executor still reads the
      // pod and retries the attempt under a new token, so a replacement pod
      // of the old attempt is refused by the API and stopped.
      podFailurePolicy: { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }] },
      template: {
        metadata: { labels: runnerLabels(d), annotations: runnerAnnotations(d) },
        spec: {
          restartPolicy: 'Never',
          automountServiceAccountToken: false,
          enableServiceLinks: false,
          // The runner stops the agent's group with SIGTERM, then SIGKILL after its own grace.
          terminationGracePeriodSeconds: 30,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: RUNNER_UID,
            runAsGroup: RUNNER_UID,
            fsGroup: RUNNER_UID,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          containers: [
            {
              name: RUNNER_CONTAINER,
              image: s.image,
              imagePullPolicy: 'IfNotPresent',
              env: [
                { name: 'FANOUT_API', value: s.apiUrl },
                { name: 'FANOUT_EXECUTION_ID', value: d.executionId },
                { name: 'FANOUT_WORK_DIR', value: '/work/run' },
                { name: 'HOME', value: '/work/home' },
                { name: 'FANOUT_RUNNER_TOKEN', valueFrom: { secretKeyRef: { name, key: TOKEN_KEY } } },
              ],
              resources: { requests: { cpu: resources.cpu, memory: resources.memory }, limits: { memory: resources.memory } },
              securityContext: {
                allowPrivilegeEscalation: false,
                privileged: false,
                runAsNonRoot: true,
                capabilities: { drop: ['ALL'] },
                seccompProfile: { type: 'RuntimeDefault' },
              },
              volumeMounts: [
                { name: 'work', mountPath: '/work' },
                { name: 'tmp', mountPath: '/tmp' },
              ],
            },
          ],
          volumes: [
            { name: 'work', emptyDir: {} },
            { name: 'tmp', emptyDir: {} },
          ],
        },
      },
    },
  };
}

/** The attempt's runner token, in a Secret of the Job's name (the Job becomes its owner once it exists). */
export function buildTokenSecret(namespace: string, d: AttemptDetails, token: string): V1Secret {
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: jobName(d.executionId, d.attempt), namespace, labels: runnerLabels(d) },
    type: 'Opaque',
    data: { [TOKEN_KEY]: Buffer.from(token, 'utf8').toString('base64') },
  };
}

export function ownerReference(job: V1Job): { apiVersion: string; kind: string; name: string; uid: string } {
  return { apiVersion: 'batch/v1', kind: 'Job', name: job.metadata!.name!, uid: job.metadata!.uid! };
}

export function buildNamespace(name: string, orgId: string, orgSlug: string | null): V1Namespace {
  return {
    apiVersion: 'v1',
    kind: 'Namespace',
    metadata: {
      name,
      labels: {
        [LABEL.managedBy]: 'fanout',
        [LABEL.org]: labelValue(orgId),
        // Runner pods meet the restricted Pod Security Standard: enforce it where the server knows it (1.25+).
        'pod-security.kubernetes.io/enforce': 'restricted',
      },
      annotations: orgSlug ? { [ANNOTATION.orgSlug]: orgSlug } : {},
    },
  };
}

export interface NetworkSettings {
  /** Where the API's pods run. */
  systemNamespace: string;
  /** The API URL runners use: a literal IP address also gets an ipBlock rule. */
  apiUrl: string;
}

/**
 * Default deny for every pod of the namespace, in and out, except DNS and
 * the Fanout API. Policies add up: an org whose agents call a model
 * provider directly gets its own egress policy beside this one.
 */
export function buildNetworkPolicy(namespace: string, s: NetworkSettings): V1NetworkPolicy {
  const url = new URL(s.apiUrl);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const cidr = /^\d{1,3}(\.\d{1,3}){3}$/.test(host) ? `${host}/32` : host.includes(':') ? `${host}/128` : null;
  const egress: V1NetworkPolicyEgressRule[] = [
    { ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] },
    // Behind a Service the port the policy sees is the pod's own, which this side does not know: any port of the API pods.
    { to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': s.systemNamespace } }, podSelector: { matchLabels: API_POD_LABELS } }] },
  ];
  // An API reached at a literal address (outside the cluster, or a test): that address and port only.
  if (cidr) egress.push({ to: [{ ipBlock: { cidr } }], ports: [{ protocol: 'TCP', port }] });
  return {
    apiVersion: 'networking.k8s.io/v1',
    kind: 'NetworkPolicy',
    metadata: { name: NETWORK_POLICY_NAME, namespace, labels: { [LABEL.managedBy]: 'fanout' } },
    spec: { podSelector: {}, policyTypes: ['Ingress', 'Egress'], ingress: [], egress },
  };
}

/** Defaults for containers that set no resources, and a per-container ceiling. */
export function buildLimitRange(namespace: string): V1LimitRange {
  return {
    apiVersion: 'v1',
    kind: 'LimitRange',
    metadata: { name: LIMIT_RANGE_NAME, namespace, labels: { [LABEL.managedBy]: 'fanout' } },
    spec: {
      limits: [
        {
          type: 'Container',
          defaultRequest: { cpu: DEFAULT_RESOURCES.cpu, memory: DEFAULT_RESOURCES.memory },
          // `default` on the wire: the client's model names it `_default`.
          _default: { memory: DEFAULT_RESOURCES.memory },
          max: { cpu: '16', memory: '64Gi' },
        },
      ],
    },
  };
}

/**
 * A backstop, not the cap: Fanout's own caps (the executor's capacity, org
 * and campaign concurrency) stop dispatch long before; this stops a runaway
 * (a bug, or someone else creating pods in the namespace). Only what runs
 * counts: finished Jobs and their Secrets stay until their TTL, so a count
 * of those would stop a long campaign halfway.
 */
export function buildResourceQuota(namespace: string, maxJobs: number): V1ResourceQuota {
  return {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: RESOURCE_QUOTA_NAME, namespace, labels: { [LABEL.managedBy]: 'fanout' } },
    spec: {
      hard: {
        pods: String(maxJobs),
        'requests.cpu': String(maxJobs * 16),
        'requests.memory': `${maxJobs * 64}Gi`,
      },
    },
  };
}
