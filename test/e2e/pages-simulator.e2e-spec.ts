import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { AccessRequestAdmin } from '../../src/events/accounts/admin/access-request-admin.service';
import { COUNTRY_CODES } from '../../src/registers/registers';
import { describeWithBrowser, launchChromium } from '../support/browser';
import { call, Customer, signUp } from '../support/event-side';
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
import { freePort } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

const STORAGE_KEY = 'registry-lookup:api-key';
const SENDS_PER_HOUR = 4;

/**
 * The simulator page in headless Chromium against the real app on the real clock (webhook
 * signatures must be fresh), with a real receiver on loopback — let through by
 * WEBHOOK_TARGET_ALLOWLIST — that verifies every delivery with `standardwebhooks`. The
 * browser's network reaches the app's origin only.
 */
describeWithBrowser('pages-simulator')('the simulator page (/simulator)', () => {
  let app: TestApp;
  let browser: Browser;
  let receiver: WebhookReceiver;
  let opened: OpenedPage | undefined;
  /** The first test's account, kept for the next. */
  let first: { key: string; secret: string; email: string } | undefined;

  beforeAll(async () => {
    app = await startTestApp({
      realClock: true,
      env: {
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.0/8',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s',
        WEBHOOK_TIMEOUT_MS: '2000',
        DELIVERY_SWEEP_INTERVAL_MS: '500',
        SIMULATOR_SENDS_PER_HOUR: String(SENDS_PER_HOUR),
      },
    });
    receiver = await new WebhookReceiver().start();
    receiver.answerWith((req) => (req.url === '/fails' ? { status: 500, body: 'boom' } : { status: 200, body: 'ok' }));
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await receiver?.stop();
    await app?.close();
  });
  afterEach(async () => {
    await opened?.close();
    opened = undefined;
  });

  async function open(width = 1280): Promise<Page> {
    opened = await openPage(browser, app.url, '/simulator', { width });
    await opened.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await opened.page.locator('#event option').first().waitFor({ state: 'attached' });
    return opened.page;
  }

  /** Signs in on the page with a key one has (the "API key" box). */
  async function useKey(page: Page, key: string): Promise<void> {
    await page.getByLabel('API key', { exact: true }).fill(key);
    await page.getByRole('button', { name: 'Use this key' }).click();
  }

  const text = (page: Page, selector: string) => page.locator(selector).textContent();
  const storedKey = (page: Page) => page.evaluate((k) => (globalThis as any).localStorage.getItem(k), STORAGE_KEY);
  const errorOf = async (page: Page, id: string) => {
    await page.locator(`#${id}:not([hidden])`).waitFor();
    return text(page, `#${id}`);
  };

  it('the whole flow: sign up, add an endpoint, send company.status_changed, see the receiver’s 200 and the request sent; Retry; a snippet that verifies', async () => {
    const page = await open();
    const apiCalls: Request[] = [];
    page.on('request', (r) => new URL(r.url()).pathname.startsWith('/api/v1/') && apiCalls.push(r));

    // Sign up from the keyboard: Email, then Enter.
    const email = 'ada@example.com';
    await page.getByLabel('Email').focus();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe('Create account');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');

    // The key, once, with the warning; focus on it; Copy puts it on the clipboard.
    const keyPanel = page.locator('#new-key');
    await keyPanel.locator('.secret-value').waitFor();
    const key = (await keyPanel.locator('.secret-value').textContent())!;
    expect(key).toMatch(/^rl_[A-Za-z0-9_-]{43}$/);
    expect(await keyPanel.locator('h3').textContent()).toBe('Your API key');
    expect(await keyPanel.locator('.once-warning').textContent()).toMatch(
      /^Shown only this once\. Copy it now .* it will not be shown again/,
    );
    expect(await page.evaluate(() => (globalThis as any).document.activeElement.textContent)).toBe('Your API key');
    await keyPanel.getByRole('button', { name: 'Copy the API key' }).click();
    await keyPanel.locator('.copy-note', { hasText: 'Copied.' }).waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(key);
    expect(await text(page, '#account-line')).toMatch(
      new RegExp(
        `^Signed in as ${email} \\(acct_\\w+\\) with the key ${key.slice(0, 12)}…, kept in this browser only\\.$`,
      ),
    );
    expect(await page.getByLabel('Email').isVisible()).toBe(false);
    // Kept in local storage, never in a cookie.
    expect(await storedKey(page)).toBe(key);
    expect(await opened!.context.cookies()).toEqual([]);

    // An endpoint: the receiver. Its secret, once.
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/hooks`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretPanel = page.locator('#new-secret');
    await secretPanel.locator('.secret-value').waitFor();
    const secret = (await secretPanel.locator('.secret-value').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    expect(await secretPanel.locator('.once-warning').textContent()).toContain('it will not be shown again');
    receiver.secrets = [secret];
    expect(await page.locator('#endpoint option:checked').textContent()).toBe(`${receiver.url}/hooks (enabled)`);
    expect(await text(page, '#endpoint-state')).toBe(
      'enabled Test events are sent to it whatever events it subscribes to.',
    );

    // Every kind of the contract and its extensions: none is planned any more.
    const options = await page
      .getByLabel('Event', { exact: true })
      .locator('option')
      .evaluateAll((os) => os.map((o: any) => `${o.textContent}${o.disabled ? ' [disabled]' : ''}`));
    expect(options).toEqual([
      'company.status_changed',
      'company.name_changed',
      'company.address_changed',
      'company.legal_form_changed',
      'company.officers_changed',
      'company.filing_published',
      'company.no_change',
      'register.unavailable',
      'register.available',
    ]);
    await page.getByLabel('Event', { exact: true }).selectOption('company.status_changed');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.locator('#send-result .outcome').waitFor();

    // What the receiver got — verified with standardwebhooks — is what the page shows.
    expect(receiver.requests).toHaveLength(1);
    const got = receiver.requests[0];
    expect(got.verified).toBe(true);
    expect(got.headers['x-service-event']).toBe('company.status_changed');
    expect(await text(page, '#send-result .outcome')).toMatch(/^Delivered: your endpoint answered 200 in \d+ ms\.$/);
    expect(await text(page, '.request-line')).toBe(`POST ${receiver.url}/hooks`);
    const headers = (await text(page, '#sent-headers'))!;
    for (const name of [
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
      'x-service-event',
      'x-service-test',
      'content-type',
    ]) {
      expect(headers.toLowerCase()).toContain(`${name}: ${String(got.headers[name])}`.toLowerCase());
    }
    expect(await text(page, '#sent-body')).toBe(JSON.stringify(JSON.parse(got.rawBody), null, 2));
    expect(got.body).toMatchObject({
      event: 'company.status_changed',
      is_test: true,
      data: { change: { field: 'status' } },
    });
    expect(await fieldsOf(page.locator('#answer'))).toEqual({
      Status: '200',
      Duration: expect.stringMatching(/^\d+ ms$/),
    });
    expect(await text(page, '#answer-body')).toBe('ok');
    expect(await text(page, '#quota')).toBe(`${SENDS_PER_HOUR - 1} test events left this hour`);

    // The Node snippet: the secret from the environment, never pasted; and it verifies what was sent.
    const snippet = (await text(page, '#snippet-code'))!;
    expect(snippet).toContain("require('standardwebhooks')");
    expect(snippet).toContain('new Webhook(process.env.WEBHOOK_SECRET)');
    expect(snippet).toContain('webhook.verify(rawBody, req.headers)');
    expect(snippet).not.toContain(secret);
    await page.locator('#snippet-step').getByRole('button', { name: 'Copy the Node receiver' }).click();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(snippet);
    await expectSnippetVerifies(snippet, secret, got.rawBody, got.headers as Record<string, string>);

    // The delivery log: state, attempts, the last answer; Retry sends it again (same webhook-id).
    const delivery = page.locator('#deliveries li.delivery');
    await delivery.first().waitFor();
    expect(await delivery.count()).toBe(1);
    expect(await delivery.locator('.state').textContent()).toBe('succeeded');
    expect(await fieldsOf(delivery.locator('dl'))).toMatchObject({
      Attempts: '1',
      'Last answer': expect.stringMatching(/^200 in \d+ ms$/),
    });
    await delivery.getByRole('button', { name: /^Retry the company\.status_changed delivery of / }).click();
    await receiver.waitFor((r) => r.length === 2);
    expect(receiver.requests[1].verified).toBe(true);
    expect(receiver.requests[1].headers['webhook-id']).toBe(got.headers['webhook-id']);
    await page.locator('#deliveries dd', { hasText: /^2$/ }).waitFor();
    await page.locator('#deliveries .state', { hasText: 'succeeded' }).waitFor();

    // The key went out only in the Authorization header, to this origin, never in a URL.
    expect(apiCalls.length).toBeGreaterThan(6);
    for (const r of apiCalls) {
      expect(r.url()).not.toContain(key);
      if (new URL(r.url()).pathname === '/api/v1/accounts') expect(r.headers().authorization).toBeUndefined();
      else expect(r.headers().authorization).toBe(`Bearer ${key}`);
    }

    // "I have saved it": both once-shown values leave the page for good.
    await keyPanel.getByRole('button', { name: 'I have saved it' }).click();
    expect(await focused(page)).toBe('endpoint-url');
    await secretPanel.getByRole('button', { name: 'I have saved it' }).click();
    expect(await focused(page)).toBe('event');
    const html = await page.content();
    expect(html).not.toContain(key);
    expect(html).not.toContain(secret);

    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await pageWidth(page)).toEqual({ scrollWidth: 1280, viewport: 1280 });
    await screenshotIfAsked(page, 'simulator');
    await expectCleanPage(opened!, app.url);
    first = { key, secret, email };
  });

  it('a returning user pastes the key: the endpoint and its deliveries are there, the key and secret are not shown again; Forget key removes the key', async () => {
    expect(first).toBeDefined();
    const { key, secret, email } = first!;
    const page = await open();
    expect(await storedKey(page)).toBeNull();
    await useKey(page, key);
    await page.locator('#account-line', { hasText: email }).waitFor();
    expect(await page.locator('#endpoint option:checked').textContent()).toBe(`${receiver.url}/hooks (enabled)`);
    await page.locator('#deliveries li.delivery').first().waitFor();
    expect(await fieldsOf(page.locator('#deliveries li.delivery dl'))).toMatchObject({ Attempts: '2' });
    expect(await page.locator('#new-key, #new-secret').evaluateAll((els) => els.map((e: any) => e.hidden))).toEqual([
      true,
      true,
    ]);

    // Reloaded: still signed in from local storage; neither value appears anywhere.
    await page.reload();
    await page.locator('#account-line', { hasText: email }).waitFor();
    await page.locator('#deliveries li.delivery').first().waitFor();
    for (const value of [key, secret]) expect(await page.content()).not.toContain(value);
    expect(await page.getByLabel('API key', { exact: true }).isVisible()).toBe(false);

    await page.getByRole('button', { name: 'Forget key' }).click();
    expect(await storedKey(page)).toBeNull();
    expect(await text(page, '#account-message')).toBe(
      'This browser no longer holds the key. The key itself still works wherever else you keep it.',
    );
    expect(await page.getByLabel('Email').isVisible()).toBe(true);
    expect(await page.locator('#endpoint-step').isHidden()).toBe(true);
    await page.reload();
    await page.getByLabel('API key', { exact: true }).waitFor();
    expect(await page.locator('#signed-in').isHidden()).toBe(true);
    await expectCleanPage(opened!, app.url);
  });

  it('on a phone, says what went wrong in sentences: a key not valid, a refused private address, a wrong check digit, a disabled endpoint, a failing receiver, the hourly limit', async () => {
    const customer: Customer = await signUp(app.url);
    const ep = await customer.call('POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}/fails` });
    await customer.call('PATCH', `/api/v1/webhook-endpoints/${ep.body.id}`, { enabled: false });
    const page = await open(375);

    await useKey(page, 'rl_thisIsNotAKeyOfTheService0000000000000000000');
    expect(await errorOf(page, 'account-error')).toBe(
      'This key is not valid or was revoked. Create a new account or paste another key.',
    );
    expect(await storedKey(page)).toBeNull();

    await useKey(page, customer.key);
    await page.locator('#account-line', { hasText: customer.accountId }).waitFor();
    expect(await page.locator('#account-error').isHidden()).toBe(true);

    const refused = async (url: string) => {
      await page.getByLabel('Endpoint URL').fill(url);
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      await page.locator('#endpoint-error', { hasText: new URL(url).hostname }).waitFor();
      return text(page, '#endpoint-error');
    };
    const publicOnly =
      'Webhooks go only to public internet addresses; a receiver on your own computer needs a public URL (a tunnel, for example).';
    expect(await refused('http://10.0.0.1/hook')).toBe(
      `The service will not send webhooks to that address: 10.0.0.1 is a private address. ${publicOnly}`,
    );
    expect(await refused('http://169.254.169.254/latest/meta-data')).toBe(
      `The service will not send webhooks to that address: 169.254.169.254 is a link-local address. ${publicOnly}`,
    );
    expect(await page.locator('#endpoint option').count()).toBe(1);

    // The endpoint disabled through the API: its state and reason, a 409 in words, Enable.
    expect(await text(page, '#endpoint-state')).toMatch(
      /^disabled Disabled since \d{4}-\d\d-\d\d \d\d:\d\d UTC: .+\. Nothing is sent to it until it is enabled again\.$/,
    );
    await page.getByRole('button', { name: 'Send test event' }).click();
    expect(await errorOf(page, 'send-error')).toBe(
      'The test event was not sent. This endpoint is disabled: enable it first (the button under Endpoint, above).',
    );
    await page.getByRole('button', { name: 'Enable this endpoint' }).click();
    await page.locator('#endpoint-state', { hasText: /^enabled/ }).waitFor();

    // A named company whose number fails its check digit.
    await page.getByLabel('Country', { exact: true }).selectOption('NO');
    await page.getByLabel('Registration number').fill('923609017');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.locator('#send-error', { hasText: 'check digit' }).waitFor();
    expect(await text(page, '#send-error')).toBe(
      'The test event was not sent. That company cannot be used: 923609017 is not a valid Norwegian organisation number: its check digit (the last digit) is wrong.',
    );

    // The receiver answers 500: not delivered, and when the next attempt is.
    await page.getByLabel('Registration number').fill('');
    await page.getByLabel('Country', { exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.locator('#send-result .outcome').waitFor();
    expect(await text(page, '#send-result .outcome')).toMatch(
      /^Not delivered: your endpoint answered 500; only a 2xx answer counts as received\. It will be tried again at \d\d:\d\d:\d\d UTC\.$/,
    );
    expect(await fieldsOf(page.locator('#answer'))).toMatchObject({ Status: '500' });
    expect(await text(page, '#answer-body')).toBe('boom');
    expect(await pageWidth(page)).toEqual({ scrollWidth: 375, viewport: 375 });
    expect(await seriousAxeViolations(page)).toEqual([]);
    await screenshotIfAsked(page, 'simulator-failed-phone');

    // The account's last sends of the hour through the API; the page's next one is refused.
    for (let i = 1; i < SENDS_PER_HOUR; i++)
      expect(
        (
          await customer.call('POST', '/api/v1/simulator/events', {
            event: 'register.unavailable',
            endpointId: ep.body.id,
          })
        ).status,
      ).toBe(201);
    await page.getByRole('button', { name: 'Send test event' }).click();
    expect(await errorOf(page, 'send-error')).toMatch(
      new RegExp(
        `^The test event was not sent\\. This account has sent ${SENDS_PER_HOUR} test events in the last hour\\. The next one can be sent in (59|60) minutes\\.$`,
      ),
    );
    await expectCleanPage(opened!, app.url);
  });

  it('asks for live delivery (countries, volume, events, use case) and shows the request’s state, then the operator’s decision', async () => {
    const customer = await signUp(app.url);
    const page = await open();
    await useKey(page, customer.key);
    const form = page.locator('#access-form');
    await form.waitFor();
    expect(await text(page, '#access-state')).toBe(
      'Live delivery is not enabled for this account, and no request was made.',
    );
    expect(await form.getByLabel('Norway (NO)').isEnabled()).toBe(true);
    expect(await form.getByLabel('company.officers_changed').isEnabled()).toBe(true);
    expect(await form.locator('input[name=countries]').count()).toBe(COUNTRY_CODES.length);

    // Nothing ticked: the browser says so, nothing is sent.
    await form.getByLabel('Monthly volume').fill('5000');
    await form.getByLabel('Use case').fill('Know-your-customer refresh when a supplier is dissolved.');
    await form.getByRole('button', { name: 'Request live delivery' }).click();
    expect(
      await form
        .locator('input[name=countries]')
        .first()
        .evaluate((el: any) => el.validationMessage),
    ).toBe('Choose at least one country.');
    expect((await call(app.url, 'GET', '/api/v1/access-requests', { key: customer.key })).body.data).toEqual([]);

    await form.getByLabel('Norway (NO)').check();
    await form.getByLabel('Denmark (DK)').check();
    await form.getByLabel('company.status_changed').check();
    await form.getByRole('button', { name: 'Request live delivery' }).click();
    await page.locator('#access-state .state', { hasText: 'pending' }).waitFor();
    expect(await text(page, '#access-state')).toMatch(
      /^pending Your request of \d{4}-\d\d-\d\d \d\d:\d\d UTC \(DK, NO; 5,000 events a month\) is pending: an operator will decide\.$/,
    );
    expect(await form.isHidden()).toBe(true);
    const [filed] = (await call(app.url, 'GET', '/api/v1/access-requests', { key: customer.key })).body.data;
    expect(filed).toMatchObject({
      state: 'pending',
      countries: ['DK', 'NO'],
      monthlyVolume: 5000,
      events: ['company.status_changed'],
    });

    await app.get(AccessRequestAdmin).reject(filed.id, 'Volumes not stated clearly.');
    await page.reload();
    await page.locator('#access-state .state', { hasText: 'rejected' }).waitFor();
    expect(await text(page, '#access-state')).toMatch(
      / was rejected on \d{4}-\d\d-\d\d \d\d:\d\d UTC: Volumes not stated clearly\. You may send another\.$/,
    );
    expect(await form.isVisible()).toBe(true);
    expect(await seriousAxeViolations(page)).toEqual([]);
    await expectCleanPage(opened!, app.url);
  });
});

