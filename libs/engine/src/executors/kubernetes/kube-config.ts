import { KubeConfig } from '@kubernetes/client-node';
import { existsSync, readFileSync } from 'node:fs';

const SERVICE_ACCOUNT_NAMESPACE = '/var/run/secrets/kubernetes.io/serviceaccount/namespace';

/**
 * A kubeconfig file, or the pod's service account. Explicitly one or the
 * other: the client's loadFromDefault falls back to localhost:8080 without
 * a word when nothing is configured.
 */
export function loadKubeConfig(path: string | null): KubeConfig {
  const kc = new KubeConfig();
  if (path) kc.loadFromFile(path);
  else if (process.env.KUBERNETES_SERVICE_HOST) kc.loadFromCluster();
  else throw new Error('FANOUT_EXECUTOR=kubernetes: set FANOUT_KUBECONFIG, or run in a pod (KUBERNETES_SERVICE_HOST is not set)');
  return kc;
}

/** The namespace this process runs in (in a pod), else null. */
export function podNamespace(): string | null {
  return existsSync(SERVICE_ACCOUNT_NAMESPACE) ? readFileSync(SERVICE_ACCOUNT_NAMESPACE, 'utf8').trim() || null : null;
}
