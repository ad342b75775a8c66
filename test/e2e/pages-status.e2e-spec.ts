import type { Browser, Page } from 'playwright-core';
import { JobQueue } from '../../src/platform/jobs/job-queue';
import { COUNTRY_CODES, CountryCode } from '../../src/registers/registers';
import { ProbeScheduler } from '../../src/status/probe/probe.scheduler';
import { describeWithBrowser, launchChromium } from '../support/browser';
import { failRegister, FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { FakeGleif, startFakeGleif } from '../support/fake-gleif';
import {
  expectCleanPage,
  fieldsOf,
  focused,
  openPage,
  OpenedPage,
  pageWidth,
  screenshotIfAsked,
  seriousAxeViolations,
} from '../support/pages';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

// Probes at chosen instants (injected clock): Norway down on the 20th, up on the 21st,
// failing once then answering twice on the 22nd; no probe at all before the 20th.
const PROBES: Array<{ at: string; failing: CountryCode[] }> = [
  { at: '2026-11-20T10:00:00.000Z', failing: ['GB', 'CA', 'FR', 'NO'] },
  { at: '2026-11-21T10:00:00.000Z', failing: ['GB'] },
  { at: '2026-11-22T09:00:00.000Z', failing: ['GB', 'NO'] },
  { at: '2026-11-22T10:00:00.000Z', failing: ['GB'] },
  { at: '2026-11-22T11:00:00.000Z', failing: ['GB'] },
];
// Still in the 11:00 slot, so that the scheduler's own ticks during the test probe nothing new.
const NOW = '2026-11-22T11:02:00.000Z';

const COLOURS = { up: 'rgb(26, 127, 55)', down: 'rgb(207, 34, 46)', none: 'rgb(209, 217, 224)' };

describeWithBrowser('pages-status')('the status page (/status)', () => {
  let fakes: FakeRegisters;
  let gleif: FakeGleif;
  let app: TestApp;
  let browser: Browser;
  let opened: OpenedPage | undefined;

  async function probe(at: string, failing: CountryCode[]): Promise<void> {
    resetFakeRegisters(fakes);
    for (const cc of failing) failRegister(fakes, cc);
    app.clock.set(at);
    await app.get(ProbeScheduler).tick();
    await app.get(JobQueue).drain();
  }

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    gleif = await startFakeGleif(); // GLEIF's index answers every probe
    for (const cc of PROBES[0].failing) failRegister(fakes, cc);
    // The boot round probes the first instant.
    app = await startTestApp({ now: PROBES[0].at, env: { ...fakes.env, ...gleif.env } });
    await app.get(JobQueue).drain();
    for (const p of PROBES.slice(1)) await probe(p.at, p.failing);
    app.clock.set(NOW);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await fakes?.stop();
    await gleif?.stop();
  });
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  async function open(width = 1280, beforeGoto?: (page: Page) => Promise<void>): Promise<Page> {
    opened = await openPage(browser, app.url, '/status', { width, beforeGoto });
    await opened.page.locator('#register-NO').waitFor();
    return opened.page;
  }

  const bar = (page: Page, country: string, date: string) => page.locator(`[data-key="${country}:${date}"]`);
  const colour = (page: Page, country: string, date: string) =>
    bar(page, country, date).evaluate((el) => (globalThis as any).getComputedStyle(el).backgroundColor);

  it('draws 90 daily bars per register from the probe history: down red, up green, no data grey and said so', async () => {
    const page = await open();
    // The registers, then GLEIF's LEI index.
    expect(await page.locator('section.register').count()).toBe(COUNTRY_CODES.length + 1);
    expect(await page.locator('section.register.index h2').textContent()).toBe('GLEIF — LEI index, not a register');
    for (const strip of await page.locator('ol.days').all()) expect(await strip.locator('li').count()).toBe(90);
    expect(await page.locator('section:has(#register-NO) li.day').first().getAttribute('data-key')).toBe(
      'NO:2026-08-25',
    );

    expect(await bar(page, 'NO', '2026-11-20').getAttribute('class')).toBe('day day-down');
    expect(await colour(page, 'NO', '2026-11-20')).toBe(COLOURS.down);
    expect(await bar(page, 'NO', '2026-11-20').getAttribute('title')).toBe('2026-11-20: 0% up, 0 of 1 probe answered');
    expect(await bar(page, 'NO', '2026-11-21').getAttribute('class')).toBe('day day-up');
    expect(await colour(page, 'NO', '2026-11-21')).toBe(COLOURS.up);
    expect(await bar(page, 'NO', '2026-11-21').textContent()).toBe('2026-11-21: 100% up, 1 of 1 probe answered');
    expect(await bar(page, 'NO', '2026-11-19').getAttribute('class')).toBe('day day-none');
    expect(await colour(page, 'NO', '2026-11-19')).toBe(COLOURS.none);
    expect(await bar(page, 'NO', '2026-11-19').getAttribute('title')).toBe('2026-11-19: no data (no probe ran)');
    expect(await bar(page, 'NO', '2026-11-22').getAttribute('title')).toBe(
      '2026-11-22: 66.66% up, 2 of 3 probes answered',
    );
    expect(await bar(page, 'NO', '2026-11-22').getAttribute('class')).toBe('day day-major');
    // Australia is paused (no GUID): never probed, so 90 days of no data, none of them up.
    expect(await page.locator('section:has(#register-AU) li.day-none').count()).toBe(90);
    await expectCleanPage(opened!, app.url);
  });

  it('shows each register’s status with its reason, uptime over 24 h / 7 d / 30 d / 90 d and the last probe', async () => {
    const page = await open();
    const no = page.locator('section:has(#register-NO)');
    expect(await no.locator('h2').textContent()).toBe('Brønnøysund — Norway');
    expect(await no.locator('.status').textContent()).toBe('Live');
    expect(await fieldsOf(no.locator('dl.uptime'))).toEqual({
      'Uptime, 24 hours': '66.66% (3 probes)',
      'Uptime, 7 days': '60% (5 probes)',
      'Uptime, 30 days': '60% (5 probes)',
      'Uptime, 90 days': '60% (5 probes)',
    });
    expect(await no.locator('.last-probe').textContent()).toMatch(
      /^Last probe 2026-11-22 11:00 UTC: answered in \d+ ms, HTTP 200\.$/,
    );

    // Failing every probe of the last day: an outage, not merely degraded.
    const gb = page.locator('section:has(#register-GB)');
    expect(await gb.locator('.status').textContent()).toBe('Outage');
    expect(await gb.locator('.reason').textContent()).toMatch(/http_5xx.* Since 2026-11-20 10:00 UTC\.$/);
    expect(await gb.locator('.last-probe').textContent()).toMatch(
      /failed after \d+ ms: http_5xx, HTTP 503\. Last success: never recorded\.$/,
    );
    expect((await fieldsOf(gb.locator('dl.uptime')))['Uptime, 90 days']).toBe('0% (5 probes)');

    const au = page.locator('section:has(#register-AU)');
    expect(await au.locator('.status').textContent()).toBe('Paused');
    expect(await page.locator('#summary').textContent()).toMatch(
      // France reads a mirror without an INSEE key: degraded though it answers.
      /^\d+ of \d+ registers are live\. Outage: Companies House \(GB\)\. Degraded: INSEE Sirene \(FR\)\. Paused: ABR \(AU\), CVR \(DK\)\.$/,
    );
    expect(await fieldsOf(au.locator('dl.uptime'))).toEqual({
      'Uptime, 24 hours': 'no data',
      'Uptime, 7 days': 'no data',
      'Uptime, 30 days': 'no data',
      'Uptime, 90 days': 'no data',
    });
    expect(await au.locator('.last-probe').textContent()).toBe('Not probed while paused.');

    expect(await page.getByRole('link', { name: 'This page’s data as JSON' }).getAttribute('href')).toBe(
      '/api/public/v1/status',
    );
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await pageWidth(page)).toEqual({ scrollWidth: 1280, viewport: 1280 });
    await screenshotIfAsked(page, 'status');
    await expectCleanPage(opened!, app.url);
  });

  it('is one tab stop per strip; arrow keys move between days and the focused day is spelled out', async () => {
    const page = await open();
    const detail = page.locator('section:has(#register-NO) .day-detail');
    await bar(page, 'GB', '2026-11-22').focus();
    await page.keyboard.press('Tab'); // the next strip, not the next of 90 bars
    expect(await focused(page)).toBe('AU:2026-11-22');
    await bar(page, 'NO', '2026-11-22').focus();
    await page.keyboard.press('ArrowLeft');
    expect(await focused(page)).toBe('NO:2026-11-21');
    expect(await detail.textContent()).toBe('2026-11-21: 100% up, 1 of 1 probe answered');
    await page.keyboard.press('Home');
    expect(await detail.textContent()).toBe('2026-08-25: no data (no probe ran)');
    expect(await page.locator('section:has(#register-NO) li[tabindex="0"]').count()).toBe(1);
    await bar(page, 'NO', '2026-11-20').hover();
    expect(await detail.textContent()).toBe('2026-11-20: 0% up, 0 of 1 probe answered');
  });

  it('refreshes itself every minute, keeping the focused day, and not while the tab is hidden', async () => {
    // The page's clock stands still unless the test moves it: time the test spends elsewhere
    // (a probe on a busy machine) must not count towards the page's minute.
    const page = await open(1280, async (p) => {
      const start = Date.now();
      await p.clock.install({ time: start });
      await p.clock.pauseAt(start + 1_000);
    });
    const statusCalls = () => opened!.requests.filter((u) => u.endsWith('/api/public/v1/status')).length;
    const no = page.locator('section:has(#register-NO)');
    expect(await no.locator('.status').textContent()).toBe('Live');
    expect(statusCalls()).toBe(1);
    await bar(page, 'NO', '2026-11-21').focus();

    await probe('2026-11-22T11:05:00.000Z', ['GB', 'NO']); // Norway fails: degraded at once
    await page.clock.runFor(59_000);
    expect(statusCalls()).toBe(1);
    await page.clock.runFor(1_000);
    await no.locator('.status', { hasText: 'degraded' }).waitFor();
    expect(statusCalls()).toBe(2);
    expect(await bar(page, 'NO', '2026-11-22').getAttribute('title')).toBe(
      '2026-11-22: 50% up, 2 of 4 probes answered',
    );
    expect(await focused(page)).toBe('NO:2026-11-21');
    app.clock.set(NOW);

    // A hidden tab spends no requests; shown again, it catches up at once.
    const setHidden = (hidden: boolean) =>
      page.evaluate((h) => {
        const d = (globalThis as any).document;
        Object.defineProperty(d, 'hidden', { configurable: true, get: () => h });
        d.dispatchEvent(new (globalThis as any).Event('visibilitychange'));
      }, hidden);
    await setHidden(true);
    await page.clock.runFor(180_000);
    expect(statusCalls()).toBe(2);
    const caughtUp = page.waitForResponse((r) => r.url().endsWith('/api/public/v1/status'));
    await setHidden(false);
    await caughtUp;
    expect(statusCalls()).toBe(3);
  });

  it('fits a 375 px phone without horizontal scrolling, with no serious accessibility violation', async () => {
    const page = await open(375);
    expect(await pageWidth(page)).toEqual({ scrollWidth: 375, viewport: 375 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await expectCleanPage(opened!, app.url);
  });
});
