import { Webhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { AccessRequestAdmin } from '../../src/events/accounts/admin/access-request-admin.service';
import { CompanyChangeData } from '../../src/events/webhooks/events/envelope';
import { EventPublisher } from '../../src/events/webhooks/events/event-publisher.service';
import { DnsResolver, ResolvedAddress } from '../../src/events/webhooks/outbound/dns-resolver';
import { Customer, eventually, signUp } from '../support/event-side';
import { startTestApp, TestApp } from '../support/test-app';
import { ReceivedRequest, WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

/** A resolver the test points where it wants, when it wants (DNS rebinding). */
class MovableDns extends DnsResolver {
  readonly table = new Map<string, string>();
  override async resolve(host: string): Promise<ResolvedAddress[]> {
    const address = this.table.get(host);
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: 4 }];
  }
}

const liveChange = (name: string): CompanyChangeData => ({
  entity_id: 'ent_no_923609016',
  country: 'NO',
  company_name: name,
  registration_number: '923609016',
  register: { name: 'Enhetsregisteret', official_url: 'https://www.brreg.no' },
  change: { field: 'name', previous: 'STATOIL ASA', current: name, observed_at: new Date().toISOString() },
  provenance: {
    source_mode: 'live',
    source_url: 'https://virksomhet.brreg.no/nb/oppslag/enheter/923609016',
    retrieved_at: new Date().toISOString(),
  },
});

/**
 * Delivery as a receiver sees it, on the real clock with a fast schedule (1s, 1s, 3s), a
 * 1.5 s timeout and at most 2 requests in flight per endpoint: signatures, retries, 410,
 * redirects, timeouts, Retry-After, held live events, rotation, DNS rebinding, the log.
 */
