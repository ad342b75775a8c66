import { signUp } from '../support/event-side';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

// Real organisation numbers (valid check digits) of the recorded Norwegian fixtures.
const NUMBERS = ['923609016', '914375916', '915330193', '913757424', '976030788'];
const watch = (registrationNumber: string) => ({ country: 'NO', registrationNumber });

/** The audit made 40,000 watches in 2.3 s with four bulk calls: an account watches at most WATCHES_PER_ACCOUNT companies. */
describe('the watch quota (WATCHES_PER_ACCOUNT)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { WATCHES_PER_ACCOUNT: '3', ACCOUNT_RATE_LIMIT_PER_HOUR: '1000' } });
  });
  afterAll(() => app?.close());

  it('refuses a watch past the quota with a 409 naming the quota, and counts a company watched already as inside it', async () => {
    const customer = await signUp(app.url);
    for (const n of NUMBERS.slice(0, 3))
      expect((await customer.call('POST', '/api/v1/watches', watch(n))).status).toBe(201);
    const refused = await customer.call('POST', '/api/v1/watches', watch(NUMBERS[3]));
    expect(refused).toMatchObject({
      status: 409,
      body: { code: 'watch_quota_exceeded', limit: 3, used: 3, detail: expect.stringContaining('WATCHES_PER_ACCOUNT') },
    });
    expect(refused.body.code).toContain('quota');
    expect((await customer.call('POST', '/api/v1/watches', watch(NUMBERS[0]))).status).toBe(200);
    const list = await customer.call('GET', '/api/v1/watches');
    expect(list.body.data).toHaveLength(3);
    // Another account has a quota of its own.
    const other = await signUp(app.url);
    expect((await other.call('POST', '/api/v1/watches', watch(NUMBERS[3]))).status).toBe(201);
  });

  it('creates what fits of a bulk creation and says which rows the quota refused', async () => {
    const customer = await signUp(app.url);
    expect((await customer.call('POST', '/api/v1/watches', watch(NUMBERS[0]))).status).toBe(201);
    const bulk = await customer.call('POST', '/api/v1/watches/bulk', { watches: NUMBERS.map(watch) });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toMatchObject({ created: 2, existing: 1, failed: 2 });
    const failed = bulk.body.results.filter((r: { status: string }) => r.status === 'failed');
    expect(failed).toEqual([
      expect.objectContaining({
        index: 3,
        error: expect.objectContaining({ status: 409, code: 'watch_quota_exceeded' }),
      }),
      expect.objectContaining({
        index: 4,
        error: expect.objectContaining({ status: 409, code: 'watch_quota_exceeded' }),
      }),
    ]);
    // After a delete, there is room again.
    const list = await customer.call('GET', '/api/v1/watches');
    expect((await customer.call('DELETE', `/api/v1/watches/${list.body.data[0].id}`)).status).toBe(204);
    expect((await customer.call('POST', '/api/v1/watches', watch(NUMBERS[4]))).status).toBe(201);
  });
});
