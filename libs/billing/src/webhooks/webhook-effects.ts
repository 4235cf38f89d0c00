import type { StripeWebhookEvent } from '../stripe/stripe.gateway.js';

/** Cents to micro-dollars. */
export const MICROS_PER_CENT = 10_000;
/** Bounds on a plan's max_concurrency metadata (anything else is ignored and reported). */
const MAX_CONCURRENCY_LIMIT = 10_000;

type Obj = Record<string, unknown>;

/** What an event asks of an org, read from its payload; no I/O. */
export type WebhookEffect =
  | { kind: 'credit'; cents: number; mode: string; paymentStatus: string; currency: string; linkCustomer: string | null }
  | { kind: 'hold'; on: boolean; invoiceId: string }
  | { kind: 'plan'; plan: string | null; maxConcurrency: number | null; invalidConcurrency: string | null; status: string }
  | { kind: 'unhandled' };

/** How an event names its org: by Stripe customer, or (checkout sessions) by the org id Fanout put on the session. */
export interface OrgReference {
  customerId: string | null;
  orgIdHint: string | null;
}

export function orgReferenceOf(event: StripeWebhookEvent): OrgReference {
  const object = event.data.object;
  const customerId = idOf(object.customer);
  if (!event.type.startsWith('checkout.session.')) return { customerId, orgIdHint: null };
  const metadata = asObj(object.metadata);
  const hint = str(metadata.org_id) ?? str(object.client_reference_id);
  return { customerId, orgIdHint: hint };
}

export function effectOf(event: StripeWebhookEvent): WebhookEffect {
  const o = event.data.object;
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const cents = typeof o.amount_total === 'number' && Number.isSafeInteger(o.amount_total) && o.amount_total >= 0 ? o.amount_total : 0;
      return {
        kind: 'credit',
        cents,
        mode: str(o.mode) ?? 'payment',
        paymentStatus: str(o.payment_status) ?? 'paid',
        currency: (str(o.currency) ?? 'usd').toLowerCase(),
        linkCustomer: idOf(o.customer),
      };
    }
    case 'invoice.payment_failed':
      return { kind: 'hold', on: true, invoiceId: str(o.id) ?? '?' };
    case 'invoice.paid':
      return { kind: 'hold', on: false, invoiceId: str(o.id) ?? '?' };
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
      return planOf(o);
    default:
      return { kind: 'unhandled' };
  }
}

/**
 * The plan is the first item's price lookup_key (else `plan` in the product's
 * or price's metadata); max_concurrency comes from the price's metadata, else
 * the product's (when Stripe sent the product expanded).
 */
function planOf(subscription: Obj): WebhookEffect {
  const items = asObj(subscription.items);
  const first = Array.isArray(items.data) ? asObj(items.data[0]) : {};
  const price = asObj(first.price ?? first.plan);
  const product = asObj(price.product);
  const priceMeta = asObj(price.metadata);
  const productMeta = asObj(product.metadata);
  const plan = str(price.lookup_key) ?? str(productMeta.plan) ?? str(priceMeta.plan);
  const rawConcurrency = priceMeta.max_concurrency ?? productMeta.max_concurrency;
  let maxConcurrency: number | null = null;
  let invalidConcurrency: string | null = null;
  if (rawConcurrency !== undefined && rawConcurrency !== null && rawConcurrency !== '') {
    const n = Number(rawConcurrency);
    if (Number.isInteger(n) && n >= 1 && n <= MAX_CONCURRENCY_LIMIT) maxConcurrency = n;
    else invalidConcurrency = String(rawConcurrency).slice(0, 40);
  }
  return { kind: 'plan', plan, maxConcurrency, invalidConcurrency, status: str(subscription.status) ?? 'unknown' };
}

/** `$1,234.56` from micro-dollars. */
export function dollars(micros: number): string {
  // Half a cent rounds away from zero, the same for credits and debits.
  const abs = Math.round(Math.abs(micros) / MICROS_PER_CENT);
  const sign = micros < 0 && abs > 0 ? '-' : '';
  return `${sign}$${Math.floor(abs / 100).toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')}`;
}

function idOf(value: unknown): string | null {
  if (typeof value === 'string' && value) return value;
  if (value && typeof value === 'object' && typeof (value as Obj).id === 'string') return (value as Obj).id as string;
  return null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}

function asObj(value: unknown): Obj {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Obj) : {};
}
