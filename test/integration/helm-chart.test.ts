import { loadConfig } from '#libs/config';
import { API_POD_LABELS } from '#libs/engine';
import { Ajv, type ErrorObject } from 'ajv';
import * as kubernetesModels from 'kubernetes-models';
import * as prometheusOperatorModels from '@kubernetes-models/prometheus-operator';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { inflateRawSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, parseAllDocuments } from 'yaml';

/**
 * The Helm chart (charts/fanout), checked offline: its values against
 * values.schema.json, its templates rendered by a real Helm, and every
 * rendered object against the Kubernetes schemas (kubernetes-models) plus the
 * rules those schemas do not carry: names and label values of at most 63
 * characters. The rendered environment of each process is then read by
 * libs/config, the way the process will read it, and the API pods' labels
 * are checked against the executor's NetworkPolicy. No cluster and no
 * database are used.
 *
 * Helm comes from npm: @aws-cdk/asset-kubectl-v20 ships a Lambda layer zip
 * with the official linux-amd64 `helm` 3.8.1 (and kubectl 1.20) binaries;
 * the test unpacks `helm` once into node_modules/.cache.
 */

const exec = promisify(execFile);
const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../..');
const CHART = join(ROOT, 'charts/fanout');
const FULL_VALUES = join(CHART, 'ci/full-values.yaml');

type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: any;
};

// ---------------------------------------------------------------- helm binary

/** The bytes of one entry of a zip file (stored or deflated). Enough for the layer zip; not a general unzip. */
function zipEntry(zip: Buffer, wanted: string): Buffer {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip file: no end of central directory');
  const entries = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error(`zip central directory is corrupt at ${at}`);
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localHeader = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (name === wanted) {
      const start = localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
      const raw = zip.subarray(start, start + compressedSize);
      const data = method === 0 ? raw : method === 8 ? inflateRawSync(raw) : null;
      if (!data) throw new Error(`${wanted}: unsupported zip compression method ${method}`);
      if (data.length !== size) throw new Error(`${wanted}: unpacked ${data.length} bytes, expected ${size}`);
      return data;
    }
    at += 46 + nameLength + extraLength + commentLength;
  }
  throw new Error(`${wanted} is not in the zip`);
}

async function helmBinary(): Promise<string> {
  const pkgDir = dirname(require.resolve('@aws-cdk/asset-kubectl-v20/package.json'));
  const { version } = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string };
  const target = join(ROOT, 'node_modules/.cache/fanout-helm', version, 'helm');
  if (!existsSync(target)) {
    await mkdir(dirname(target), { recursive: true });
    const partial = `${target}.${process.pid}.partial`;
    await writeFile(partial, zipEntry(await readFile(join(pkgDir, 'lib/layer.zip')), 'helm/helm'));
    await chmod(partial, 0o755);
    await rename(partial, target); // atomic: a concurrent run sees the whole file or none
  }
  return target;
}

// ---------------------------------------------------------------- rendering

let helm: string;
let helmHome: string;

async function runHelm(args: string[]): Promise<{ stdout: string; stderr: string }> {
  // A private HELM_*_HOME: no repositories, plugins or caches of the machine.
  const env = { ...process.env, HELM_CACHE_HOME: join(helmHome, 'cache'), HELM_CONFIG_HOME: join(helmHome, 'config'), HELM_DATA_HOME: join(helmHome, 'data') };
  return exec(helm, args, { env, maxBuffer: 32 * 1024 * 1024 });
}

/** `helm template`, parsed into objects. */
async function template(release: string, namespace: string, extra: string[] = []): Promise<K8sObject[]> {
  const { stdout } = await runHelm(['template', release, CHART, '--namespace', namespace, ...extra]);
  return parseAllDocuments(stdout)
    .map((doc) => {
      if (doc.errors.length) throw new Error(`rendered YAML does not parse: ${doc.errors[0]!.message}`);
      return doc.toJS() as K8sObject | null;
    })
    .filter((o): o is K8sObject => o !== null);
}

/** The stderr of a `helm template` that must refuse its values. */
async function templateError(extra: string[]): Promise<string> {
  try {
    await runHelm(['template', 'fanout', CHART, '--namespace', 'fanout', ...extra]);
  } catch (err) {
    return String((err as { stderr?: string }).stderr ?? err);
  }
  throw new Error(`helm template accepted ${extra.join(' ')}`);
}

// ---------------------------------------------------------------- Kubernetes checks

