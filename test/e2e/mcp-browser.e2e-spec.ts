import type { Browser } from 'playwright-core';
import { MCP_TOOLS } from '../../src/mcp/mcp-tools';
import { describeWithBrowser, launchChromium, startOtherOrigin } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const describeBrowser = describeWithBrowser('mcp-browser');

/** The page another site would serve: it calls the MCP endpoint cross-origin with fetch. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>agent</title>
<script>
async function listTools(endpoint) {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return { status: res.status, remaining: res.headers.get('X-RateLimit-Remaining'), reset: res.headers.get('X-RateLimit-Reset'), body: await res.json() };
}
</script>`;

describeBrowser('MCP from a browser page on another origin (headless Chromium)', () => {
  let app: TestApp;
  let site: { url: string; close: () => Promise<void> };
  let siteUrl: string;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    site = await startOtherOrigin(PAGE);
    siteUrl = site.url;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
    await app?.close();
  });

  it('calls tools/list with fetch and reads the result and X-RateLimit-Remaining', async () => {
    const page = await browser.newPage();
    await page.goto(siteUrl);
    expect(new URL(page.url()).origin).not.toBe(new URL(app.url).origin);
    const answer = await page.evaluate(
      (endpoint) => (globalThis as unknown as { listTools(e: string): Promise<any> }).listTools(endpoint),
      `${app.url}/api/public/v1/mcp`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.result.tools.map((t: { name: string }) => t.name)).toEqual(MCP_TOOLS.map((t) => t.name));
    expect(answer.remaining).toMatch(/^\d+$/);
    expect(Number(answer.remaining)).toBeLessThan(app.config.rateLimit.perHour);
    expect(answer.reset).toMatch(/^\d+$/);
    await page.close();
  });
});