/**
 * Runs the page's Node snippet as its own process (the secret in WEBHOOK_SECRET), posts it
 * the request the service sent: 204. The same body altered by one character: 400.
 */
async function expectSnippetVerifies(
  snippet: string,
  secret: string,
  rawBody: string,
  headers: Record<string, string>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'snippet-'));
  const port = await freePort();
  writeFileSync(join(dir, 'receiver.js'), snippet);
  const child = spawn(process.execPath, [join(dir, 'receiver.js')], {
    env: {
      PATH: process.env.PATH ?? '',
      WEBHOOK_SECRET: secret,
      PORT: String(port),
      NODE_PATH: join(__dirname, '..', '..', 'node_modules'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  try {
    const signed = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type'].map((h) => [h, headers[h]]),
    );
    const post = async (body: string) => {
      for (let i = 0; ; i++) {
        try {
          return (await fetch(`http://127.0.0.1:${port}/hooks`, { method: 'POST', headers: signed, body })).status;
        } catch (err) {
          if (i > 50) throw new Error(`the snippet did not listen: ${output}`, { cause: err });
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    };
    expect(await post(rawBody)).toBe(204);
    expect(await post(rawBody.replace('"is_test":true', '"is_test":false'))).toBe(400);
    expect(output).toContain('company.status_changed (test)');
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}