describe('webhook delivery', () => {
  let app: TestApp;
  let dns: MovableDns;
  const receivers: WebhookReceiver[] = [];
  let customer: Customer;

  beforeAll(async () => {
    dns = new MovableDns();
    app = await startTestApp({
      realClock: true,
      overrides: [{ provide: DnsResolver, useValue: dns }],
      env: {
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s,3s',
        WEBHOOK_TIMEOUT_MS: '1500',
        WEBHOOK_ENDPOINT_CONCURRENCY: '2',
        // Retry schedules and disabling, attempt by attempt: the circuit is webhook-circuit.e2e-spec.ts's.
        WEBHOOK_CIRCUIT_THRESHOLD: '50',
        DELIVERY_SWEEP_INTERVAL_MS: '500',
        SIMULATOR_SENDS_PER_HOUR: '1000',
      },
    });
    customer = await signUp(app.url);
  });
  afterAll(async () => {
    await app?.close();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  /** A receiver, and an endpoint of `who` pointing at it whose secret the receiver verifies with. */
  async function endpointFor(who = customer, events?: string[], host = '127.0.0.1') {
    const receiver = await new WebhookReceiver(host).start();
    receivers.push(receiver);
    const res = await who.call('POST', '/api/v1/webhook-endpoints', {
      url: `${receiver.url}/hook`,
      ...(events ? { events } : {}),
    });
    expect(res.status).toBe(201);
    receiver.secrets = [res.body.secret];
    return { receiver, endpoint: res.body as { id: string; secret: string } };
  }

  const simulate = (endpointId: string, event = 'company.status_changed', who = customer) =>
    who.call('POST', '/api/v1/simulator/events', { event, endpointId });
  const delivery = (endpointId: string, deliveryId: string, who = customer) =>
    who.call('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries/${deliveryId}`).then((r) => r.body);

  it('retries a receiver that fails twice, then succeeds: three attempts, one webhook-id, a fresh timestamp each, every one verified', async () => {
    const { receiver, endpoint } = await endpointFor();
    receiver.answerInTurn([{ status: 500, body: 'boom' }, { status: 503 }, { status: 200, body: 'thanks' }]);
    const sent = await simulate(endpoint.id);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      sent: true,
      state: 'pending',
      response: { status: 500, bodyStart: 'boom' },
      error: { class: 'http_error' },
    });
    await receiver.waitFor((r) => r.length === 3);
    const log = await eventually(
      () => delivery(endpoint.id, sent.body.deliveryId),
      (d) => d.state === 'succeeded',
    );

    expect(receiver.requests.map((r) => r.verified)).toEqual([true, true, true]);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([sent.body.webhookId]));
    const stamps = receiver.requests.map((r) => Number(r.headers['webhook-timestamp']));
    expect(stamps).toEqual(log.attempts.map((a: any) => Math.floor(new Date(a.startedAt).getTime() / 1000)));
    expect(stamps[2] - stamps[0]).toBeGreaterThanOrEqual(1);
    expect(receiver.requests[1].at - receiver.requests[0].at).toBeGreaterThanOrEqual(850);
    expect(new Set(receiver.requests.map((r) => r.rawBody)).size).toBe(1);
    for (const r of receiver.requests) {
      expect(r).toMatchObject({
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-event': 'company.status_changed',
          'x-service-test': 'true',
        },
      });
    }
    expect(log).toMatchObject({
      state: 'succeeded',
      attemptCount: 3,
      webhookId: sent.body.webhookId,
      lastError: null,
      completedAt: expect.any(String),
      request: { method: 'POST', body: receiver.requests[0].rawBody },
    });
    expect(log.attempts.map((a: any) => [a.attempt, a.responseStatus, a.errorClass, a.responseBodyStart])).toEqual([
      [1, 500, 'http_error', 'boom'],
      [2, 503, 'http_error', ''],
      [3, 200, null, 'thanks'],
    ]);
    for (const [i, a] of log.attempts.entries()) {
      expect(a.request.headers['webhook-signature']).toBe(receiver.requests[i].headers['webhook-signature']);
      expect(a.durationMs).toEqual(expect.any(Number));
    }
  });

  it('records an answer whose body holds NUL bytes (shown as U+FFFD) once, instead of failing its write and re-sending', async () => {
    const { receiver, endpoint } = await endpointFor();
    receiver.answerInTurn([], { status: 200, body: 'ok\u0000done' });
    const sent = await simulate(endpoint.id);
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      sent: true,
      state: 'succeeded',
      response: { status: 200, bodyStart: 'ok\uFFFDdone' },
    });
    const log = await delivery(endpoint.id, sent.body.deliveryId);
    expect(log).toMatchObject({ state: 'succeeded', attemptCount: 1 });
    expect(log.attempts.map((a: any) => a.responseBodyStart)).toEqual(['ok\uFFFDdone']);
    // An attempt whose outcome could not be written would be sent again when its lease ran out.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.requests).toHaveLength(1);
  });

  it('disables the endpoint at once on 410 Gone', async () => {
    const { receiver, endpoint } = await endpointFor();
    receiver.answerInTurn([{ status: 410 }]);
    const sent = await simulate(endpoint.id);
    expect(sent.body).toMatchObject({ state: 'failed', response: { status: 410 } });
    const ep = (await customer.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).body;
    expect(ep).toMatchObject({
      enabled: false,
      disabledAt: expect.any(String),
      disabledReason: expect.stringMatching(/410 Gone/),
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(receiver.requests).toHaveLength(1);
    expect((await delivery(endpoint.id, sent.body.deliveryId)).lastError).toMatch(/410 Gone/);
    expect((await simulate(endpoint.id)).status).toBe(409);
  });

  it('disables an endpoint whose every attempt failed for WEBHOOK_DISABLE_AFTER (5 days), and a success resets the count', async () => {
    const { receiver, endpoint } = await endpointFor();
    const db = app.get(DataSource);
    const failingSince = async () =>
      (await db.query(`SELECT failing_since FROM webhook_endpoint WHERE id = $1`, [endpoint.id]))[0]
        .failing_since as Date | null;
    receiver.answerInTurn([{ status: 500 }, { status: 200 }, { status: 500 }, { status: 500 }]);
    // A failure starts the run; a success ends it.
    const first = await simulate(endpoint.id);
    expect(first.body.state).toBe('pending');
    expect(Math.floor((await failingSince())!.getTime() / 1000)).toBe(
      Number(first.body.request.headers['webhook-timestamp']),
    );
    await eventually(
      () => delivery(endpoint.id, first.body.deliveryId),
      (d) => d.state === 'succeeded',
    );
    expect(await failingSince()).toBeNull();
    // Failing again, for four days and a bit: still enabled.
    await simulate(endpoint.id);
    await db.query(
      `UPDATE webhook_endpoint SET failing_since = failing_since - interval '4 days 23 hours' WHERE id = $1`,
      [endpoint.id],
    );
    await receiver.waitFor((r) => r.length === 4);
    await new Promise((r) => setTimeout(r, 300));
    expect((await customer.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}`)).body.enabled).toBe(true);
    // Five days of failures: the next failed attempt disables it, with the reason.
    await db.query(`UPDATE webhook_endpoint SET failing_since = failing_since - interval '1 hour' WHERE id = $1`, [
      endpoint.id,
    ]);
    receiver.answerWith(() => ({ status: 500 }));
    await receiver.waitFor((r) => r.length === 5);
    const ep = await eventually(
      () => customer.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}`).then((r) => r.body),
      (e) => e.enabled === false,
    );
    expect(ep.disabledReason).toMatch(/^Every delivery attempt failed from .* to .*\.$/);
  });

  it('counts a 3xx as a failed attempt and never follows it', async () => {
    const elsewhere = await new WebhookReceiver().start();
    receivers.push(elsewhere);
    const { receiver, endpoint } = await endpointFor();
    receiver.answerWith(() => ({ status: 301, headers: { location: `${elsewhere.url}/moved` } }));
    const sent = await simulate(endpoint.id);
    expect(sent.body).toMatchObject({
      state: 'pending',
      response: { status: 301 },
      error: { class: 'redirect_not_followed' },
    });
    await receiver.waitFor((r) => r.length >= 2);
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('gives up on a receiver that never answers after WEBHOOK_TIMEOUT_MS, and tries again', async () => {
    const { receiver, endpoint } = await endpointFor();
    receiver.answerInTurn([{ hang: true }]);
    const t0 = Date.now();
    const sending = simulate(endpoint.id);
    // In flight: the attempt is in the log as started; its headers come with its outcome.
    await receiver.waitFor((r) => r.length === 1);
    const list = await customer.call('GET', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`);
    const inFlight = await delivery(endpoint.id, list.body.data[0].id);
    expect(inFlight.attempts).toEqual([
      expect.objectContaining({
        attempt: 1,
        finishedAt: null,
        request: { url: `${receiver.url}/hook`, headers: null },
      }),
    ]);
    const sent = await sending;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1_400);
    expect(sent.body).toMatchObject({
      state: 'pending',
      response: null,
      error: { class: 'timeout', message: 'no answer within 1500 ms' },
    });
    await eventually(
      () => delivery(endpoint.id, sent.body.deliveryId),
      (d) => d.state === 'succeeded',
    );
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([sent.body.webhookId, sent.body.webhookId]);
    const done = await delivery(endpoint.id, sent.body.deliveryId);
    expect(done.attempts[0].request.headers['webhook-signature']).toBe(
      receiver.requests[0].headers['webhook-signature'],
    );
  });

  it('honours Retry-After on 429 and 503, within the schedule’s bounds', async () => {
    const { receiver, endpoint } = await endpointFor();
    receiver.answerInTurn([
      { status: 429, headers: { 'retry-after': '3' } },
      { status: 503, headers: { 'retry-after': '3600' } },
      { status: 200 },
    ]);
    const sent = await simulate(endpoint.id);
    await receiver.waitFor((r) => r.length === 3, 15_000);
    const [first, second, third] = receiver.requests.map((r) => r.at);
    // Asked for 3 s where the schedule says 1 s: 3 s. Asked for an hour: the schedule's longest, 3 s.
    expect(second - first).toBeGreaterThanOrEqual(2_900);
    expect(third - second).toBeGreaterThanOrEqual(2_900);
    expect(third - second).toBeLessThan(4_500);
    await eventually(
      () => delivery(endpoint.id, sent.body.deliveryId),
      (d) => d.state === 'succeeded',
    );
  });

  it('fails a delivery for good after the last retry; retry-now and replay give one more attempt with the same webhook-id', async () => {
    const { receiver, endpoint } = await endpointFor();
    receiver.answerWith(() => ({ status: 500 }));
    const sent = await Promise.all([simulate(endpoint.id), simulate(endpoint.id, 'company.name_changed')]);
    const failed = await Promise.all(
      sent.map((s) =>
        eventually(
          () => delivery(endpoint.id, s.body.deliveryId),
          (d) => d.state === 'failed',
          15_000,
        ),
      ),
    );
    for (const d of failed) {
      expect(d.attemptCount).toBe(4);
      expect(d.lastError).toMatch(/failed 4 attempts; no retry left/);
      expect(d.nextAttemptAt).toBeNull();
    }
    await new Promise((r) => setTimeout(r, 1_200));
    expect(receiver.requests).toHaveLength(8);

    receiver.answerWith(() => ({ status: 204 }));
    // A retry takes no fields: one sent is refused, and nothing is retried.
    const withField = await customer.call(
      'POST',
      `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${sent[0].body.deliveryId}/retry`,
      { delaySeconds: 10 },
    );
    expect(withField).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'delaySeconds', code: 'unknown_field' }] },
    });
    const retried = await customer.call(
      'POST',
      `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${sent[0].body.deliveryId}/retry`,
    );
    expect(retried.status).toBe(202);
    expect(retried.body.state).toBe('pending');
    const done = await eventually(
      () => delivery(endpoint.id, sent[0].body.deliveryId),
      (d) => d.state === 'succeeded',
    );
    expect(done.attemptCount).toBe(5);
    expect(receiver.requests.at(-1)!.headers['webhook-id']).toBe(sent[0].body.webhookId);

    const replay = await customer.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/replay`, {
      since: new Date(Date.now() - 60_000).toISOString(),
    });
    expect(replay).toMatchObject({ status: 202, body: { replayed: 1 } });
    await eventually(
      () => delivery(endpoint.id, sent[1].body.deliveryId),
      (d) => d.state === 'succeeded',
    );
    expect(receiver.requests.at(-1)!.headers['webhook-id']).toBe(sent[1].body.webhookId);
    expect(receiver.requests).toHaveLength(10);
    expect(receiver.requests.every((r) => r.verified === true)).toBe(true);
  });

  it('holds live events until an operator approves the account; test events are always sent', async () => {
    const someone = await signUp(app.url);
    const { receiver, endpoint } = await endpointFor(someone);
    const publisher = app.get(EventPublisher);
    const held = await publisher.publishAndWake({
      accountId: someone.accountId,
      kind: 'company.name_changed',
      isTest: false,
      data: liveChange('EQUINOR ASA'),
    });
    expect(held.deliveries).toEqual([expect.objectContaining({ endpointId: endpoint.id, state: 'held' })]);
    expect((await simulate(endpoint.id, 'company.status_changed', someone)).body.state).toBe('succeeded');
    await new Promise((r) => setTimeout(r, 1_200));
    expect(receiver.requests.map((r) => r.headers['x-service-test'])).toEqual(['true']);
    const heldLog = await delivery(endpoint.id, held.deliveries[0].id, someone);
    expect(heldLog).toMatchObject({ state: 'held', attemptCount: 0, isTest: false });
    expect(
      (await someone.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${held.deliveries[0].id}/retry`))
        .status,
    ).toBe(409);

    const filed = await someone.call('POST', '/api/v1/access-requests', {
      countries: ['NO'],
      monthlyVolume: 100,
      events: ['company.name_changed'],
      useCase: 'Watching our Norwegian counterparties.',
    });
    await app.get(AccessRequestAdmin).approve(filed.body.id);
    const live = await publisher.publishAndWake({
      accountId: someone.accountId,
      kind: 'company.name_changed',
      isTest: false,
      data: liveChange('EQUINOR ASA'),
    });
    expect(live.deliveries[0].state).toBe('pending');
    await receiver.waitFor((r) => r.length === 2);
    const got = receiver.requests[1];
    expect(got.verified).toBe(true);
    expect(got.headers['x-service-event']).toBe('company.name_changed');
    expect(got.headers['x-service-test']).toBeUndefined();
    expect(got.body).toMatchObject({
      event: 'company.name_changed',
      source: 'registry-lookup',
      api_version: 'v1',
      is_test: false,
      data: liveChange('EQUINOR ASA') && { entity_id: 'ent_no_923609016' },
    });
    expect(got.body.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The held one stays held (not sent retroactively) until asked for.
    expect((await delivery(endpoint.id, held.deliveries[0].id, someone)).state).toBe('held');
    expect(
      (await someone.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${held.deliveries[0].id}/retry`))
        .status,
    ).toBe(202);
    await receiver.waitFor((r) => r.length === 3);
    expect(receiver.requests[2].headers['webhook-id']).toBe(heldLog.webhookId);
  });

  it('only sends an event to the endpoints subscribed to its kind', async () => {
    const someone = await signUp(app.url);
    const filed = await someone.call('POST', '/api/v1/access-requests', {
      countries: ['NO'],
      monthlyVolume: 100,
      events: ['company.name_changed'],
      useCase: 'Subscription filter check.',
    });
    await app.get(AccessRequestAdmin).approve(filed.body.id);
    const names = await endpointFor(someone, ['company.name_changed']);
    const statuses = await endpointFor(someone, ['company.status_changed']);
    const published = await app.get(EventPublisher).publishAndWake({
      accountId: someone.accountId,
      kind: 'company.name_changed',
      isTest: false,
      data: liveChange('X ASA'),
    });
    expect(published.deliveries.map((d) => d.endpointId)).toEqual([names.endpoint.id]);
    await names.receiver.waitFor((r) => r.length === 1);
    expect(statuses.receiver.requests).toHaveLength(0);
  });

  it('signs with both secrets for a day after a rotation: a receiver with either verifies', async () => {
    const { receiver, endpoint } = await endpointFor();
    const rotated = (await customer.call('POST', `/api/v1/webhook-endpoints/${endpoint.id}/rotate-secret`)).body;
    await simulate(endpoint.id);
    await receiver.waitFor((r) => r.length === 1);
    const r = receiver.requests[0];
    const signatures = String(r.headers['webhook-signature']).split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    for (const secret of [endpoint.secret, rotated.secret])
      expect(new Webhook(secret).verify(r.rawBody, r.headers as Record<string, string>)).toEqual(r.body);
  });

  it('keeps at most WEBHOOK_ENDPOINT_CONCURRENCY requests in flight per endpoint, and delivers them all', async () => {
    const someone = await signUp(app.url);
    const filed = await someone.call('POST', '/api/v1/access-requests', {
      countries: ['NO'],
      monthlyVolume: 100,
      events: ['company.name_changed'],
      useCase: 'Concurrency check, ten events.',
    });
    await app.get(AccessRequestAdmin).approve(filed.body.id);
    const { receiver } = await endpointFor(someone);
    receiver.answerWith(() => ({ status: 200, delayMs: 300 }));
    const publisher = app.get(EventPublisher);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        publisher.publishAndWake({
          accountId: someone.accountId,
          kind: 'company.name_changed',
          isTest: false,
          data: liveChange(`N${i} ASA`),
        }),
      ),
    );
    await receiver.waitFor((r) => r.length === 10, 20_000);
    expect(receiver.maxInFlight).toBe(2);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(10);
    // The wake-ups of one endpoint's deliveries fold into one drain: still one attempt each,
    // every one signed and logged with its outcome.
    expect(receiver.requests.map((r) => r.verified)).toEqual(Array(10).fill(true));
    const db = app.get(DataSource);
    await eventually(
      () =>
        db.query(
          `SELECT count(*)::int AS n FROM delivery WHERE account_id = $1 AND state = 'succeeded' AND attempt_count = 1`,
          [someone.accountId],
        ),
      (rows: Array<{ n: number }>) => rows[0].n === 10,
    );
    const attempts = await db.query(
      `SELECT a.attempt_number AS attempt, a.response_status AS status FROM delivery_attempt a JOIN delivery d ON d.id = a.delivery_id WHERE d.account_id = $1`,
      [someone.accountId],
    );
    expect(attempts).toEqual(Array(10).fill({ attempt: 1, status: 200 }));
  });

  it('checks the address connected to at every attempt: a name that now resolves to a refused address is not reached', async () => {
    const target = await new WebhookReceiver('127.0.0.2').start();
    receivers.push(target);
    const port = target.url.split(':').pop();
    dns.table.set('rebind.example.test', '93.184.215.14'); // public when the endpoint is saved
    const saved = await customer.call('POST', '/api/v1/webhook-endpoints', {
      url: `http://rebind.example.test:${port}/hook`,
    });
    expect(saved.status).toBe(201);
    dns.table.set('rebind.example.test', '127.0.0.2'); // loopback (not allowlisted) when it is sent
    // The simulator checks the target before it reads anything, and says so at once.
    const refused = await simulate(saved.body.id);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      code: 'target_not_allowed',
      detail: expect.stringMatching(/resolves to 127.0.0.2, a loopback address/),
    });
    // An event written before the name moved is checked again where it is sent.
    const published = await app.get(EventPublisher).publishAndWake({
      accountId: customer.accountId,
      kind: 'company.name_changed',
      isTest: true,
      data: liveChange('EQUINOR ASA'),
    });
    const deliveryId = published.deliveries.find((d) => d.endpointId === saved.body.id)!.id;
    const log = await eventually(
      () => delivery(saved.body.id, deliveryId),
      // The attempt is logged when claimed, its outcome once the request is over: wait for that.
      (d: any) => d.attempts.length > 0 && d.attempts[0].finishedAt !== null,
    );
    expect(log.attempts[0]).toMatchObject({
      errorClass: 'target_not_allowed',
      errorMessage: expect.stringMatching(/resolves to 127.0.0.2, a loopback address/),
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(target.requests).toHaveLength(0);
  });

  it('lists deliveries and events with filters and cursors, and keeps accounts apart', async () => {
    const someone = await signUp(app.url);
    const { receiver, endpoint } = await endpointFor(someone);
    receiver.answerWith((_r, i) => ({ status: i === 1 ? 500 : 200 }));
    const ids: string[] = [];
    for (const kind of ['company.status_changed', 'company.name_changed', 'register.unavailable'])
      ids.push((await simulate(endpoint.id, kind, someone)).body.deliveryId);
    const base = `/api/v1/webhook-endpoints/${endpoint.id}/deliveries`;
    const all = (await someone.call('GET', base)).body;
    expect(all.data.map((d: any) => d.id)).toEqual([...ids].reverse());
    expect(all.nextCursor).toBeNull();
    const pending = (await someone.call('GET', `${base}?state=pending`)).body;
    expect(pending.data.map((d: any) => d.id)).toEqual([ids[1]]);
    const pages: string[] = [];
    let cursor: string | null = null;
    do {
      const res: any = (await someone.call('GET', `${base}?limit=1${cursor ? `&cursor=${cursor}` : ''}`)).body;
      pages.push(...res.data.map((d: any) => d.id));
      cursor = res.nextCursor;
    } while (cursor);
    expect(pages).toEqual([...ids].reverse());
    const since = (await delivery(endpoint.id, ids[1], someone)).createdAt;
    expect(
      (await someone.call('GET', `${base}?since=${encodeURIComponent(since)}`)).body.data.map((d: any) => d.id),
    ).toEqual([ids[2], ids[1]]);
    expect(
      (await someone.call('GET', `${base}?until=${encodeURIComponent(since)}`)).body.data.map((d: any) => d.id),
    ).toEqual([ids[0]]);
    for (const bad of ['state=bogus', 'limit=0', 'limit=abc', 'cursor=garbage', 'since=yesterday', 'colour=red']) {
      const res = await someone.call('GET', `${base}?${bad}`);
      expect({ bad, status: res.status, code: res.body.code }).toEqual({ bad, status: 400, code: 'invalid_parameter' });
    }

    // Events: the catch-up feed, with the envelope exactly as delivered.
    const events = (await someone.call('GET', '/api/v1/events')).body;
    expect(events.data.map((e: any) => e.event)).toEqual([
      'register.unavailable',
      'company.name_changed',
      'company.status_changed',
    ]);
    const delivered = receiver.requests.find((r: ReceivedRequest) => r.body.event === 'register.unavailable')!;
    expect(events.data[0].payload).toEqual(delivered.body);
    expect((await someone.call('GET', '/api/v1/events?event=company.name_changed')).body.data).toHaveLength(1);
    const one = (await someone.call('GET', `/api/v1/events/${events.data[0].id}`)).body;
    expect(one.deliveries).toEqual([{ id: ids[2], endpointId: endpoint.id, state: 'succeeded' }]);

    // Another account sees none of it.
    expect((await customer.call('GET', `/api/v1/events/${events.data[0].id}`)).status).toBe(404);
    expect((await customer.call('GET', `${base}/${ids[0]}`)).status).toBe(404);
    expect((await customer.call('POST', `${base}/${ids[0]}/retry`)).status).toBe(404);
    expect((await customer.call('GET', '/api/v1/events')).body.data.map((e: any) => e.id)).not.toContain(
      events.data[0].id,
    );
  });
});
