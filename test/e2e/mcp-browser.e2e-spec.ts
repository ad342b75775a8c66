import type { Browser } from 'playwright-core';
import { MCP_ACCOUNT_TOOLS } from '../../src/mcp/mcp-account-tools';
import { MCP_TOOLS } from '../../src/mcp/mcp-tools';
import { signUp } from '../support/event-side';
import { describeWithBrowser, launchChromium, startOtherOrigin } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const describeBrowser = describeWithBrowser('mcp-browser');

/** The page another site would serve: it calls the MCP endpoint cross-origin with fetch. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>agent</title>
<script>
async function listTools(endpoint, key) {
  const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'MCP-Protocol-Version': '2025-11-25' };
  if (key) headers.Authorization = 'Bearer ' + key;
  const res = await fetch(endpoint, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  return { status: res.status, remaining: res.headers.get('X-RateLimit-Remaining'), reset: res.headers.get('X-RateLimit-Reset'), challenge: res.headers.get('WWW-Authenticate'), body: await res.json() };
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

  it('sends an API key from the page (CORS allows Authorization) and reads a refused key’s challenge', async () => {
    const customer = await signUp(app.url);
    const page = await browser.newPage();
    await page.goto(siteUrl);
    const call = (key: string) =>
      page.evaluate(
        ([endpoint, k]) =>
          (globalThis as unknown as { listTools(e: string, k: string): Promise<any> }).listTools(endpoint, k),
        [`${app.url}/api/public/v1/mcp`, key] as const,
      );
    const keyed = await call(customer.key);
    expect(keyed.status).toBe(200);
    expect(keyed.body.result.tools.map((t: { name: string }) => t.name)).toEqual(
      [...MCP_TOOLS, ...MCP_ACCOUNT_TOOLS].map((t) => t.name),
    );
    const refused = await call('rl_wrong');
    expect(refused.status).toBe(401);
    expect(refused.challenge).toMatch(/^Bearer realm="registry-lookup", error="invalid_token"/);
    expect(refused.body).toMatchObject({ code: 'unauthorized' });
    await page.close();
  });
});
