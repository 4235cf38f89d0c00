import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, signUp, startTestApi, type TestApi } from '../support/api.js';
import { collectErrors, launchBrowser, newSession, screenshot } from '../support/browser.js';
import { createCampaignFixture, jsonl, recordFor, type CampaignFixture, type FixtureUnit } from '../support/campaign-fixture.js';
import { requireWebBuild } from '../support/web-build.js';

/**
 * A signed-in researcher in a real browser: logs in, watches a running
 * campaign's progress move as results arrive, opens the paired comparison
 * and an execution's timeline.
 */
describe('web UI: campaign, comparison and timeline', () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let owner: { token: string; orgId: string; email: string };
  let key: string;
  let campaign: CampaignFixture;
  let timelineExecution: FixtureUnit;

  /** codex resolves flask only when concurrent, claude click only when sequential: one discordant pair each way. */
  const record = (u: FixtureUnit) => {
    const r = recordFor(u, 0, { resolved: (u.agent === 'codex' && u.task === 'flask' && u.mode === 'concurrent') || (u.agent === 'claude' && u.task === 'click' && u.mode === 'sequential') });
    // Delegation grows with difficulty when concurrent: easy tasks spawn one sub-agent, claude spawns a third on medium ones.
    if (u.mode === 'concurrent' && u.difficulty === 'easy') r.agents = r.agents.slice(0, 2);
    if (u.mode === 'concurrent' && u.difficulty === 'medium' && u.agent === 'claude') r.agents = [...r.agents, { id: 'b', parentId: 'main', start: '2025-06-01T10:10:00Z', end: '2025-06-01T10:30:00Z' }];
    return r;
  };
  const importUnits = async (units: FixtureUnit[]) => {
    const res = await fetch(`${api.url}/v1/campaigns/${campaign.campaignId}/import`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${key}` }, body: jsonl(units.map(record)) });
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    requireWebBuild();
    [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
    owner = await signUp(api, 'web-researcher');
    key = (await createKey(api, owner.token, 'ADMIN')).key;
    campaign = await createCampaignFixture(api.db.dataSource, { orgId: owner.orgId, name: 'Concurrency study' });
    timelineExecution = campaign.units.find((u) => u.mode === 'concurrent' && u.agent === 'codex' && u.task === 'flask' && u.repetition === 0)!;
    const t = (s: number) => new Date(Date.UTC(2025, 5, 1, 10, 0, s)).toISOString();
    const events = [
      ['e1', 'agent.start', 'main', t(0), { parentAgentId: null }],
      ['e2', 'model.call', 'main', t(30), { model: 'gpt-5-codex' }],
      ['e3', 'tool.call', 'main', t(200), { tool: 'spawn_agent' }],
      ['e4', 'agent.start', 'a', t(240), { parentAgentId: 'main' }],
      ['e5', 'file.write', 'a', t(400), { path: 'src/app.py', bytes: 10 }],
      ['e6', 'tool.call', 'a', t(600), { tool: 'shell', command: 'pytest' }],
      ['e7', 'file.write', 'main', t(700), { path: 'src/app.py', bytes: 12 }],
    ] as const;
    for (const [id, type, agent, time, data] of events) {
      await api.db.dataSource.query(`INSERT INTO trajectory_events (execution_id, attempt, event_id, org_id, type, agent_id, time, data) VALUES ($1, 1, $2, $3, $4, $5, $6, $7)`, [
        timelineExecution.id, id, owner.orgId, type, agent, time, JSON.stringify(data),
      ]);
    }
    ({ page } = await newSession(browser));
    errors = collectErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('signs in and lists the organization\'s campaigns', async () => {
    await page.goto(`${api.url}/login`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Concurrency study' }).waitFor();
    await screenshot(page, 'campaigns');
  });

  it('shows a running campaign\'s progress change without a reload, with spend against the cap', async () => {
    const launched = await api.gql<any>('mutation($id: ID!) { launchCampaign(id: $id) { status } }', { id: campaign.campaignId }, owner.token);
    expect(launched.errors).toBeUndefined();
    await page.getByRole('link', { name: 'Concurrency study' }).click();
    const summary = page.getByTestId('progress-summary');
    await expect.poll(() => summary.textContent()).toBe('0 of 24 finished');
    expect(await page.getByRole('region', { name: 'Spend against the cap' }).innerText()).toMatch(/budget cap/);
    await screenshot(page, 'campaign-running-before');
    await importUnits(campaign.units.filter((u) => u.repetition === 0));
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe('12 of 24 finished');
    await importUnits(campaign.units.filter((u) => u.repetition === 1));
    await expect.poll(() => summary.textContent(), { timeout: 15_000 }).toBe('24 of 24 finished');
    await page.getByRole('table', { name: /Executions 1 to 24 of 24/ }).waitFor();
    await screenshot(page, 'campaign-running-after');
  });

  it('opens the paired comparison: Table 2 with directions, McNemar with Holm and its family, discordant pairs linked', async () => {
    await page.getByRole('link', { name: /Compare concurrent vs sequential/ }).click();
    await page.getByRole('heading', { name: 'Exact McNemar with Holm' }).waitFor();
    expect(await page.getByTestId('family').innerText()).toMatch(/Family: pooled.*m = 2 tests/);
    // Color is never the only signal: each directed cell also carries an arrow and a text label.
    expect(await page.locator('td.ab-better .dir').first().getAttribute('aria-label')).toBe('A better');
    expect(await page.locator('td.ab-worse').count()).toBeGreaterThan(0);
    const discordant = page.getByRole('region', { name: /Discordant pairs/ });
    expect(await discordant.getByRole('listitem').count()).toBe(4);
    await expect.poll(() => page.locator('figure.chart svg').count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'comparison');
    await page.getByRole('combobox', { name: 'Holm family' }).selectOption('PER_BENCHMARK');
    await expect.poll(() => page.getByTestId('family').innerText()).toMatch(/Family: perBenchmark/);
  });

  it('opens the delegation view from the campaign: by-difficulty charts per agent, the table, and Spearman with its Holm family', async () => {
    await page.goto(`${api.url}/campaigns/${campaign.campaignId}`);
    await page.getByRole('link', { name: 'Delegation by difficulty' }).click();
    await page.getByRole('heading', { level: 1, name: 'Delegation · Concurrency study' }).waitFor();
    const table = page.getByRole('table', { name: /Delegation by agent, benchmark and difficulty/ });
    await table.waitFor();
    // 2 agents x 3 difficulties, concurrent mode: one sub-agent on easy tasks (never overlapping), two or three (overlapping) above.
    expect(await table.locator('tbody tr').count()).toBe(6);
    expect(await table.locator('tbody tr').first().innerText()).toMatch(/claude\s+repo-rebuild\s+easy\s+2\s+1\.00\s+1\.00\s+0\.00.*2 \(100\.0%\)/);
    await expect.poll(() => page.locator('figure.chart').filter({ has: page.locator('svg') }).count()).toBe(2);
    const captions = await page.locator('figure.chart figcaption').allInnerTexts();
    expect(captions[0]).toMatch(/^Mean sub-agents created per difficulty.*claude: easy 1\.00, medium 3\.00, hard 2\.00; codex: easy 1\.00, medium 2\.00, hard 2\.00\./);
    expect(captions[1]).toMatch(/^Mean peak of concurrent sub-agents/);
    expect(await page.getByTestId('family').innerText()).toMatch(/over m = 4 tests/);
    const spearman = page.getByRole('table', { name: /Spearman ρ of difficulty/ }).locator('tbody tr');
    expect(await spearman.count()).toBe(4);
    expect(await spearman.first().innerText()).toMatch(/claude\s+repo-rebuild\s+created\s+6\s+0\.\d{3}\s/);
    await screenshot(page, 'delegation');
    await page.setViewportSize({ width: 390, height: 844 });
    await table.waitFor();
    await expect.poll(() => page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(page, 'delegation-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('opens an execution\'s timeline: every agent as a bar, overlap shaded, events as marks, paged events and the paired run', async () => {
    await page.goto(`${api.url}/executions/${timelineExecution.id}`);
    await page.getByRole('heading', { name: 'Timeline' }).waitFor();
    await page.getByRole('table', { name: /7 of 7 events/ }).waitFor();
    const caption = await page.locator('figure.chart figcaption').innerText();
    expect(caption).toContain('3 agents (2 sub-agents)');
    expect(caption).toMatch(/overlap for [1-9]/);
    expect(caption).toContain('5 events marked');
    await screenshot(page, 'execution-timeline');
    await page.getByLabel('file.write').check();
    await page.getByRole('table', { name: /2 of 2 events/ }).waitFor();
    await page.getByRole('link', { name: 'the same task in sequential mode' }).click();
    await page.getByRole('heading', { level: 1, name: /codex · sequential · flask/ }).waitFor();
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});
