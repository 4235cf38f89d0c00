import { ObjectSerializer } from '@kubernetes/client-node/dist/serializer.js';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { LimitRange } from 'kubernetes-models/v1/LimitRange';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { ResourceQuota } from 'kubernetes-models/v1/ResourceQuota';
import { Secret } from 'kubernetes-models/v1/Secret';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LABEL,
  activeDeadlineSeconds,
  buildJob,
  buildLimitRange,
  buildNamespace,
  buildNetworkPolicy,
  buildResourceQuota,
  buildTokenSecret,
  dns1123Name,
  isDns1123Label,
  isLabelValue,
  jobName,
  labelValue,
  namespaceName,
  type AttemptDetails,
} from './job-manifests.js';

const details: AttemptDetails = {
  executionId: '6f1c2a4e-8b7d-4c1e-9f3a-2b5d7e9c1a3f',
  attempt: 3,
  orgId: '9b80fe84-8bbb-4026-b081-5cd6713f2480',
  orgSlug: 'agent-lab',
  campaignId: '5437b817-1a6a-49e4-baf7-04594da6d2a9',
  benchmark: 'repo-rebuild',
  task: 'python/click-core',
  agent: 'codex-gpt5 with a rather long name that no label value could ever hold, '.repeat(3),
  mode: 'concurrent',
  timeBudgetSeconds: 45 * 60,
  resources: { cpu: '500m', memory: '2Gi' },
};
const settings = { image: 'ghcr.io/acme/fanout-runner:0.1.0', apiUrl: 'http://fanout-api.fanout.svc:3000', ttlSecondsAfterFinished: 3600, kueueQueue: null };
const ns = namespaceName('fanout-', details.orgId);

/** The object as it goes on the wire (the client's models rename a few fields, e.g. `_default`). */
const wire = (obj: object, type: string) => JSON.parse(JSON.stringify(ObjectSerializer.serialize(obj, type)));

/** Every name must be a DNS-1123 label and every label value valid, at any depth of metadata. */
function checkMetadata(obj: { metadata?: { name?: string; namespace?: string; labels?: Record<string, string> } }): void {
  const metas = [obj.metadata, (obj as { spec?: { template?: { metadata?: typeof obj.metadata } } }).spec?.template?.metadata];
  for (const m of metas) {
    if (!m) continue;
    if (m.name) expect(isDns1123Label(m.name), m.name).toBe(true);
    if (m.namespace) expect(isDns1123Label(m.namespace), m.namespace).toBe(true);
    for (const [k, v] of Object.entries(m.labels ?? {})) {
      expect(isLabelValue(v), `${k}=${v}`).toBe(true);
      expect(k.split('/').pop()!.length, k).toBeLessThanOrEqual(63);
    }
  }
}

