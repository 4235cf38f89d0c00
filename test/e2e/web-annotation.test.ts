import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { launchBrowser, newSession, screenshot } from '../support/browser.js';
import { createCampaignFixture, jsonl, recordFor } from '../support/campaign-fixture.js';
import { requireWebBuild } from '../support/web-build.js';

type User = { token: string; email: string };

/**
 * The annotation workspace in a real browser: annotator A (who switches to the
 * lab's organization on the account page) and annotator B label the same item
 * differently, and an adjudicator records the final labels.
 */
describe('web UI: annotation workspace and account', () => {
  let api: TestApi;
  let browser: Browser;
  let owner: User & { orgId: string };
  let annotationCampaign: string;
  let itemId: string;
  /** Annotator A's token in the lab (for a correction through the API). */
  let annotatorA: string;

  const join = async (name: string, role: string): Promise<User> => {
    const user = await signUp(api, name);
    const invited = await api.gql('mutation($i: InviteMemberInput!) { inviteMember(input: $i) { acceptedAt } }', { i: { email: user.email, role } }, owner.token);
    expect(invited.errors).toBeUndefined();
    const switched = await api.gql<any>('mutation($id: ID!) { switchOrganization(id: $id) { accessToken } }', { id: owner.orgId }, user.token);
    return { token: switched.data.switchOrganization.accessToken, email: user.email };
  };
  /** Labels the item the queue gives this page: one pattern with its rationale. */
  const label = async (page: Page, pattern: string, slot: 'A' | 'B') => {
    await page.goto(`${api.url}/annotate/${annotationCampaign}`);
    await page.getByRole('heading', { name: new RegExp(`you are annotator ${slot}`) }).waitFor();
    await page.getByLabel('Search the codebook').fill(pattern.split('_')[0]!);
    await page.locator(`input[type=checkbox][value=${pattern}]`).check();
    await page.getByRole('textbox', { name: /^Rationale for/ }).fill(`I saw ${pattern} in the timeline`);
  };

  beforeAll(async () => {
    requireWebBuild();
    [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
    const o = await signUp(api, 'web-lab-owner');
    owner = { token: o.token, email: o.email, orgId: o.orgId };
    const campaign = await createCampaignFixture(api.db.dataSource, { orgId: owner.orgId, repetitions: 1, agents: [{ name: 'codex', model: 'gpt-5-codex' }] });
    const key = (await createKey(api, owner.token, 'MEMBER')).key;
    const res = await fetch(`${api.url}/v1/campaigns/${campaign.campaignId}/import`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` }, body: jsonl(campaign.units.map((u, i) => recordFor(u, i))) });
    expect(res.status).toBe(200);
    const { codebooks } = (await api.gql<any>('query { codebooks { builtIn versions { id } } }', {}, owner.token)).data;
    const created = await api.gql<any>('mutation($i: CreateAnnotationCampaignInput!) { createAnnotationCampaign(input: $i) { id } }', {
      i: { campaign: campaign.campaignId, codebookVersion: codebooks.find((c: any) => c.builtIn).versions[0].id, name: 'Round 1' },
    }, owner.token);
    annotationCampaign = created.data.createAnnotationCampaign.id;
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('annotator A signs in, switches to the lab on the account page, and labels an item from the queue with the codebook checklist', async () => {
    const a = await signUp(api, 'web-annotator-a');
    await api.gql('mutation($i: InviteMemberInput!) { inviteMember(input: $i) { acceptedAt } }', { i: { email: a.email, role: 'ANNOTATOR' } }, owner.token);
    annotatorA = (await api.gql<any>('mutation($id: ID!) { switchOrganization(id: $id) { accessToken } }', { id: owner.orgId }, a.token)).data.switchOrganization.accessToken;
    const { page } = await newSession(browser);
    await page.goto(`${api.url}/login?next=/account`);
    await page.getByLabel('Email').fill(a.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: /^Switch to web-lab-owner/ }).click();
    await page.getByText(/as annotator\./).waitFor();
    await screenshot(page, 'account-annotator');
    await label(page, 'premature_termination', 'A');
    // Suggestions are offered, never pre-selected.
    expect(await page.locator('input[type=checkbox]:checked').count()).toBe(1);
    await screenshot(page, 'annotate-queue');
    await page.getByRole('button', { name: /Submit labels/ }).click();
    const done = page.getByRole('region', { name: 'Labelled in this session' });
    await done.getByRole('link').first().waitFor();
    itemId = (await done.getByRole('link').first().getAttribute('href'))!.split('/').pop()!;
    expect(await done.innerText()).toContain(': pending');
  });

  it('annotator B gets the same item and disagrees; the item then shows both labels', async () => {
    const b = await join('web-annotator-b', 'ANNOTATOR');
    const { page } = await newSession(browser, { token: b.token });
    await label(page, 'load_imbalance', 'B');
    await page.keyboard.press('Control+Enter');
    const done = page.getByRole('region', { name: 'Labelled in this session' });
    await done.getByText(/: disagreed/).waitFor();
    expect(await done.getByRole('link').first().getAttribute('href')).toBe(`/annotate/items/${itemId}`);
    await done.getByRole('link').first().click();
    expect(await page.getByTestId('item-status').innerText()).toBe('disagreed');
    await page.getByLabel('Comment').fill('The imbalance shows in the first minute');
    await page.getByRole('button', { name: 'Post comment' }).click();
    await page.getByText('The imbalance shows in the first minute').waitFor();
    // A corrects their label with evidence (same pattern: still disagreed); B, who can read it now, sees it pinned to the timeline.
    const corrected = await api.gql('mutation($i: ID!, $l: [LabelInput!]!) { submitAnnotation(item: $i, labels: $l) { revision } }', {
      i: itemId,
      l: [{ pattern: 'premature_termination', rationale: 'I saw premature_termination in the timeline', evidence: [{ agentId: 'main', from: '2025-06-01T10:05:00Z', to: '2025-06-01T10:10:00Z' }] }],
    }, annotatorA);
    expect(corrected.errors).toBeUndefined();
    await page.reload();
    const pins = page.getByTestId('evidence-pins');
    // Seconds from the first agent's start (a sub-agent may start half a second before main).
    expect(await pins.innerText()).toMatch(/^A: premature_termination: agent main from 5 min [01] s to 10 min [01] s$/);
    expect(await page.getByRole('region', { name: 'Timeline with evidence' }).locator('figcaption').innerText()).toContain('1 evidence mark pinned.');
    await expect.poll(() => page.locator('figure.chart svg').count()).toBeGreaterThanOrEqual(1);
    expect(await page.getByTestId('item-status').innerText()).toBe('disagreed');
    await screenshot(page, 'item-evidence');
  });

  it('an adjudicator records the final labels of the disagreed item, each with its source', async () => {
    const adjudicator = await join('web-adjudicator', 'ADJUDICATOR');
    const { page } = await newSession(browser, { token: adjudicator.token });
    // The annotation campaign page lists what awaits adjudication, with the agreement numbers so far.
    await page.goto(`${api.url}/annotate/${annotationCampaign}`);
    const awaiting = page.getByRole('region', { name: 'Awaiting adjudication' });
    await awaiting.getByRole('table', { name: /Disagreed items 1 of 1/ }).waitFor();
    // Nothing is reserved for an adjudicator until asked.
    await page.getByRole('button', { name: 'Reserve an item to label' }).waitFor();
    expect(await page.getByTestId('pooled-kappa').innerText()).toMatch(/Cohen's κ = (-?\d\.\d{3}|–), n = \d+ cells, prevalence [\d.]+%.* over 1 double-coded item/);
    const kappas = page.getByRole('table', { name: /Cohen's κ per pattern/ });
    for (const pattern of ['premature_termination', 'load_imbalance']) await kappas.getByRole('rowheader', { name: pattern, exact: true }).waitFor();
    await screenshot(page, 'annotation-campaign-adjudicator');
    await awaiting.getByRole('link', { name: `item ${itemId.slice(0, 8)}`, exact: true }).click();
    expect(page.url()).toBe(`${api.url}/annotate/items/${itemId}`);
    await page.getByRole('heading', { name: 'Adjudicate' }).waitFor();
    const form = page.getByRole('form', { name: 'Adjudicate' });
    await form.getByLabel(/premature_termination/).first().check();
    await form.getByRole('textbox', { name: 'Rationale for premature_termination' }).fill('A was right');
    await form.getByRole('textbox', { name: 'Adjudication rationale' }).fill('discussed');
    await screenshot(page, 'adjudicate');
    await form.getByRole('button', { name: 'Record final labels' }).click();
    await expect.poll(() => page.getByTestId('item-status').innerText()).toBe('adjudicated');
    expect(await page.getByRole('region', { name: 'Final labels (adjudicated)' }).innerText()).toContain('premature_termination from A: A was right');
    await screenshot(page, 'adjudicated');
    // Back on the campaign page: nothing awaits adjudication, and the final label is in the distribution.
    await page.goto(`${api.url}/annotate/${annotationCampaign}`);
    await page.getByText(/No item awaits adjudication/).waitFor();
    await page.getByRole('table', { name: /Distribution of final labels: 1 label/ }).getByRole('rowheader', { name: 'premature_termination', exact: true }).waitFor();
  });

  it('the owner creates an API key, shown once, and sees usage and budget', async () => {
    const { page } = await newSession(browser, { token: owner.token });
    await page.goto(`${api.url}/account`);
    // The budget shows before anything is saved.
    await expect.poll(() => page.getByTestId('budget-status').innerText().catch(() => '')).toMatch(/^Cap none; spent this month \$0\.00; overrun \$0\.00\./);
    await page.getByLabel('Key name').fill('ci');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByTestId('new-api-key').innerText()).toMatch(/^fo_[A-Za-z0-9]+_/);
    await page.getByRole('cell', { name: 'ci', exact: true }).or(page.getByRole('rowheader', { name: 'ci', exact: true })).waitFor();
    await page.getByLabel(/Monthly cap in USD/).fill('500');
    await page.getByRole('button', { name: 'Save budget' }).click();
    await page.getByText(/Cap \$500\.00; spent this month/).waitFor();
    // Billing: Stripe is off on the test server, and the page says so.
    expect(await page.getByTestId('billing-status').innerText()).toMatch(/^Stripe is off/);
    // Members: the owner invites a new person (an open invitation), then changes annotator B's role.
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByRole('table', { name: /^4 members of web-lab-owner/ }).waitFor();
    await members.getByLabel('Email to invite').fill('new-reviewer@example.com');
    await members.getByLabel('Invited role').selectOption('VIEWER');
    await members.getByRole('button', { name: 'Invite' }).click();
    expect(await page.getByTestId('invite-status').innerText()).toContain('new-reviewer@example.com is invited');
    await members.getByRole('table', { name: /Open invitations/ }).getByRole('rowheader', { name: 'new-reviewer@example.com' }).waitFor();
    const bEmail = (await members.getByRole('cell', { name: /^web-annotator-b/ }).innerText()).trim();
    await members.getByRole('combobox', { name: `Role of ${bEmail}` }).selectOption('ADJUDICATOR');
    await members.getByRole('button', { name: `Change role of ${bEmail}` }).click();
    await expect.poll(() => members.getByRole('button', { name: `Change role of ${bEmail}` }).isDisabled()).toBe(true);
    const roles = await api.gql<any>('query($id: ID!) { organization(id: $id) { members(first: 100) { nodes { role user { email } } } } }', { id: owner.orgId }, owner.token);
    expect(roles.data.organization.members.nodes.find((m: any) => m.user.email === bEmail).role).toBe('ADJUDICATOR');
    await screenshot(page, 'account-owner');
  });

  it('a non-admin sees the members without the controls', async () => {
    const viewer = await join('web-viewer', 'VIEWER');
    const { page } = await newSession(browser, { token: viewer.token });
    await page.goto(`${api.url}/account`);
    const members = page.getByRole('region', { name: 'Members' });
    await members.getByRole('table', { name: /members of web-lab-owner/ }).waitFor();
    expect(await members.getByRole('button').count()).toBe(0);
    expect(await members.innerText()).toContain('Owners and admins invite members');
  });
});
