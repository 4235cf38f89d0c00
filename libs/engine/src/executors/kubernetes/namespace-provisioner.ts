import type { CoreV1Api, NetworkingV1Api } from '@kubernetes/client-node';
import type { Logger } from 'pino';
import { buildLimitRange, buildNamespace, buildNetworkPolicy, buildResourceQuota, namespaceName, type NetworkSettings } from './job-manifests.js';
import { statusOf } from './kube-errors.js';

export interface NamespaceSettings extends NetworkSettings {
  prefix: string;
  maxJobs: number;
}

/**
 * The org's namespace, made ready on first use: the namespace itself (when
 * this scheduler may create namespaces), then a default-deny NetworkPolicy,
 * a LimitRange and a ResourceQuota. Objects already there are kept as they
 * are (an operator may have tuned them). Once per namespace and process;
 * `forget` when the namespace turns out to be gone.
 *
 * Two ways to grant the scheduler its rights, both supported: a ClusterRole
 * (it creates namespaces as orgs first run), or a Role bound in namespaces
 * an operator created beforehand (it cannot even read the Namespace object,
 * which is fine: a 403 on that read means "use it as it is").
 */
export class NamespaceProvisioner {
  private readonly ready = new Map<string, Promise<string>>();

  constructor(
    private readonly core: CoreV1Api,
    private readonly networking: NetworkingV1Api,
    private readonly settings: NamespaceSettings,
    private readonly logger: Logger,
  ) {}

  nameFor(orgId: string): string {
    return namespaceName(this.settings.prefix, orgId);
  }

  ensure(orgId: string, orgSlug: string | null): Promise<string> {
    const name = this.nameFor(orgId);
    let ready = this.ready.get(name);
    if (!ready) {
      ready = this.provision(name, orgId, orgSlug).catch((err) => {
        this.ready.delete(name);
        throw err;
      });
      this.ready.set(name, ready);
    }
    return ready;
  }

  forget(namespace: string): void {
    this.ready.delete(namespace);
  }

  private async provision(name: string, orgId: string, orgSlug: string | null): Promise<string> {
    try {
      await this.core.readNamespace({ name });
    } catch (err) {
      const status = statusOf(err);
      if (status === 404) {
        await ignoreConflict(this.core.createNamespace({ body: buildNamespace(name, orgId, orgSlug) }));
        this.logger.info({ namespace: name, orgId }, 'created the org namespace');
      } else if (status !== 403) throw err;
    }
    await ignoreConflict(this.networking.createNamespacedNetworkPolicy({ namespace: name, body: buildNetworkPolicy(name, this.settings) }));
    await ignoreConflict(this.core.createNamespacedLimitRange({ namespace: name, body: buildLimitRange(name) }));
    await ignoreConflict(this.core.createNamespacedResourceQuota({ namespace: name, body: buildResourceQuota(name, this.settings.maxJobs) }));
    return name;
  }
}

export async function ignoreConflict<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (err) {
    if (statusOf(err) === 409) return null;
    throw err;
  }
}
