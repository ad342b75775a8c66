import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
export const SCREENSHOTS = join(__dirname, '..', '..', 'docs', 'screenshots');

export interface OpenedPage {
  page: Page;
  context: BrowserContext;
  /** Every URL the page requested, in order. */
  requests: string[];
  /** Requests to any other origin: aborted, and listed here. */
  outside: string[];
  /** Uncaught errors in the page. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * A fresh browser context whose network reaches the service's own origin only: any other
 * origin is aborted (the service must work offline) and recorded. CSP violations are
 * recorded by a listener installed before the page's own code runs.
 */
export async function openPage(
  browser: Browser,
  origin: string,
  path: string,
  options: { width?: number; height?: number; beforeGoto?: (page: Page) => Promise<void> } = {},
): Promise<OpenedPage> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
  });
  const requests: string[] = [];
  const outside: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    requests.push(url);
    if (new URL(url).origin === origin) return route.continue();
    outside.push(url);
    return route.abort('blockedbyclient');
  });
  await context.addInitScript(() => {
    const w = globalThis as any;
    w.document.addEventListener('securitypolicyviolation', (e: any) =>
      (w.__cspViolations ??= []).push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => errors.push(err.message));
  await options.beforeGoto?.(page);
  await page.goto(origin + path);
  return { page, context, requests, outside, errors, close: () => context.close() };
}

/** Nothing left the origin, nothing broke the CSP, nothing threw. */
export async function expectCleanPage(opened: OpenedPage, origin: string): Promise<void> {
  expect(opened.outside).toEqual([]);
  expect(opened.requests.length).toBeGreaterThan(0);
  for (const url of opened.requests) expect(new URL(url).origin).toBe(origin);
  expect(await opened.page.evaluate(() => (globalThis as any).__cspViolations ?? [])).toEqual([]);
  expect(opened.errors).toEqual([]);
}

/**
 * axe-core run in the page. Evaluated through the DevTools protocol rather than added as a
 * <script>: the page's CSP rightly refuses inline scripts.
 */
export async function seriousAxeViolations(
  page: Page,
): Promise<Array<{ id: string; impact: string; nodes: string[] }>> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const w = globalThis as any;
    return (await w.axe.run(w.document, { resultTypes: ['violations'] })).violations;
  });
  return violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n: any) => n.target.join(' ')) }));
}

/** The page is no wider than the viewport (no horizontal scrolling on a phone). */
export async function pageWidth(page: Page): Promise<{ scrollWidth: number; viewport: number }> {
  return page.evaluate(() => ({
    scrollWidth: (globalThis as any).document.documentElement.scrollWidth,
    viewport: (globalThis as any).innerWidth,
  }));
}

/** Writes docs/screenshots/<name>.png when UPDATE_SCREENSHOTS=1 (committed once, shown in the README). */
export async function screenshotIfAsked(page: Page, name: string): Promise<void> {
  if (process.env.UPDATE_SCREENSHOTS !== '1') return;
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** The <dt> → <dd> texts of a description list. */
export async function fieldsOf(dl: Locator): Promise<Record<string, string>> {
  return dl.evaluate((dl) =>
    Object.fromEntries(
      [...dl.querySelectorAll('dt')].map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? '']),
    ),
  );
}

/** data-key (status bars) or id of the element that has the keyboard focus. */
export async function focused(page: Page): Promise<string | undefined> {
  return page.evaluate(() => {
    const el = (globalThis as any).document.activeElement;
    return el?.dataset?.key ?? el?.id;
  });
}
