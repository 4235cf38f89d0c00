import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestContext {
  requestId: string;
  orgId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Per-request facts the logger adds to every line (request id, org id). */
export const requestContext = {
  run<T>(ctx: RequestContext, fn: () => T): T {
    return storage.run(ctx, fn);
  },
  get(): RequestContext | undefined {
    return storage.getStore();
  },
  setOrg(orgId: string): void {
    const ctx = storage.getStore();
    if (ctx) ctx.orgId = orgId;
  },
};
