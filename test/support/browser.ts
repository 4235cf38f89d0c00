import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ROOT } from './processes.js';

/** Screenshots of every page the web tests visit (gitignored; listed in CI output). */
export const SCREENSHOT_DIR = join(ROOT, 'test-output', 'screenshots');
const CHROMIUM = '/usr/bin/chromium';

/** Debian's chromium, headless (never a downloaded browser): one per test file. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/** A context whose session already holds `token` (what signing in stores), or anonymous. */
export async function newSession(browser: Browser, options: { token?: string; width?: number; height?: number } = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 } });
  if (options.token) await context.addInitScript(`sessionStorage.setItem('fanout.accessToken', ${JSON.stringify(options.token)})`);
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  const path = join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Fails with the page's console errors, which otherwise vanish with the browser. */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}
