import { describe, expect, it } from 'vitest';
import type { StripeWebhookEvent } from '../stripe/stripe.gateway.js';
import { dollars, effectOf, orgReferenceOf } from './webhook-effects.js';

const ev = (type: string, object: Record<string, unknown>): StripeWebhookEvent => ({ id: 'evt_1', type, created: 0, data: { object } });
const sub = (price: Record<string, unknown>) => ev('customer.subscription.updated', { status: 'active', items: { data: [{ price }] } });

describe('webhook effects', () => {
  it.each([
    [0, '$0.00'],
    [10_000, '$0.01'],
    [50_000_000, '$50.00'],
    [1_234_567_890_000, '$1,234,567.89'],
    [-25_000, '-$0.03'],
  ])('dollars(%d) = %s', (micros, text) => {
    expect(dollars(micros)).toBe(text);
  });

  it('reads checkout credit, with safe defaults for missing or odd fields', () => {
    expect(effectOf(ev('checkout.session.completed', { mode: 'payment', payment_status: 'paid', currency: 'USD', amount_total: 5000, customer: { id: 'cus_1' } }))).toEqual({
      kind: 'credit',
      cents: 5000,
      mode: 'payment',
      paymentStatus: 'paid',
      currency: 'usd',
      linkCustomer: 'cus_1',
    });
    expect(effectOf(ev('checkout.session.completed', { amount_total: 12.5 }))).toMatchObject({ cents: 0 });
    expect(effectOf(ev('checkout.session.completed', { amount_total: -100 }))).toMatchObject({ cents: 0 });
  });

  it.each([
    [{ lookup_key: 'team', metadata: { max_concurrency: '16' } }, { plan: 'team', maxConcurrency: 16, invalidConcurrency: null }],
    [{ lookup_key: null, metadata: { plan: 'pro' } }, { plan: 'pro', maxConcurrency: null, invalidConcurrency: null }],
    [{ metadata: {}, product: { metadata: { plan: 'scale', max_concurrency: '64' } } }, { plan: 'scale', maxConcurrency: 64, invalidConcurrency: null }],
    [{ metadata: { max_concurrency: '8' }, product: { metadata: { max_concurrency: '64' } } }, { plan: null, maxConcurrency: 8, invalidConcurrency: null }],
    [{ metadata: { max_concurrency: '0' } }, { plan: null, maxConcurrency: null, invalidConcurrency: '0' }],
    [{ metadata: { max_concurrency: '2.5' } }, { plan: null, maxConcurrency: null, invalidConcurrency: '2.5' }],
    [{ metadata: { max_concurrency: '10001' } }, { plan: null, maxConcurrency: null, invalidConcurrency: '10001' }],
    [{ product: 'prod_1' }, { plan: null, maxConcurrency: null, invalidConcurrency: null }],
  ])('plan and max concurrency from price %j', (price, expected) => {
    expect(effectOf(sub(price))).toEqual({ kind: 'plan', status: 'active', ...expected });
  });

  it('names the org by customer; only checkout sessions may carry an org id hint', () => {
    expect(orgReferenceOf(ev('invoice.paid', { customer: 'cus_1', metadata: { org_id: 'x' } }))).toEqual({ customerId: 'cus_1', orgIdHint: null });
    expect(orgReferenceOf(ev('checkout.session.completed', { customer: null, client_reference_id: 'org-1' }))).toEqual({ customerId: null, orgIdHint: 'org-1' });
    expect(orgReferenceOf(ev('checkout.session.completed', { metadata: { org_id: 'org-2' }, client_reference_id: 'org-1' }))).toEqual({ customerId: null, orgIdHint: 'org-2' });
  });

  it('holds and unhandled types', () => {
    expect(effectOf(ev('invoice.payment_failed', { id: 'in_1' }))).toEqual({ kind: 'hold', on: true, invoiceId: 'in_1' });
    expect(effectOf(ev('invoice.paid', { id: 'in_1' }))).toEqual({ kind: 'hold', on: false, invoiceId: 'in_1' });
    expect(effectOf(ev('charge.refunded', {}))).toEqual({ kind: 'unhandled' });
  });
});
