import { DataSource } from 'typeorm';
import { AccessRequestAdmin } from '../../src/events/accounts/admin/access-request-admin.service';
import { CompanyChangeData } from '../../src/events/webhooks/events/envelope';
import { EventPublisher } from '../../src/events/webhooks/events/event-publisher.service';
import { Customer, eventually, signUp } from '../support/event-side';
import { startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

const change = (n: number): CompanyChangeData => ({
  entity_id: `ent_no_${900000000 + n}`,
  country: 'NO',
  company_name: `COMPANY ${n} AS`,
  registration_number: String(900000000 + n),
  register: { name: 'Enhetsregisteret', official_url: 'https://www.brreg.no' },
  change: { field: 'name', previous: `OLD ${n} AS`, current: `COMPANY ${n} AS`, observed_at: new Date().toISOString() },
  provenance: {
    source_mode: 'live',
    source_url: `https://virksomhet.brreg.no/nb/oppslag/enheter/${900000000 + n}`,
    retrieved_at: new Date().toISOString(),
  },
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * An endpoint that fails or hangs costs its own slots and nothing else's: its circuit opens
 * after WEBHOOK_CIRCUIT_THRESHOLD (3) consecutive failures, its deliveries are then held (not
 * attempted, no attempt spent) until one probe (after 2 s, then 4 s), and a healthy endpoint of
 * the same account is delivered meanwhile as if nothing happened. Real receivers on loopback
 * verify every signature with standardwebhooks. Embedded (PGlite, in-process runner) or, with
 * TEST_MODE=services, Postgres and Bull.
 */
describe('webhook delivery: a circuit per endpoint, and isolation', () => {
  let app: TestApp;
  const receivers: WebhookReceiver[] = [];
  let db: DataSource;

  beforeAll(async () => {
    app = await startTestApp({
      realClock: true,
      env: {
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s,1s,1s,1s,1s',
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_ENDPOINT_CONCURRENCY: '2',
        WEBHOOK_CIRCUIT_THRESHOLD: '3',
        WEBHOOK_CIRCUIT_BACKOFF: '2s,4s',
        DELIVERY_SWEEP_INTERVAL_MS: '500',
      },
    });
    db = app.get(DataSource);
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  /** An approved account with two endpoints, each on its own receiver that verifies with its secret. */
  async function twoEndpoints(): Promise<{
    customer: Customer;
    bad: { receiver: WebhookReceiver; id: string };
    good: { receiver: WebhookReceiver; id: string };
  }> {
    const customer = await signUp(app.url);
    const filed = await customer.call('POST', '/api/v1/access-requests', {
      countries: ['NO'],
      monthlyVolume: 100,
      events: ['company.name_changed'],
      useCase: 'Circuit check.',
    });
    await app.get(AccessRequestAdmin).approve(filed.body.id);
    const make = async () => {
      const receiver = await new WebhookReceiver().start();
      receivers.push(receiver);
      const res = await customer.call('POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}/hook` });
      expect(res.status).toBe(201);
      receiver.secrets = [res.body.secret];
      return { receiver, id: res.body.id as string };
    };
    return { customer, bad: await make(), good: await make() };
  }

  async function publish(customer: Customer, n: number, from: number): Promise<number> {
    const started = Date.now();
    const publisher = app.get(EventPublisher);
    for (let i = 0; i < n; i++)
      await publisher.publishAndWake({
        accountId: customer.accountId,
        kind: 'company.name_changed',
        isTest: false,
        data: change(from + i),
      });
    return started;
  }

  const circuit = async (endpointId: string) =>
    (
      await db.query(
        `SELECT circuit_failures AS failures, circuit_opened AS opened, circuit_open_until AS "openUntil" FROM webhook_endpoint WHERE id = $1`,
        [endpointId],
      )
    )[0] as { failures: number; opened: number; openUntil: Date | string | null };

  const deliveries = (endpointId: string) =>
    db.query(
      `SELECT id, state, attempt_count AS attempts, message_id AS "messageId" FROM delivery WHERE endpoint_id = $1 ORDER BY id`,
      [endpointId],
    ) as Promise<Array<{ id: string; state: string; attempts: number; messageId: string }>>;

  it('opens a failing endpoint’s circuit: its deliveries are held, not attempted; the healthy endpoint is served on time; a probe closes it once the receiver recovers', async () => {
    const { customer, bad, good } = await twoEndpoints();
    bad.receiver.answerWith(() => ({ status: 500, body: 'down' }));
    await publish(customer, 6, 0);

    // The healthy endpoint gets all six at once, whatever the other one does: each well within
    // a second of its event (the failing endpoint's retries are a second apart).
    await good.receiver.waitFor((r) => r.length === 6, 10_000);
    const written = new Map<string, number>(
      (await db.query(`SELECT message_id AS id, created_at AS at FROM delivery WHERE endpoint_id = $1`, [good.id])).map(
        (r: { id: string; at: Date | string }) => [r.id, new Date(r.at).getTime()],
      ),
    );
    for (const r of good.receiver.requests)
      expect(r.at - written.get(String(r.headers['webhook-id']))!).toBeLessThan(1_000);

    // Three failures in a row open the circuit; requests already in flight then (at most
    // WEBHOOK_ENDPOINT_CONCURRENCY, 2) may add theirs.
    const opened = await eventually(
      () => circuit(bad.id),
      (c) => c.opened === 1,
      10_000,
      50,
    );
    expect(new Date(opened.openUntil!).getTime()).toBeGreaterThan(Date.now());
    const atOpening = bad.receiver.requests.length;
    expect(atOpening).toBeGreaterThanOrEqual(3);
    expect(atOpening).toBeLessThanOrEqual(3 + 2);
    const attemptsAtOpening = (await deliveries(bad.id)).reduce((n, d) => n + d.attempts, 0);
    expect(attemptsAtOpening).toBe(atOpening);

    // Held while open: no request, no attempt spent, although retries fall due every second.
    const openUntil = new Date(opened.openUntil!).getTime();
    await sleep(openUntil - Date.now() - 200);
    expect(bad.receiver.requests.filter((r) => r.at < openUntil)).toHaveLength(atOpening);
    expect((await deliveries(bad.id)).every((d) => d.state === 'pending')).toBe(true);

    // Half-open: one probe, which fails: open again, for the next delay (4 s). A failed attempt
    // holds its slot until its outcome is written, so no other claimer takes the same turn.
    await bad.receiver.waitFor((r) => r.length >= atOpening + 1, 5_000);
    const reopened = await eventually(
      () => circuit(bad.id),
      (c) => c.opened === 2,
      5_000,
      50,
    );
    const window = new Date(reopened.openUntil!).getTime() - Date.now();
    expect(window).toBeGreaterThan(3_000);
    const probes = bad.receiver.requests.length - atOpening;
    expect(probes).toBe(1);
    await sleep(2_000);
    expect(bad.receiver.requests).toHaveLength(atOpening + probes);

    // The receiver recovers: the next probe succeeds, the circuit closes, every delivery arrives.
    bad.receiver.answerWith(() => ({ status: 200, body: 'ok' }));
    const all = await eventually(
      () => deliveries(bad.id),
      (ds) => ds.every((d) => d.state === 'succeeded'),
      20_000,
      100,
    );
    expect(await circuit(bad.id)).toEqual({ failures: 0, opened: 0, openUntil: null });
    // Each event arrived under its own one webhook-id, signed, at last with a 200.
    const ok = bad.receiver.requests.slice(atOpening + probes);
    expect(new Set(ok.map((r) => r.headers['webhook-id']))).toEqual(new Set(all.map((d) => d.messageId)));
    expect(bad.receiver.requests.every((r) => r.verified === true)).toBe(true);
    expect(good.receiver.requests.every((r) => r.verified === true)).toBe(true);
    // Attempts: the failed ones before the circuit opened, the probes, one success each.
    expect(all.reduce((n, d) => n + d.attempts, 0)).toBe(atOpening + probes + 6);
    expect(good.receiver.requests).toHaveLength(6);
  });

  it('times a hanging receiver out at every attempt, without delaying another endpoint; at most WEBHOOK_ENDPOINT_CONCURRENCY in flight to each', async () => {
    const { customer, bad, good } = await twoEndpoints();
    bad.receiver.answerWith(() => ({ hang: true }));
    good.receiver.answerWith(() => ({ status: 200, delayMs: 50 }));
    await publish(customer, 8, 100);

    // The healthy endpoint: eight requests of 50 ms, two at a time, all in before the hanging
    // endpoint's first attempt has even timed out.
    await good.receiver.waitFor((r) => r.length === 8, 10_000);
    await bad.receiver.waitFor((r) => r.length >= 1);
    expect(Math.max(...good.receiver.requests.map((r) => r.at))).toBeLessThan(bad.receiver.requests[0].at + 1_000);
    expect(good.receiver.maxInFlight).toBe(2);

    // The hanging one: every attempt gives up after WEBHOOK_TIMEOUT_MS, two at a time, until the circuit opens.
    await eventually(
      () => circuit(bad.id),
      (c) => c.opened === 1,
      10_000,
      50,
    );
    expect(bad.receiver.maxInFlight).toBe(2);
    const attempts: Array<{ errorClass: string; durationMs: number }> = await db.query(
      `SELECT a.error_class AS "errorClass", a.duration_ms AS "durationMs" FROM delivery_attempt a JOIN delivery d ON d.id = a.delivery_id
       WHERE d.endpoint_id = $1 AND a.finished_at IS NOT NULL`,
      [bad.id],
    );
    expect(attempts.length).toBeGreaterThanOrEqual(3);
    for (const a of attempts) {
      expect(a.errorClass).toBe('timeout');
      expect(a.durationMs).toBeGreaterThanOrEqual(950);
      expect(a.durationMs).toBeLessThan(2_500);
    }
    expect(bad.receiver.requests.every((r) => r.verified === true)).toBe(true);
  });

  it('lets the simulator through an open circuit: a customer’s own test is a probe, and its success closes it', async () => {
    const { customer, bad } = await twoEndpoints();
    bad.receiver.answerWith(() => ({ status: 503 }));
    await publish(customer, 3, 200);
    await eventually(
      () => circuit(bad.id),
      (c) => c.opened === 1,
      10_000,
      50,
    );
    bad.receiver.answerWith(() => ({ status: 200 }));
    const sent = await customer.call('POST', '/api/v1/simulator/events', {
      event: 'company.status_changed',
      endpointId: bad.id,
    });
    expect(sent.body).toMatchObject({ sent: true, state: 'succeeded', response: { status: 200 } });
    expect(await circuit(bad.id)).toEqual({ failures: 0, opened: 0, openUntil: null });
    // The held deliveries follow at once, not at the end of the window.
    await eventually(
      () => deliveries(bad.id),
      (ds) => ds.length === 4 && ds.every((d) => d.state === 'succeeded'),
      5_000,
      100,
    );
  });
});
