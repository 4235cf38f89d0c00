import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, startTestApi, type TestApi } from '../support/api.js';
import { collectErrors, launchBrowser, newSession, screenshot } from '../support/browser.js';
import { CREATE, REGISTER_AGENT, REGISTER_BENCHMARK, agentManifest, benchmarkManifest, campaignManifest } from '../support/manifests.js';
import { requireWebBuild } from '../support/web-build.js';

/** The public pages, anonymously, in a real browser against the real API: the leaderboard, a public campaign, and "not found". */
describe('web UI: public leaderboard', () => {
  let api: TestApi;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let publicCampaign: string;
  let privateCampaign: string;

  async function fill(token: string, campaignId: string, costUsd: number) {
    const res = await api.gql<any>('query($f: ExecutionFilterInput) { executions(filter: $f, first: 100) { nodes { agentName model mode benchmark suite task difficulty repetition } } }', { f: { campaignId } }, token);
    const lines = res.data.executions.nodes.map((n: any, i: number) =>
      JSON.stringify({
        agent: n.agentName, model: n.model, benchmark: n.benchmark, suite: n.suite, task: n.task, difficulty: n.difficulty.toLowerCase(), mode: n.mode, repetition: n.repetition,
        outcome: 'completed', testsPassed: i % 3 === 0 ? 10 : 4, testsTotal: 10, resolved: i % 3 === 0, wallSeconds: 600 + i, shellCalls: 20,
        usage: { inputTokens: 1_000_000, cacheReadTokens: 500_000, cacheWriteTokens: 0, outputTokens: 50_000, reasoningTokens: 0 },
        costUsd: n.mode === 'concurrent' ? costUsd * 2 : costUsd,
        agents: [{ id: 'main', parentId: null, start: '2026-01-01T10:00:00Z', end: '2026-01-01T10:10:00Z' }],
      }),
    );
    const imported = await fetch(`${api.url}/v1/campaigns/${campaignId}/import`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` }, body: lines.join('\n') });
    expect(imported.status).toBe(200);
  }

  beforeAll(async () => {
    requireWebBuild();
    [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
    const a = await signUp(api, 'web-board-a');
    const b = await signUp(api, 'web-board-b');
    const run = async (query: string, m: unknown, token: string) => {
      const res = await api.gql<any>(query, { m }, token);
      if (res.errors) throw new Error(JSON.stringify(res.errors));
      return res.data;
    };
    await run(REGISTER_BENCHMARK, benchmarkManifest({ id: 'web-board', visibility: 'public', groups: [2, 2, 2] }), a.token);
    await run(REGISTER_AGENT, agentManifest({ name: 'alpha' }), a.token);
    await run(REGISTER_AGENT, agentManifest({ name: 'beta' }), b.token);
    publicCampaign = (await run(CREATE, { ...campaignManifest({ benchmark: 'web-board', agent: 'alpha' }), name: 'Alpha public study', visibility: 'public' }, a.token)).createCampaign.id;
    privateCampaign = (await run(CREATE, { ...campaignManifest({ benchmark: 'web-board', agent: 'beta' }), name: 'Beta private study' }, b.token)).createCampaign.id;
    await fill(a.token, publicCampaign, 1.5);
    await fill(b.token, privateCampaign, 0.1);
    ({ page } = await newSession(browser));
    errors = collectErrors(page);
  });
  afterAll(async () => {
    await browser?.close();
    await api?.close();
  });

  it('shows the board of public campaigns with intervals, sorts it, and draws the cost vs task-pass Pareto chart', async () => {
    await page.goto(`${api.url}/?benchmark=web-board`);
    const table = page.getByRole('table', { name: /Agents by task pass/ });
    await table.waitFor();
    const rows = table.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    const text = await table.innerText();
    expect(text).toContain('alpha v1');
    expect(text).not.toContain('beta');
    expect(text).toMatch(/\d+\.\d \[\d+\.\d, \d+\.\d\]/);
    // Sorting by cost puts sequential (the cheaper mode) first, and says so to assistive technology.
    const cost = page.getByRole('columnheader', { name: /^Cost \$/ });
    await cost.getByRole('button').click();
    await cost.getByRole('button').click();
    expect(await cost.getAttribute('aria-sort')).toBe('ascending');
    expect(await rows.first().locator('td').first().innerText()).toBe('sequential');
    await expect.poll(() => page.locator('figure.chart svg').count()).toBeGreaterThan(0);
    expect(await page.locator('figure.chart figcaption').innerText()).toContain('Pareto front');
    await screenshot(page, 'leaderboard-1280');

    // Filters live in the URL: a mode and a difficulty narrow the rows.
    await page.getByLabel('Mode').selectOption('concurrent');
    await page.getByLabel('Difficulty').selectOption('HARD');
    await expect.poll(() => rows.count()).toBe(1);
    expect(page.url()).toContain('mode=concurrent');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${api.url}/?benchmark=web-board`);
    await table.waitFor();
    // Nothing but the table's own scroll area is wider than the phone.
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await screenshot(page, 'leaderboard-390');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it('lists the public benchmarks in the benchmark picker and shows the one picked', async () => {
    await page.goto(`${api.url}/`);
    const picker = page.getByRole('combobox', { name: 'Benchmark' });
    await expect.poll(() => picker.locator('option[value="web-board"]').count()).toBe(1);
    expect(await picker.locator('option[value="web-board"]').innerText()).toBe('Test benchmark (web-board) 1.0.0');
    await screenshot(page, 'leaderboard-picker');
    await picker.selectOption('web-board');
    await page.getByRole('table', { name: /Agents by task pass/ }).waitFor();
    expect(page.url()).toBe(`${api.url}/?benchmark=web-board`);
  });

  it('links each row to its public campaign, whose page and executions anyone can open', async () => {
    await page.goto(`${api.url}/?benchmark=web-board`);
    await page.getByRole('link', { name: 'Alpha public study' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Alpha public study' }).waitFor();
    expect(page.url()).toBe(`${api.url}/campaigns/${publicCampaign}`);
    expect(await page.getByTestId('progress-summary').innerText()).toBe('12 of 12 finished');
    await page.getByRole('table', { name: /Executions 1 to 12 of 12/ }).waitFor();
    await screenshot(page, 'campaign-public');
    await page.getByRole('table', { name: /Executions/ }).locator('tbody tr th a').first().click();
    await page.getByRole('heading', { name: 'Grade' }).waitFor();
    await screenshot(page, 'execution-public');
  });

  it('answers "not found" for a private campaign, a missing one and an unknown benchmark, never an error page', async () => {
    for (const id of [privateCampaign, randomUUID()]) {
      await page.goto(`${api.url}/campaigns/${id}`);
      await page.getByRole('heading', { name: 'Not found' }).waitFor();
    }
    await screenshot(page, 'campaign-not-found');
    await page.goto(`${api.url}/?benchmark=no-such-board`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    // The API's own paths are untouched by the UI's fallback.
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${api.url}/v1/campaigns/${privateCampaign}/export`, { headers: { accept: 'text/html' } })).status).toBe(404);
    expect(errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
  });
});
