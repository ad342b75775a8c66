import type { Browser } from 'playwright-core';
import { JobQueue } from '../../src/platform/jobs/job-queue';
import { describeWithBrowser, launchChromium } from '../support/browser';
import { importSample } from '../support/datasets';
import { failRegister, FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { COUNTRY_CODES } from '../../src/registers/registers';
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

const NOW = '2026-11-22T10:15:30.123Z';

/**
 * The search page in headless Chromium against the real app: Norway answered by a fake
 * register replaying recorded responses (official), or failing (the fallback dataset
 * answers), with the browser's network closed to every other origin.
 */
describeWithBrowser('pages-search')('the search page (/)', () => {
  let fakes: FakeRegisters;
  let app: TestApp;
  let browser: Browser;
  let opened: OpenedPage | undefined;

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({ now: NOW, env: fakes.env });
    await app.get(JobQueue).drain(); // the boot probes: Norway answers, so it is live
    await importSample(app, 'NO');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await fakes?.stop();
  });
  beforeEach(() => resetFakeRegisters(fakes));
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  async function open(path: string, width = 1280) {
    opened = await openPage(browser, app.url, path, { width });
    await opened.page.locator('#country option[value="NO"]').waitFor({ state: 'attached' });
    return opened.page;
  }

  async function remaining(): Promise<number> {
    const res = await fetch(`${app.url}/api/public/v1/registers`);
    return Number(res.headers.get('x-ratelimit-remaining'));
  }

  it('lists every register from /registers with its status, and shows the requests left (the page itself costs none)', async () => {
    const before = await remaining();
    const page = await open('/');
    const options = await page.locator('#country option').allTextContents();
    expect(options).toHaveLength(COUNTRY_CODES.length);
    expect(options).toContain('Norway — Brønnøysund (live)');
    expect(options).toContain('Australia — ABR (paused)');
    // HTML, script and stylesheet were loaded; only the one /registers call was counted.
    expect(opened!.requests.map((u) => new URL(u).pathname)).toEqual(
      expect.arrayContaining(['/', '/assets/search.js', '/assets/styles.css', '/api/public/v1/registers']),
    );
    await expect(page.locator('#quota').textContent()).resolves.toBe(`${before - 1} requests left this hour`);
    await expectCleanPage(opened!, app.url);
  });

  it('official case: Enter runs the search, the URL keeps it, each result shows its fields, an Official badge and the record link', async () => {
    const page = await open('/');
    await page.getByLabel('Country').selectOption('NO');
    await page.getByLabel('Company name or number').fill('Sesam');
    await page.getByLabel('Company name or number').press('Enter');
    await page.locator('#message', { hasText: 'found' }).waitFor();
    expect(await page.locator('#message').textContent()).toBe('2 companies found in Brønnøysund (Norway).');
    expect(new URL(page.url()).search).toBe('?country=NO&q=Sesam');

    const results = page.locator('.result');
    expect(await results.count()).toBe(2);
    const first = results.first();
    expect(await first.locator('h3').textContent()).toBe('SESAM AS');
    expect(await first.locator('.badge').allTextContents()).toEqual(['Official']);
    expect(await page.locator('.badge-fallback, .warning').count()).toBe(0);
    expect(await page.locator('.register-line .status').textContent()).toBe('live');
    expect(await fieldsOf(page.locator('.result dl.fields').first())).toMatchObject({
      'Registration number': '976030788',
      Status: 'Registrert (active)',
      'Legal form': 'Aksjeselskap',
      Incorporated: '1995-12-12',
      Source: 'Brønnøysund’s own API, read 2026-11-22 10:15 UTC',
    });
    expect((await fieldsOf(page.locator('.result dl.fields').first())).Address).toContain('TRONDHEIM');
    const link = first.getByRole('link', { name: /View at Brønnøysund/ });
    expect(await link.getAttribute('href')).toBe('https://virksomhet.brreg.no/nb/oppslag/enheter/976030788');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');

    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await pageWidth(page)).toEqual({ scrollWidth: 1280, viewport: 1280 });
    await screenshotIfAsked(page, 'search');
    await expectCleanPage(opened!, app.url);
  });

  it('opens a result from the keyboard: its officers from /companies, with the provenance of that read', async () => {
    const page = await open('/?country=NO&q=883%20603%20362');
    await page.locator('.result h3', { hasText: 'ABG SUNDAL COLLIER ASA' }).waitFor();
    // Keyboard only: from the search box, Tab reaches the button, then the first result's controls.
    await page.getByLabel('Company name or number').focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('search-button');
    await page.keyboard.press('Tab');
    const button = page.getByRole('button', { name: 'Show officers of ABG SUNDAL COLLIER ASA' });
    expect(await button.evaluate((el) => el === (globalThis as any).document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await page.locator('.officers li').first().waitFor();
    expect(await button.getAttribute('aria-expanded')).toBe('true');
    expect(opened!.requests.some((u) => u.endsWith('/api/public/v1/companies/NO/883603362'))).toBe(true);
    expect(await page.locator('.officers li').count()).toBeGreaterThan(3);
    expect(await page.locator('.officers').textContent()).toContain('a company');
    expect(await page.locator('.detail .badge').textContent()).toBe('Official');
    expect(await seriousAxeViolations(page)).toEqual([]);
    await expectCleanPage(opened!, app.url);
  });

  it('goes back to the previous search with the browser’s Back button', async () => {
    const page = await open('/?country=NO&q=Sesam');
    await page.locator('.result h3', { hasText: 'SESAM AS' }).waitFor();
    await page.getByLabel('Company name or number').fill('883 603 362');
    await page.getByLabel('Company name or number').press('Enter');
    await page.locator('.result h3', { hasText: 'ABG SUNDAL COLLIER ASA' }).waitFor();
    await page.goBack();
    await page.locator('.result h3', { hasText: 'SESAM AS' }).waitFor();
    expect(await page.getByLabel('Company name or number').inputValue()).toBe('Sesam');
    expect(new URL(page.url()).search).toBe('?country=NO&q=Sesam');
  });

  it('shows the provenance of the opening read itself: official search, register down since, the record comes from the dataset', async () => {
    const page = await open('/?country=NO&q=Sesam');
    await page.locator('.result').first().waitFor();
    expect(await page.locator('.result .badge').first().textContent()).toBe('Official');
    failRegister(fakes, 'NO');
    await page.getByRole('button', { name: 'Show officers of SESAM AS' }).click();
    await page.locator('.detail .warning').waitFor();
    expect(await page.locator('.detail .badge').textContent()).toBe('Not official');
    expect(await page.locator('.detail .warning').textContent()).toContain('did not answer (http_5xx)');
    await expectCleanPage(opened!, app.url);
  });

  it('fallback case on a phone: register unreachable, the dataset answers, marked Not official with the warning shown', async () => {
    failRegister(fakes, 'NO');
    const page = await open('/?country=NO&q=sesam%20as', 375);
    expect(await page.getByLabel('Country').inputValue()).toBe('NO');
    expect(await page.getByLabel('Company name or number').inputValue()).toBe('sesam as');
    await page.locator('.result').first().waitFor();
    expect(await page.locator('.result h3').first().textContent()).toBe('SESAM AS');
    expect(await page.locator('.badge-official').count()).toBe(0);
    expect(await page.locator('.result .badge').first().textContent()).toBe('Not official');
    const warning = await page.locator('.warning').textContent();
    expect(warning).toContain('did not answer (http_5xx)');
    expect(warning).toContain('"no-sample" (produced 2026-11-01)');
    expect(await page.locator('.register-line .status').textContent()).toBe('degraded');
    expect((await fieldsOf(page.locator('.result dl.fields').first())).Source).toBe(
      'the fallback dataset “no-sample”, produced 2026-11-01: not a live read',
    );

    await page.getByRole('button', { name: 'Show officers of SESAM AS' }).click();
    await page.locator('.detail .none').waitFor();
    expect(await page.locator('.detail .none').textContent()).toBe(
      'No officers: this source of Brønnøysund’s data does not publish them.',
    );
    expect(await page.locator('.detail .badge').textContent()).toBe('Not official');
    expect(await page.locator('.detail .warning').count()).toBe(0); // the same warning is already above

    expect(await pageWidth(page)).toEqual({ scrollWidth: 375, viewport: 375 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshotIfAsked(page, 'search-fallback-phone');
    await expectCleanPage(opened!, app.url);
  });

  it('says what went wrong in sentences: a query that is not a name, a wrong check digit, a register down with nothing to stand in', async () => {
    const page = await open('/');
    const searchFor = async (q: string, country = 'NO') => {
      await page.getByLabel('Country').selectOption(country);
      await page.getByLabel('Company name or number').fill(q);
      await page.getByRole('button', { name: 'Search' }).click();
      await page.locator('#error:not([hidden])').waitFor();
      return page.locator('#error').textContent();
    };
    expect(await searchFor('%%')).toBe(
      'That search cannot be run: what you typed is not a name or a registration number: it has no letter or digit.',
    );
    await page.getByLabel('Company name or number').fill('');
    expect(await searchFor('883603363')).toBe(
      'That search cannot be run: 883603363 is not a valid Norwegian organisation number: its check digit (the last digit) is wrong.',
    );
    // Great Britain has no imported dataset here (Norway has one, complete, so a miss there is an answer).
    failRegister(fakes, 'GB');
    expect(await searchFor('Zyxwvut Nonexistent', 'GB')).toBe(
      'Companies House did not answer, and no stored copy of a matching record can stand in. Try again in a few minutes.',
    );
    expect(await page.locator('#results').isHidden()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
  });

  // Last: it spends the hour's requests of 127.0.0.1.
  it('over the hourly limit: says when to try again, and that no requests are left', async () => {
    const page = await open('/');
    while ((await fetch(`${app.url}/api/public/v1/registers`)).status !== 429);
    await page.getByLabel('Country').selectOption('NO');
    await page.getByLabel('Company name or number').fill('Sesam');
    await page.getByLabel('Company name or number').press('Enter');
    await page.locator('#error:not([hidden])').waitFor();
    expect(await page.locator('#error').textContent()).toMatch(
      /^You have made too many requests\. Try again in (59|60) minutes\.$/,
    );
    expect(await page.locator('#quota').textContent()).toMatch(
      /^No requests left this hour: the count resets in (59|60) minutes$/,
    );
  });
});