describe('job manifests', () => {
  it('every object validates against the Kubernetes schemas, names and label values included', () => {
    const objects = [
      new Job(wire(buildJob(ns, details, settings), 'V1Job')),
      new Job(wire(buildJob(ns, details, { ...settings, kueueQueue: 'agents' }), 'V1Job')),
      new Secret(wire(buildTokenSecret(ns, details, 'fr_secret'), 'V1Secret')),
      new Namespace(wire(buildNamespace(ns, details.orgId, details.orgSlug), 'V1Namespace')),
      new NetworkPolicy(wire(buildNetworkPolicy(ns, { systemNamespace: 'fanout', apiUrl: settings.apiUrl }), 'V1NetworkPolicy')),
      new NetworkPolicy(wire(buildNetworkPolicy(ns, { systemNamespace: 'fanout', apiUrl: 'http://10.0.0.7:3000' }), 'V1NetworkPolicy')),
      new LimitRange(wire(buildLimitRange(ns), 'V1LimitRange')),
      new ResourceQuota(wire(buildResourceQuota(ns, 100), 'V1ResourceQuota')),
    ];
    for (const o of objects) {
      expect(() => o.validate(), o.kind).not.toThrow();
      checkMetadata(o as never);
    }
  });

  it('the validation can fail: a bad object is refused', () => {
    const job = wire(buildJob(ns, details, settings), 'V1Job');
    job.spec.backoffLimit = 'none';
    expect(() => new Job(job).validate()).toThrow(/backoffLimit/);
    expect(isLabelValue('x'.repeat(64))).toBe(false);
    expect(isDns1123Label('Fanout_1')).toBe(false);
  });

  it('the Job: one attempt, one pod, never restarted, locked down, the token from its Secret', () => {
    const job = wire(buildJob(ns, details, settings), 'V1Job');
    expect(job.metadata.name).toBe('fanout-6f1c2a4e-8b7d-4c1e-9f3a-2b5d7e9c1a3f-3');
    expect(job.metadata.labels).toMatchObject({ [LABEL.org]: details.orgId, [LABEL.campaign]: details.campaignId, [LABEL.execution]: details.executionId, [LABEL.attempt]: '3' });
    // Long text lives in annotations, never in labels.
    expect(job.metadata.annotations['fanout.dev/agent']).toBe(details.agent!.slice(0, 1024));
    expect(job.spec).toMatchObject({ backoffLimit: 0, ttlSecondsAfterFinished: 3600, activeDeadlineSeconds: 45 * 60 + 300 + 300 });
    expect(job.spec.suspend).toBeUndefined();
    expect(job.spec.podFailurePolicy.rules).toEqual([{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget', status: 'True' }] }]);
    const pod = job.spec.template.spec;
    expect(pod).toMatchObject({ restartPolicy: 'Never', automountServiceAccountToken: false, securityContext: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } } });
    const [c] = pod.containers;
    expect(c.securityContext).toMatchObject({ allowPrivilegeEscalation: false, privileged: false, capabilities: { drop: ['ALL'] } });
    expect(c.resources).toEqual({ requests: { cpu: '500m', memory: '2Gi' }, limits: { memory: '2Gi' } });
    expect(c.env).toContainEqual({ name: 'FANOUT_RUNNER_TOKEN', valueFrom: { secretKeyRef: { name: job.metadata.name, key: 'token' } } });
    expect(JSON.stringify(job)).not.toContain('fr_');
  });

  it('Kueue mode: the queue label and suspend', () => {
    const job = wire(buildJob(ns, details, { ...settings, kueueQueue: 'agents' }), 'V1Job');
    expect(job.metadata.labels['kueue.x-k8s.io/queue-name']).toBe('agents');
    expect(job.spec.suspend).toBe(true);
  });

  it('the deadline: the budget, then grading (2x budget, 30 s to 5 min), then 5 min of setup and uploads', () => {
    expect(activeDeadlineSeconds(10)).toBe(10 + 30 + 300);
    expect(activeDeadlineSeconds(60)).toBe(60 + 120 + 300);
    expect(activeDeadlineSeconds(3600)).toBe(3600 + 300 + 300);
  });

  it('the LimitRange sends `default` on the wire', () => {
    expect(wire(buildLimitRange(ns), 'V1LimitRange').spec.limits[0].default).toEqual({ memory: '2Gi' });
  });

  it('the NetworkPolicy: deny all in and out but DNS and the API pods (plus the API address when it is a literal IP)', () => {
    const policy = wire(buildNetworkPolicy(ns, { systemNamespace: 'fanout', apiUrl: 'http://10.0.0.7:3000' }), 'V1NetworkPolicy');
    expect(policy.spec.podSelector).toEqual({});
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(policy.spec.ingress).toEqual([]);
    expect(policy.spec.egress).toEqual([
      { ports: [{ protocol: 'UDP', port: 53 }, { protocol: 'TCP', port: 53 }] },
      { to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'fanout' } }, podSelector: { matchLabels: { 'app.kubernetes.io/name': 'fanout', 'app.kubernetes.io/component': 'api' } } }] },
      { to: [{ ipBlock: { cidr: '10.0.0.7/32' } }], ports: [{ protocol: 'TCP', port: 3000 }] },
    ]);
    expect(wire(buildNetworkPolicy(ns, { systemNamespace: 'fanout', apiUrl: settings.apiUrl }), 'V1NetworkPolicy').spec.egress).toHaveLength(2);
  });

  it('names: at most 63 characters, DNS-1123, distinct for distinct inputs', () => {
    expect(jobName(details.executionId, 10)).toHaveLength(46);
    expect(namespaceName('fanout-', details.orgId)).toBe(`fanout-${details.orgId}`);
    expect(namespaceName(`${'a'.repeat(26)}-`, details.orgId)).toBe(`${'a'.repeat(26)}-${details.orgId}`);
    expect(namespaceName('a'.repeat(26), details.orgId)).toHaveLength(63);
    expect(dns1123Name('fanout', 'S', 1)).not.toBe(dns1123Name('fanout', 's', 1));
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 1000 }), (a, b, n) => {
        const x = dns1123Name('fanout', a, n);
        expect(isDns1123Label(x), x).toBe(true);
        if (a !== b) expect(dns1123Name('fanout', a, n)).not.toBe(dns1123Name('fanout', b, n));
      }),
      { numRuns: 2000 },
    );
  });

  it('label values: valid for any text, the text itself when it already is one', () => {
    expect(labelValue(details.executionId)).toBe(details.executionId);
    expect(labelValue('')).toBe('');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.string({ maxLength: 300 }), (a, b) => {
        expect(isLabelValue(labelValue(a)), labelValue(a)).toBe(true);
        if (a !== b) expect(labelValue(a)).not.toBe(labelValue(b));
      }),
      { numRuns: 2000 },
    );
  });
});