type Model = { new (data: unknown): { validate(): void } };
const models = new Map<string, Model>();
(function collect(module: unknown, depth: number): void {
  if (!module || depth > 4) return;
  for (const value of Object.values(module as Record<string, unknown>)) {
    const candidate = value as { apiVersion?: string; kind?: string };
    if (typeof value === 'function' && candidate.apiVersion && candidate.kind) models.set(`${candidate.apiVersion}/${candidate.kind}`, value as unknown as Model);
    else if (typeof value === 'object') collect(value, depth + 1);
  }
})({ kubernetesModels, prometheusOperatorModels }, 0);

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const LABEL_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

function labelProblems(where: string, labels: Record<string, unknown> | undefined): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(labels ?? {})) {
    const slash = key.lastIndexOf('/');
    const prefix = slash >= 0 ? key.slice(0, slash) : null;
    const name = key.slice(slash + 1);
    if (prefix !== null && (prefix.length > 253 || !DNS_SUBDOMAIN.test(prefix))) problems.push(`${where}: label key prefix "${prefix}" is not a DNS subdomain`);
    if (name.length > 63 || !LABEL_NAME.test(name)) problems.push(`${where}: label key "${key}" is not a valid label name`);
    if (typeof value !== 'string') problems.push(`${where}: label ${key} has a ${typeof value} value, expected a string`);
    else if (value.length > 63 || !LABEL_VALUE.test(value)) problems.push(`${where}: label ${key}="${value}" is not a valid label value (${value.length} characters)`);
  }
  return problems;
}

function podTemplate(o: K8sObject): { metadata?: { labels?: Record<string, string> }; spec: any } | null {
  return o.kind === 'Deployment' || o.kind === 'Job' ? o.spec.template : null;
}

/** Every problem with the rendered objects: schema, names, labels. Empty when all is well. */
function manifestProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const o of objects) {
    const id = `${o.kind}/${o.metadata?.name}`;
    const Model = models.get(`${o.apiVersion}/${o.kind}`);
    if (!Model) {
      problems.push(`${id}: no Kubernetes schema for ${o.apiVersion} ${o.kind}`);
      continue;
    }
    try {
      new Model(o).validate();
    } catch (err) {
      problems.push(`${id}: ${(err as Error).message}`);
    }
    const name = o.metadata.name;
    if (name.length > 63 || !DNS_LABEL.test(name)) problems.push(`${id}: name is not a DNS label of at most 63 characters (${name.length})`);
    if (o.kind === 'Service' && !DNS_1035_LABEL.test(name)) problems.push(`${id}: a Service name must start with a letter`);
    const key = `${id} in ${o.metadata.namespace ?? 'the release namespace'}`;
    if (seen.has(key)) problems.push(`${key}: rendered twice`);
    seen.add(key);
    problems.push(...labelProblems(`${id} metadata.labels`, o.metadata.labels));
    problems.push(...labelProblems(`${id} spec.selector.matchLabels`, o.spec?.selector?.matchLabels));
    if (o.kind === 'Service') problems.push(...labelProblems(`${id} spec.selector`, o.spec.selector));
    const pod = podTemplate(o);
    if (pod) {
      problems.push(...labelProblems(`${id} pod labels`, pod.metadata?.labels));
      for (const c of pod.spec.containers as any[]) {
        if (!DNS_LABEL.test(c.name)) problems.push(`${id}: container name "${c.name}" is not a DNS label`);
        for (const p of c.ports ?? []) if (p.name && (p.name.length > 15 || !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(p.name))) problems.push(`${id}: port name "${p.name}" is longer than 15 characters or invalid`);
      }
    }
  }
  return problems;
}

// ---------------------------------------------------------------- small accessors

