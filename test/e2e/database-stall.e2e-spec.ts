import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { importSample } from '../support/datasets';
import { ApiAnswer, signUp } from '../support/event-side';
import { TcpProxy } from '../support/tcp-proxy';
import { MODE, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(90_000);

/** One request, timed. */
async function timed(
  request: Promise<ApiAnswer | Response>,
): Promise<{ status: number; ms: number; code?: string; retryAfter: string | null }> {
  const started = performance.now();
  const res = await request;
  const ms = performance.now() - started;
  const body =
    'body' in res && !(res instanceof Response) ? res.body : await (res as Response).json().catch(() => null);
  return { status: res.status, ms, code: body?.code, retryAfter: res.headers.get('retry-after') };
}

const publicReads = (app: TestApp) => [
  fetch(`${app.url}/api/public/v1/registers`),
  fetch(`${app.url}/api/public/v1/status`),
  // Registers are unreachable: answered from the fallback dataset.
  fetch(`${app.url}/api/public/v1/search?q=sesam&country=NO`),
  fetch(`${app.url}/health/ready`),
];

/**
 * The audit's stalled database: a table locked for a long time, or the network to Postgres
 * paused. Stuck requests answer 503 service_unavailable with Retry-After within about ten
 * seconds, never 500 and never a hang; the open read API keeps its own connections.
 */
describe('a stalled database', () => {
  if (MODE === 'services') {
    describe('a table locked on Postgres', () => {
      let app: TestApp;
      let locker: Client;
      beforeAll(async () => {
        app = await startTestApp({ env: { ACCOUNT_RATE_LIMIT_PER_HOUR: '1000', SIGNUPS_PER_HOUR_PER_IP: '100' } });
        await importSample(app, 'NO');
        locker = new Client({ connectionString: app.databaseUrl });
        await locker.connect();
      });
      afterAll(async () => {
        await locker?.end();
        await app?.close();
      });

      it('answers the requests stuck on it 503 within seconds, and the public reads at once', async () => {
        const customer = await signUp(app.url);
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE api_key IN ACCESS EXCLUSIVE MODE');
        const stuck = [
          ...Array.from({ length: 40 }, () => timed(customer.call('GET', '/api/v1/account'))),
          timed(
            fetch(`${app.url}/api/v1/accounts`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email: 'late@example.com' }),
            }),
          ),
        ];
        await new Promise((r) => setTimeout(r, 500)); // every connection of the general share is taken by now
        const reads = await Promise.all(publicReads(app).map(timed));
        for (const read of reads) expect(read).toMatchObject({ status: 200 });
        expect(Math.max(...reads.map((r) => r.ms))).toBeLessThan(1_000);

        const answers = await Promise.all(stuck);
        await locker.query('ROLLBACK');
        for (const answer of answers) {
          expect(answer).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: '5' });
          expect(answer.ms).toBeLessThan(10_000);
        }
        expect((await customer.call('GET', '/api/v1/account')).status).toBe(200);
      });
    });

    describe('the network to Postgres paused', () => {
      let app: TestApp;
      const proxy = new TcpProxy('127.0.0.1', 5432);
      beforeAll(async () => {
        const port = await proxy.start();
        app = await startTestApp({
          env: { DATABASE_POOL_WAIT_MS: '1000', DATABASE_QUERY_TIMEOUT_MS: '3000' },
          connectThrough: (url) => url.replace(/@[^/]+\//, `@127.0.0.1:${port}/`),
        });
      });
      afterAll(async () => {
        proxy.resume();
        await app?.close();
        await proxy.stop();
      });

      it('answers 503 within the pool wait and the query timeout, says it is not ready, and recovers', async () => {
        const customer = await signUp(app.url);
        proxy.pause();
        const answers = await Promise.all([
          ...Array.from({ length: 12 }, () => timed(customer.call('GET', '/api/v1/account'))),
          ...publicReads(app).slice(1).map(timed),
        ]);
        for (const answer of answers) {
          expect(answer).toMatchObject({ status: 503, code: 'service_unavailable' });
          expect(answer.ms).toBeLessThan(1_000 + 3_000 + 1_500);
        }
        proxy.resume();
        let status = 0;
        const deadline = Date.now() + 15_000;
        while (status !== 200 && Date.now() < deadline) {
          status = (await customer.call('GET', '/api/v1/account')).status;
          if (status !== 200) await new Promise((r) => setTimeout(r, 200));
        }
        expect(status).toBe(200);
        expect((await fetch(`${app.url}/health/ready`)).status).toBe(200);
      });
    });
  } else {
    describe('the embedded database held by one transaction', () => {
      let app: TestApp;
      beforeAll(async () => {
        app = await startTestApp({
          env: { DATABASE_POOL_WAIT_MS: '500', DATABASE_QUERY_TIMEOUT_MS: '1000', ACCOUNT_RATE_LIMIT_PER_HOUR: '1000' },
        });
      });
      afterAll(() => app?.close());

      /** Holds PGlite's one session, as a long transaction would. */
      async function holdSession(): Promise<() => Promise<void>> {
        const runner = app.get(DataSource).createQueryRunner();
        await runner.connect();
        await runner.startTransaction();
        await runner.query('SELECT 1');
        return async () => {
          await runner.rollbackTransaction();
          await runner.release();
        };
      }

      it('answers 503 once a request waited its whole budget, never hangs', async () => {
        const customer = await signUp(app.url);
        const release = await holdSession();
        const answers = await Promise.all([
          timed(customer.call('GET', '/api/v1/account')),
          timed(fetch(`${app.url}/api/public/v1/status`)),
        ]);
        await release();
        for (const answer of answers) {
          expect(answer).toMatchObject({ status: 503, code: 'service_unavailable', retryAfter: '5' });
          expect(answer.ms).toBeLessThan(1_500 + 1_000);
        }
        expect((await customer.call('GET', '/api/v1/account')).status).toBe(200);
      });

      it('hands the session to the public reads first when it frees', async () => {
        const customer = await signUp(app.url);
        const release = await holdSession();
        const done: string[] = [];
        const account = Array.from({ length: 4 }, () =>
          customer.call('GET', '/api/v1/account').then((r) => done.push(`account ${r.status}`)),
        );
        await new Promise((r) => setTimeout(r, 100));
        // Uncompressed, as the account answers are (under 1 KiB): the order is the database's, not zlib's.
        const status = fetch(`${app.url}/api/public/v1/status`, { headers: { 'Accept-Encoding': 'identity' } }).then(
          (r) => done.push(`status ${r.status}`),
        );
        await new Promise((r) => setTimeout(r, 100));
        await release();
        await Promise.all([...account, status]);
        expect(done[0]).toBe('status 200');
        expect(done.slice(1)).toEqual(Array(4).fill('account 200'));
      });
    });
  }
});
