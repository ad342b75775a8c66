import type { Browser } from 'playwright-core';
import { describeWithBrowser, launchChromium, startOtherOrigin } from '../support/browser';
import { startTestApp, TestApp } from '../support/test-app';
import { COUNTRY_CODES } from '../../src/registers/registers';

jest.setTimeout(120_000);

const PAGE = `<!doctype html><meta charset="utf-8"><title>another site</title>
<script>
async function readRegisters(url) {
  const res = await fetch(url);
  return {
    status: res.status,
    remaining: res.headers.get('X-RateLimit-Remaining'),
    reset: res.headers.get('X-RateLimit-Reset'),
    count: (await res.json()).count,
  };
}
async function readError(url) {
  const res = await fetch(url);
  return { status: res.status, remaining: res.headers.get('X-RateLimit-Remaining'), body: await res.json() };
}
</script>`;

describeWithBrowser('cors')(
  'CORS: browser code on another origin reads the API and its rate-limit headers (headless Chromium)',
  () => {
    let app: TestApp;
    let site: { url: string; close: () => Promise<void> };
    let browser: Browser;

    beforeAll(async () => {
      app = await startTestApp();
      site = await startOtherOrigin(PAGE);
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await site?.close();
      await app?.close();
    });

    it('fetches /registers from a page served elsewhere and reads X-RateLimit-Remaining', async () => {
      const page = await browser.newPage();
      await page.goto(site.url);
      expect(new URL(page.url()).origin).not.toBe(new URL(app.url).origin);
      const answer = await page.evaluate(
        (url) => (globalThis as any).readRegisters(url),
        `${app.url}/api/public/v1/registers`,
      );
      expect(answer).toEqual({
        status: 200,
        remaining: expect.stringMatching(/^\d+$/),
        reset: expect.stringMatching(/^\d+$/),
        count: COUNTRY_CODES.length,
      });
      expect(Number(answer.remaining)).toBe(app.config.rateLimit.perHour - 1);
      await page.close();
    });

    it('lets the page read error bodies and their headers too', async () => {
      const page = await browser.newPage();
      await page.goto(site.url);
      const answer = await page.evaluate(
        (url) => (globalThis as any).readError(url),
        `${app.url}/api/public/v1/search?country=NO`,
      );
      expect(answer.status).toBe(400);
      expect(answer.remaining).toMatch(/^\d+$/);
      expect(answer.body.code).toBe('missing_parameter');
      await page.close();
    });

    it('answers a preflight for any origin, without credentials', async () => {
      const res = await fetch(`${app.url}/api/public/v1/registers`, {
        method: 'OPTIONS',
        headers: {
          Origin: 'https://example.org',
          'Access-Control-Request-Method': 'GET',
          'Access-Control-Request-Headers': 'content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      const direct = await fetch(`${app.url}/api/public/v1/registers`, { headers: { Origin: 'https://example.org' } });
      expect(direct.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
    });
  },
);