function one(objects: K8sObject[], kind: string, name?: string): K8sObject {
  const found = objects.filter((o) => o.kind === kind && (name === undefined || o.metadata.name === name));
  if (found.length !== 1) throw new Error(`expected one ${kind}${name ? ` ${name}` : ''}, found ${found.length}: ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found[0]!;
}

function container(o: K8sObject): any {
  return podTemplate(o)!.spec.containers[0];
}

function env(o: K8sObject): Map<string, any> {
  return new Map((container(o).env as any[]).map((e) => [e.name, e]));
}

function envValue(o: K8sObject, name: string): string | undefined {
  return env(o).get(name)?.value;
}

/** Stand-ins for what Secrets would hold, valid for libs/config. */
const SECRET_STAND_INS: Record<string, string> = {
  url: 'postgresql://fanout:pw@db.example.com:5432/fanout',
  password: 'pw',
  JWT_SECRET: 'j'.repeat(48),
  FANOUT_SECRETS_KEY: 'k'.repeat(43),
  STRIPE_SECRET_KEY: 'sk_test_standin',
  STRIPE_WEBHOOK_SECRET: 'whsec_standin',
};

/**
 * The environment a container of `o` would get, as the kubelet builds it:
 * Secret keys replaced by stand-ins, the downward API resolved, $(VAR)
 * expanded from the variables before it. What libs/config then reads.
 */
function containerEnvironment(o: K8sObject): NodeJS.ProcessEnv {
  const out: Record<string, string> = {};
  for (const e of container(o).env as any[]) {
    let value: string;
    if (e.valueFrom?.secretKeyRef) value = SECRET_STAND_INS[e.valueFrom.secretKeyRef.key] ?? `missing stand-in for ${e.valueFrom.secretKeyRef.key}`;
    else if (e.valueFrom?.fieldRef?.fieldPath === 'metadata.namespace') value = o.metadata.namespace ?? 'the-release-namespace';
    else value = String(e.value).replace(/\$\(([A-Za-z_][A-Za-z0-9_]*)\)/g, (all, name: string) => out[name] ?? all);
    out[e.name] = value;
  }
  return out;
}

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };

function allows(rules: Rule[], group: string, resource: string, verb: string): boolean {
  return rules.some((r) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb) && !r.resourceNames);
}

function isSubset(small: Record<string, string>, big: Record<string, string> | undefined): boolean {
  return Object.entries(small).every(([k, v]) => big?.[k] === v);
}

// ---------------------------------------------------------------- values schema

const schema = JSON.parse(readFileSync(join(CHART, 'values.schema.json'), 'utf8')) as object;
const defaults = parseYaml(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Record<string, unknown>;

/** Helm's merge of a values file over the defaults: maps merge, everything else replaces. */
function merge(base: unknown, over: unknown): unknown {
  if (base && over && typeof base === 'object' && typeof over === 'object' && !Array.isArray(base) && !Array.isArray(over)) {
    const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
    for (const [k, v] of Object.entries(over as Record<string, unknown>)) out[k] = merge(out[k], v);
    return out;
  }
  return structuredClone(over);
}

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, strictRequired: false }) // required inside if/then names properties declared beside them;
const validateValues = ajv.compile(schema);

function schemaErrors(values: unknown): ErrorObject[] {
  return validateValues(values) ? [] : [...(validateValues.errors ?? [])];
}

describe('helm chart charts/fanout (offline)', () => {
  beforeAll(async () => {
    helm = await helmBinary();
    helmHome = await mkdtemp(join(tmpdir(), 'fanout-helm-'));
  });
  afterAll(async () => {
    if (helmHome) await rm(helmHome, { recursive: true, force: true });
  });

  it('uses a real Helm 3 binary', async () => {
    const { stdout } = await runHelm(['version', '--short']);
    expect(stdout).toMatch(/^v3\.\d+\.\d+/);
  });

  describe('values.schema.json', () => {
    it('accepts values.yaml and the all-features values file', () => {
      expect(schemaErrors(defaults)).toEqual([]);
      expect(schemaErrors(merge(defaults, parseYaml(readFileSync(FULL_VALUES, 'utf8'))))).toEqual([]);
    });

    it.each([
      { what: 'a string replica count', over: { api: { replicas: 'two' } }, path: '/api/replicas', keyword: 'type' },
      { what: 'an unknown pull policy', over: { image: { pullPolicy: 'Sometimes' } }, path: '/image/pullPolicy', keyword: 'enum' },
      { what: 'a misspelt top-level key', over: { databse: { host: 'db' } }, path: '', keyword: 'additionalProperties' },
      { what: 'a misspelt nested key', over: { scheduler: { kubernetes: { maxjobs: 5 } } }, path: '/scheduler/kubernetes', keyword: 'additionalProperties' },
      { what: 'no database Secret', over: { database: { existingSecret: '' } }, path: '/database/existingSecret', keyword: 'minLength' },
      { what: 'zero max Jobs', over: { scheduler: { kubernetes: { maxJobs: 0 } } }, path: '/scheduler/kubernetes/maxJobs', keyword: 'minimum' },
      { what: 'a short digest', over: { runner: { image: { digest: 'sha256:abc' } } }, path: '/runner/image/digest', keyword: 'pattern' },
      { what: 'an uppercase image repository', over: { image: { repository: 'Registry/Fanout' } }, path: '/image/repository', keyword: 'pattern' },
      { what: 'a demo switch that is not on/off', over: { config: { demo: true } }, path: '/config/demo', keyword: 'type' },
      { what: 'a 64-character pod label value', over: { api: { podLabels: { team: 'x'.repeat(64) } } }, path: '/api/podLabels/team', keyword: 'maxLength' },
      { what: 'a database host without a password key', over: { database: { host: 'db.example.com', passwordKey: undefined } }, path: '/database', keyword: 'required' },
      { what: 'an env entry with both value and valueFrom', over: { config: { extraEnv: [{ name: 'A', value: 'x', valueFrom: {} }] } }, path: '/config/extraEnv/0', keyword: 'not' },
    ])('rejects $what at $path', ({ over, path, keyword }) => {
      const values = JSON.parse(JSON.stringify(merge(defaults, over))) as unknown; // drops undefined, as a values file would
      const errors = schemaErrors(values);
      expect(errors.map((e) => `${e.instancePath} ${e.keyword}`)).toContain(`${path} ${keyword}`);
    });

    it('makes helm itself refuse bad values, naming the path', async () => {
      expect(await templateError(['--set', 'api.replicas=two'])).toMatch(/api\.replicas: Invalid type\. Expected: integer/);
      expect(await templateError(['--set', 'image.pullPolicy=Sometimes'])).toMatch(/image\.pullPolicy must be one of/);
      expect(await templateError(['--set', 'scheduler.kubernetes.maxJob=5'])).toMatch(/Additional property maxJob is not allowed/);
      expect(await templateError(['--set', 'appSecrets.existingSecret='])).toMatch(/appSecrets\.existingSecret/);
    });

    it('refuses an extra variable the chart already sets, rather than let the last one win silently', async () => {
      const stderr = await templateError(['--set', 'scheduler.extraEnv[0].name=FANOUT_K8S_MAX_JOBS', '--set-string', 'scheduler.extraEnv[0].value=5']);
      expect(stderr).toMatch(/scheduler\.extraEnv: the environment variable FANOUT_K8S_MAX_JOBS is set twice/);
      expect(await templateError(['--set', 'config.extraEnv[0].name=LOG_LEVEL', '--set-string', 'config.extraEnv[0].value=debug'])).toMatch(/LOG_LEVEL is set twice/);
    });
  });

  it('passes helm lint --strict with the defaults and with every feature on', async () => {
    await runHelm(['lint', CHART, '--strict']);
    await runHelm(['lint', CHART, '--strict', '-f', FULL_VALUES]);
  });

  describe('the default rendering', () => {
    let objects: K8sObject[];
    beforeAll(async () => {
      objects = await template('fanout', 'fanout-system');
    });

    it('renders valid Kubernetes objects with valid names and labels', () => {
      expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
        'ClusterRole/fanout-system-fanout-scheduler',
        'ClusterRoleBinding/fanout-system-fanout-scheduler',
        'Deployment/fanout-api',
        'Deployment/fanout-scheduler',
        'Job/fanout-migrate',
        'Role/fanout-scheduler',
        'RoleBinding/fanout-scheduler',
        'Service/fanout-api',
        'ServiceAccount/fanout-api',
        'ServiceAccount/fanout-scheduler',
      ]);
      expect(manifestProblems(objects)).toEqual([]);
    });

    it('runs the API without the embedded scheduler, probed on /healthz and /readyz', () => {
      const api = one(objects, 'Deployment', 'fanout-api');
      const c = container(api);
      expect(c.command).toEqual(['node', '--enable-source-maps', 'dist/apps/api/src/main.js']);
      expect(envValue(api, 'FANOUT_SCHEDULER')).toBe('off');
      expect(envValue(api, 'HOST')).toBe('0.0.0.0');
      expect(envValue(api, 'PORT')).toBe(String(c.ports[0].containerPort));
      expect(envValue(api, 'NODE_ENV')).toBe('production');
      // The hook Job migrates; the API only checks (readyz answers 503 until then).
      expect(envValue(api, 'FANOUT_MIGRATE_ON_START')).toBe('false');
      expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
      expect(c.ports.map((p: any) => p.name)).toContain('http');
      expect(podTemplate(api)!.spec.automountServiceAccountToken).toBe(false);
      // What the API process makes of it (libs/config): valid, production, no scheduling.
      const config = loadConfig(containerEnvironment(api));
      expect(config).toMatchObject({ env: 'production', host: '0.0.0.0', port: 3000, scheduler: 'off', migrateOnStart: false, demo: false, executor: 'local' });
    });

    it("labels the API pods as the runners' NetworkPolicy expects them", () => {
      const api = podTemplate(one(objects, 'Deployment', 'fanout-api'))!;
      expect(isSubset(API_POD_LABELS, api.metadata!.labels)).toBe(true);
      for (const other of [one(objects, 'Deployment', 'fanout-scheduler'), one(objects, 'Job', 'fanout-migrate')]) expect(isSubset(API_POD_LABELS, podTemplate(other)!.metadata!.labels)).toBe(false);
    });

    it('takes the database and the application secrets from existing Secrets only', () => {
      for (const name of ['fanout-api', 'fanout-scheduler']) {
        const e = env(one(objects, 'Deployment', name));
        expect(e.get('DATABASE_URL').valueFrom.secretKeyRef).toEqual({ name: 'fanout-database', key: 'url' });
        expect(e.get('JWT_SECRET').valueFrom.secretKeyRef).toEqual({ name: 'fanout-app-secrets', key: 'JWT_SECRET' });
        expect(e.get('FANOUT_SECRETS_KEY').valueFrom.secretKeyRef).toEqual({ name: 'fanout-app-secrets', key: 'FANOUT_SECRETS_KEY' });
        expect(e.has('STRIPE_SECRET_KEY')).toBe(false);
      }
      expect(objects.filter((o) => o.kind === 'Secret' || o.kind === 'ConfigMap')).toEqual([]);
    });

    it('runs the scheduler with the Kubernetes executor, under its own ServiceAccount', () => {
      const scheduler = one(objects, 'Deployment', 'fanout-scheduler');
      expect(container(scheduler).command).toEqual(['node', '--enable-source-maps', 'dist/apps/scheduler/src/main.js']);
      expect(env(scheduler).has('FANOUT_KUBECONFIG')).toBe(false); // in-cluster
      expect(env(scheduler).get('FANOUT_K8S_SYSTEM_NAMESPACE').valueFrom).toEqual({ fieldRef: { fieldPath: 'metadata.namespace' } });
      // What the scheduler process makes of its environment (libs/config).
      const config = loadConfig(containerEnvironment({ ...scheduler, metadata: { ...scheduler.metadata, namespace: 'fanout-system' } }));
      expect(config.executor).toBe('kubernetes');
      expect(config.publicUrl).toBe('http://fanout-api.fanout-system.svc.cluster.local:80');
      expect(config.kubernetes).toEqual({
        kubeconfig: null,
        runnerImage: 'registry.example.com/fanout/runner:0.1.0',
        namespacePrefix: 'fanout-',
        maxJobs: 100,
        qps: 20,
        systemNamespace: 'fanout-system',
        unschedulableSeconds: 600,
        jobTtlSeconds: 3600,
        kueueQueue: null,
        kueueMaxPending: 50,
      });
      const spec = podTemplate(scheduler)!.spec;
      expect(spec.serviceAccountName).toBe('fanout-scheduler');
      expect(spec.automountServiceAccountToken).toBe(true);
    });

    it('hardens every pod and container: non-root, read-only root, no privilege escalation, no capabilities, seccomp', () => {
      const workloads = objects.filter((o) => podTemplate(o));
      expect(workloads).toHaveLength(3);
      for (const o of workloads) {
        const spec = podTemplate(o)!.spec;
        expect(spec.securityContext, o.metadata.name).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, seccompProfile: { type: 'RuntimeDefault' } });
        const tmp = (spec.volumes as any[]).find((v) => v.name === 'tmp');
        expect(tmp?.emptyDir, `${o.metadata.name}: /tmp volume`).toBeDefined();
        for (const c of spec.containers as any[]) {
          expect(c.securityContext, o.metadata.name).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } });
          expect(c.securityContext.privileged ?? false).toBe(false);
          expect(c.volumeMounts, o.metadata.name).toContainEqual({ name: 'tmp', mountPath: '/tmp' });
          expect(c.resources?.requests?.memory, `${o.metadata.name}: memory request`).toBeDefined();
          expect(c.resources?.limits?.memory, `${o.metadata.name}: memory limit`).toBeDefined();
          // Secrets only by reference: no literal value for a variable that holds one.
          for (const e of c.env as any[]) {
            if (/SECRET|PASSWORD|_KEY$|^DATABASE_URL$/.test(e.name)) expect(e.value, `${o.metadata.name} ${e.name}`).toBeUndefined();
          }
        }
      }
    });

    it('routes the Service to API pods only', () => {
      const service = one(objects, 'Service', 'fanout-api');
      const api = podTemplate(one(objects, 'Deployment', 'fanout-api'))!;
      const scheduler = podTemplate(one(objects, 'Deployment', 'fanout-scheduler'))!;
      expect(isSubset(service.spec.selector, api.metadata!.labels)).toBe(true);
      expect(isSubset(service.spec.selector, scheduler.metadata!.labels)).toBe(false);
      expect(service.spec.ports[0]).toMatchObject({ name: 'http', targetPort: 'http' });
      for (const name of ['fanout-api', 'fanout-scheduler']) {
        const d = one(objects, 'Deployment', name);
        expect(isSubset(d.spec.selector.matchLabels, podTemplate(d)!.metadata!.labels)).toBe(true);
      }
    });

    it('migrates in a pre-install,pre-upgrade hook Job with the real CLI entry point', () => {
      const job = one(objects, 'Job', 'fanout-migrate');
      expect(job.metadata.annotations).toMatchObject({ 'helm.sh/hook': 'pre-install,pre-upgrade', 'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded' });
      const spec = podTemplate(job)!.spec;
      expect(spec.restartPolicy).toBe('Never');
      expect(spec.automountServiceAccountToken).toBe(false);
      // Hooks run before the release's ServiceAccounts exist: none is named.
      expect(spec.serviceAccountName).toBeUndefined();
      expect(container(job).command).toEqual(['node', 'bin/fanout.js', 'db', 'migrate']);
      expect(env(job).get('DATABASE_URL').valueFrom.secretKeyRef).toEqual({ name: 'fanout-database', key: 'url' });
    });

    it('grants the scheduler only what the executor uses, cluster-wide: no wildcards, no RBAC, no writes it does not need', () => {
      const role = one(objects, 'ClusterRole');
      const rules = role.rules as Rule[];
      for (const r of rules) {
        expect([...r.apiGroups, ...r.resources, ...r.verbs]).not.toContain('*');
        for (const verb of ['escalate', 'bind', 'impersonate', 'deletecollection']) expect(r.verbs).not.toContain(verb);
      }
      const can = (group: string, resource: string, verb: string) => allows(rules, group, resource, verb);
      for (const verb of ['create', 'get', 'list', 'watch', 'delete']) expect(can('batch', 'jobs', verb), `jobs ${verb}`).toBe(true);
      for (const verb of ['update', 'patch']) expect(can('batch', 'jobs', verb), `jobs ${verb}`).toBe(false);
      for (const verb of ['get', 'list', 'watch']) expect(can('', 'pods', verb), `pods ${verb}`).toBe(true);
      for (const verb of ['create', 'delete', 'patch']) expect(can('', 'pods', verb), `pods ${verb}`).toBe(false);
      for (const verb of ['create', 'get', 'list', 'patch', 'delete']) expect(can('', 'secrets', verb), `secrets ${verb}`).toBe(true);
      for (const verb of ['watch', 'update']) expect(can('', 'secrets', verb), `secrets ${verb}`).toBe(false);
      for (const verb of ['get', 'create']) expect(can('', 'namespaces', verb), `namespaces ${verb}`).toBe(true);
      for (const verb of ['list', 'update', 'patch', 'delete']) expect(can('', 'namespaces', verb), `namespaces ${verb}`).toBe(false);
      for (const [group, resource] of [['networking.k8s.io', 'networkpolicies'], ['', 'limitranges'], ['', 'resourcequotas']] as const) {
        expect(can(group, resource, 'create'), `${resource} create`).toBe(true);
        expect(can(group, resource, 'delete'), `${resource} delete`).toBe(false);
      }
      expect(rules.some((r) => r.apiGroups.includes('rbac.authorization.k8s.io'))).toBe(false);

      const binding = one(objects, 'ClusterRoleBinding');
      expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: role.metadata.name });
      expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'fanout-scheduler', namespace: 'fanout-system' }]);

      // Leader election: in the release namespace only; reading and renewing only the executor's Lease.
      expect(one(objects, 'Role').rules).toEqual([
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['create'] },
        { apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['fanout-scheduler'], verbs: ['get', 'update'] },
      ]);
      expect(one(objects, 'Role').metadata.namespace).toBeUndefined(); // the release namespace
      expect(one(objects, 'RoleBinding').subjects).toEqual(binding.subjects);
    });

    it('binds the same rules in the listed tenant namespaces only, without namespace creation, when asked', async () => {
      const scoped = await template('fanout', 'fanout-system', ['--set', 'rbac.tenantNamespaces={fanout-org-a,fanout-org-b}']);
      expect(manifestProblems(scoped)).toEqual([]);
      expect(scoped.filter((o) => o.kind === 'ClusterRoleBinding')).toEqual([]);
      const role = one(scoped, 'ClusterRole');
      expect(allows(role.rules, '', 'namespaces', 'create')).toBe(false);
      expect(allows(role.rules, 'batch', 'jobs', 'create')).toBe(true);
      const tenantBindings = scoped.filter((o) => o.kind === 'RoleBinding' && o.roleRef.kind === 'ClusterRole');
      expect(tenantBindings.map((b) => b.metadata.namespace)).toEqual(['fanout-org-a', 'fanout-org-b']);
      for (const b of tenantBindings) {
        expect(b.roleRef.name).toBe(role.metadata.name);
        expect(b.subjects).toEqual([{ kind: 'ServiceAccount', name: 'fanout-scheduler', namespace: 'fanout-system' }]);
      }
    });

    it('names cluster-scoped objects after the namespace too, so same-named releases do not collide', async () => {
      const elsewhere = await template('fanout', 'other-team');
      expect(one(elsewhere, 'ClusterRole').metadata.name).toBe('other-team-fanout-scheduler');
      expect(one(elsewhere, 'ClusterRole').metadata.name).not.toBe(one(objects, 'ClusterRole').metadata.name);
    });
  });

  describe('every feature on, with a 53-character release name and a long namespace', () => {
    const release = 'a-release-name-as-long-as-helm-allows-it-to-be-53-ch';
    const namespace = 'a-namespace-whose-name-runs-to-the-limit-of-sixty-three-chars-x';
    let objects: K8sObject[];
    beforeAll(async () => {
      expect(release.length).toBeLessThanOrEqual(53);
      expect(namespace).toHaveLength(63);
      objects = await template(release, namespace, ['-f', FULL_VALUES]);
    });

    it('renders valid Kubernetes objects whose names stay within 63 characters and distinct', () => {
      expect(objects.map((o) => o.kind).sort()).toEqual([
        'ClusterRole',
        'ClusterRoleBinding',
        'Deployment',
        'Deployment',
        'Ingress',
        'Job',
        'Role',
        'RoleBinding',
        'Service',
        'ServiceAccount',
        'ServiceAccount',
        'ServiceMonitor',
      ]);
      expect(manifestProblems(objects)).toEqual([]);
      const names = objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name);
      expect(names.every((n) => n.length <= 63)).toBe(true);
      expect(names.some((n) => n.endsWith('-api')) && names.some((n) => n.endsWith('-scheduler'))).toBe(true);
    });

    it('pulls both images by digest', () => {
      const scheduler = objects.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('-scheduler'))!;
      expect(container(scheduler).image).toBe('registry.example.com/fanout/platform@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef');
      expect(envValue(scheduler, 'FANOUT_RUNNER_IMAGE')).toBe('registry.example.com/fanout/runner@sha256:fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210');
      expect(podTemplate(scheduler)!.spec.imagePullSecrets).toEqual([{ name: 'registry-credentials' }]);
    });

    it('assembles DATABASE_URL from the host fields and a password the kubelet expands', () => {
      const api = objects.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('-api'))!;
      const names = (container(api).env as any[]).map((e) => e.name);
      // $(VAR) only expands variables defined earlier in the list.
      expect(names.indexOf('FANOUT_DB_PASSWORD')).toBeLessThan(names.indexOf('DATABASE_URL'));
      expect(env(api).get('FANOUT_DB_PASSWORD').valueFrom.secretKeyRef).toEqual({ name: 'fanout-db', key: 'password' });
      expect(envValue(api, 'DATABASE_URL')).toBe('postgresql://fanout_app:$(FANOUT_DB_PASSWORD)@postgres.databases.svc.cluster.local:5432/fanout?sslmode=verify-full');
      expect(env(api).get('STRIPE_SECRET_KEY').valueFrom.secretKeyRef).toEqual({ name: 'fanout-stripe', key: 'STRIPE_SECRET_KEY' });
      expect(env(api).get('STRIPE_WEBHOOK_SECRET').valueFrom.secretKeyRef).toEqual({ name: 'fanout-stripe', key: 'STRIPE_WEBHOOK_SECRET' });
      expect(envValue(api, 'STRIPE_API_URL')).toBe('http://stripe-mock.billing.svc:12111');
      expect(envValue(api, 'FANOUT_PUBLIC_URL')).toBe('https://fanout.example.com');
      const config = loadConfig(containerEnvironment(api));
      expect(config.databaseUrl).toBe('postgresql://fanout_app:pw@postgres.databases.svc.cluster.local:5432/fanout?sslmode=verify-full');
      expect(config.graphqlMaxDepth).toBe(12);
      expect(config.demo).toBe(true);
      expect(config.stripe).toMatchObject({ secretKey: 'sk_test_standin', webhookSecret: 'whsec_standin', meterEventName: 'fanout_spend' });
    });

    it('passes the executor settings, Kueue and the health port to the scheduler', () => {
      const scheduler = objects.find((o) => o.kind === 'Deployment' && o.metadata.name.endsWith('-scheduler'))!;
      const config = loadConfig(containerEnvironment({ ...scheduler, metadata: { ...scheduler.metadata, namespace } }));
      expect(config.kubernetes).toMatchObject({ namespacePrefix: 'bench-', maxJobs: 500, qps: 50, unschedulableSeconds: 900, jobTtlSeconds: 600, kueueQueue: 'fanout-queue', kueueMaxPending: 20, systemNamespace: namespace });
      expect(config.kubernetes!.runnerImage).toMatch(/@sha256:/);
      expect(config.maxAttempts).toBe(3);
      expect(envValue(scheduler, 'NODE_OPTIONS')).toBe('--max-old-space-size=512');
      expect(config.stripe?.api).toEqual({ host: 'stripe-mock.billing.svc', port: 12111, protocol: 'http' });
      const c = container(scheduler);
      expect(c.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'health' });
      expect(c.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'health' });
      expect(c.ports).toEqual([{ name: 'health', containerPort: 3001, protocol: 'TCP' }]);
      expect(config.port).toBe(3001);
    });

    it('points the Ingress and the ServiceMonitor at the API Service', () => {
      const service = one(objects, 'Service');
      const ingress = one(objects, 'Ingress');
      expect(ingress.spec.ingressClassName).toBe('nginx');
      expect(ingress.spec.tls).toEqual([{ secretName: 'fanout-tls', hosts: ['fanout.example.com'] }]);
      expect(ingress.spec.rules[0].http.paths[0].backend).toEqual({ service: { name: service.metadata.name, port: { name: 'http' } } });
      const monitor = one(objects, 'ServiceMonitor');
      expect(isSubset(monitor.spec.selector.matchLabels, service.metadata.labels)).toBe(true);
      expect(monitor.spec.namespaceSelector).toEqual({ matchNames: [namespace] });
      expect(monitor.spec.endpoints).toEqual([{ port: 'http', path: '/metrics', interval: '30s', scrapeTimeout: '10s' }]);
      expect(monitor.metadata.labels).toMatchObject({ release: 'prometheus' });
      const clusterRole = one(objects, 'ClusterRole');
      expect(clusterRole.metadata.name.length).toBeLessThanOrEqual(63);
      expect(clusterRole.metadata.name).toMatch(/^a-namespace-whose-name-runs-.*-[0-9a-f]{8}-scheduler$/);
    });
  });

  it('renders only the API when the scheduler, RBAC, the hook and the ServiceAccounts are off', async () => {
    const objects = await template('fanout', 'fanout', [
      '--set', 'scheduler.enabled=false',
      '--set', 'migrations.enabled=false',
      '--set', 'api.serviceAccount.create=false',
    ]);
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual(['Deployment/fanout-api', 'Service/fanout-api']);
    expect(manifestProblems(objects)).toEqual([]);
    const api = one(objects, 'Deployment');
    expect(podTemplate(api)!.spec.serviceAccountName).toBe('default');
    // Without the hook the API migrates at start (under the advisory lock).
    expect(envValue(api, 'FANOUT_MIGRATE_ON_START')).toBe('true');
  });

  describe('the images', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const runnerDockerfile = readFileSync(join(ROOT, 'Dockerfile.runner'), 'utf8');
    const dockerignore = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');

    it('copy only paths that exist and that .dockerignore lets into the build context', () => {
      for (const [file, text] of [['Dockerfile', dockerfile], ['Dockerfile.runner', runnerDockerfile]] as const) {
        const sources = [...text.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(/\s+/).filter((s) => !s.startsWith('--')));
        expect(sources.length, file).toBeGreaterThan(3);
        for (const source of sources) {
          expect(existsSync(join(ROOT, source)), `${file}: COPY ${source}`).toBe(true);
          const top = source.split('/')[0]!;
          expect(dockerignore.some((line) => line === `!${top}` || line === `!${top}/` || line === `!${source}`), `${file}: ${source} is let in by .dockerignore`).toBe(true);
        }
      }
    });

    it('run as the numeric non-root user the chart expects, from a pinned Node 20 base', () => {
      const { runAsUser, runAsGroup } = defaults.podSecurityContext as { runAsUser: number; runAsGroup: number };
      for (const text of [dockerfile, runnerDockerfile]) {
        expect(text).toMatch(/^ARG NODE_IMAGE=node:20-bookworm-slim$/m);
        const users = [...text.matchAll(/^USER (.+)$/gm)].map((m) => m[1]);
        expect(users.at(-1)).toBe(`${runAsUser}:${runAsGroup}`);
      }
    });

    it('start the entry points the chart and the executor call', async () => {
      // The chart's commands run from the platform image's WORKDIR.
      expect(dockerfile).toMatch(/^WORKDIR \/opt\/fanout$/m);
      for (const entry of ['apps/api/src/main.ts', 'apps/scheduler/src/main.ts', 'apps/runner/src/main.ts', 'bin/fanout.js']) expect(existsSync(join(ROOT, entry)), entry).toBe(true);
      expect(runnerDockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--", "node", "--enable-source-maps", "\/opt\/fanout\/dist\/apps\/runner\/src\/main\.js"\]$/m);
      // The hook's command exists in the CLI (needs the build: npm test builds first).
      const { stdout } = await exec(process.execPath, [join(ROOT, 'bin/fanout.js'), 'db', 'migrate', '--help']);
      expect(stdout).toMatch(/Usage: fanout db migrate/);
    });
  });
});
