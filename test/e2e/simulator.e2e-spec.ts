import { BUNDLED_PRODUCED_AT } from '../../src/dataset/seed/bundled-sample';
import { REGISTER_TABLE } from '../../src/registers/registers';
import { DnsResolver, ResolvedAddress } from '../../src/events/webhooks/outbound/dns-resolver';
import { Customer, eventually, signUp } from '../support/event-side';
import { FakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(120_000);

/** A name that is public when the endpoint is saved and loopback ever after (DNS rebinding). */
/** Names that resolve as a script says: one address per lookup, the last one again after. */
class Scripted extends DnsResolver {
  private readonly answers = new Map<string, string[]>([
    // Public when saved and when the simulator checks it, loopback when connected to (DNS rebinding).
    ['sim.example.test', ['93.184.215.14', '93.184.215.14', '127.0.0.3']],
    // Public when saved, private by the time a test event is sent.
    ['moved.example.test', ['93.184.215.14', '10.9.8.7']],
  ]);
  override async resolve(host: string): Promise<ResolvedAddress[]> {
    const list = this.answers.get(host) ?? ['93.184.215.14'];
    return [{ address: list.length > 1 ? list.shift()! : list[0], family: 4 }];
  }
}

const ISO_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The simulator: one real, signed test event now, with real company data, for every built kind. */
describe('webhook simulator (/api/v1/simulator/events)', () => {
  let app: TestApp;
  let fakes: FakeRegisters;
  let receiver: WebhookReceiver;
  let customer: Customer;
  let endpointId: string;

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({
      realClock: true,
      overrides: [{ provide: DnsResolver, useValue: new Scripted() }],
      env: {
        ...fakes.env,
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s',
        WEBHOOK_TIMEOUT_MS: '1500',
        SIMULATOR_SENDS_PER_HOUR: '12',
        DELIVERY_SWEEP_INTERVAL_MS: '500',
      },
    });
    receiver = await new WebhookReceiver().start();
    customer = await signUp(app.url);
    const ep = await customer.call('POST', '/api/v1/webhook-endpoints', {
      url: `${receiver.url}/hooks`,
      events: ['company.name_changed'],
    });
    endpointId = ep.body.id;
    receiver.secrets = [ep.body.secret];
  });
  afterAll(async () => {
    await app?.close();
    await receiver?.stop();
    await fakes?.stop();
  });

  /** Requests the fake registers received so far. */
  // Reads naming the company (the registers' probes read other numbers meanwhile).
  const readsOf = (number: string) =>
    fakes.all().reduce((n, f) => n + f.requests.filter((r) => `${r.path}?${r.query}`.includes(number)).length, 0);

  const send = (body: Record<string, unknown>, who = customer) =>
    who.call('POST', '/api/v1/simulator/events', { endpointId, ...body });

  it.each([
    ['company.status_changed', 'status'],
    ['company.name_changed', 'name'],
    ['company.address_changed', 'address'],
    ['company.legal_form_changed', 'legal_form'],
  ])('sends %s with a real company of the bundled sample and a plausible change of %s', async (event, field) => {
    const res = await send({ event });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      sent: true,
      state: 'succeeded',
      error: null,
      response: { status: 200, bodyStart: 'ok' },
      remainingThisHour: expect.any(Number),
    });
    const got = receiver.requests.at(-1)!;
    expect(got.verified).toBe(true);
    expect(got.rawBody).toBe(res.body.request.body);
    expect(got.headers).toMatchObject({
      'x-service-event': event,
      'x-service-test': 'true',
      'webhook-id': res.body.webhookId,
      'content-type': 'application/json',
    });
    expect(res.body.request).toMatchObject({
      method: 'POST',
      url: `${receiver.url}/hooks`,
      headers: { 'X-Service-Event': event, 'X-Service-Test': 'true', 'webhook-id': res.body.webhookId },
    });
    const envelope = got.body;
    expect(Object.keys(envelope)).toEqual(['event', 'source', 'api_version', 'is_test', 'timestamp', 'data']);
    expect(envelope).toMatchObject({
      event,
      source: 'registry-lookup',
      api_version: 'v1',
      is_test: true,
      timestamp: expect.stringMatching(ISO_SECONDS),
    });
    const d = envelope.data;
    expect(Object.keys(d)).toEqual([
      'entity_id',
      'sequence',
      'country',
      'company_name',
      'registration_number',
      'register',
      'change',
      'provenance',
    ]);
    const register = REGISTER_TABLE.find((r) => r.country === d.country)!;
    expect(d.entity_id).toBe(`ent_${d.country.toLowerCase()}_${d.registration_number}`);
    expect(d.register).toEqual({ name: register.name, official_url: register.officialUrl });
    expect(d.change).toEqual({
      field,
      previous: expect.any(String),
      current: expect.any(String),
      observed_at: expect.stringMatching(ISO_MS),
    });
    expect(d.change.previous).not.toBe(d.change.current);
    // The truth about where the record came from: the bundled sample, not a live read.
    expect(d.provenance).toEqual({
      source_mode: 'dataset',
      source_url: expect.stringMatching(/^https:\/\//),
      retrieved_at: BUNDLED_PRODUCED_AT,
    });
  });

  it('sends company.no_change: the company, change null, when it was checked', async () => {
    const res = await send({ event: 'company.no_change', country: 'DK' });
    const d = JSON.parse(res.body.request.body).data;
    expect(Object.keys(d)).toEqual([
      'entity_id',
      'sequence',
      'country',
      'company_name',
      'registration_number',
      'register',
      'change',
      'checked_at',
      'provenance',
    ]);
    expect(d).toMatchObject({
      country: 'DK',
      change: null,
      checked_at: expect.stringMatching(ISO_MS),
      provenance: { source_mode: 'dataset' },
    });
  });

  it('sends register.unavailable: the register, its status, why and since when', async () => {
    const res = await send({ event: 'register.unavailable', country: 'gb' });
    expect(res.body.state).toBe('succeeded');
    const body = JSON.parse(res.body.request.body);
    expect(body.event).toBe('register.unavailable');
    expect(body.data).toEqual({
      country: 'GB',
      register: {
        name: 'Companies House register of companies',
        official_url: 'https://find-and-update.company-information.service.gov.uk',
      },
      status: 'degraded',
      reason: expect.stringMatching(/^Simulated: /),
      since: expect.stringMatching(ISO_MS),
      status_url: `${app.url}/api/public/v1/status`,
      watched_companies: 0,
    });
  });

  it('sends the officer, filing and register.available kinds; company events carry their own test sequence', async () => {
    // An account of its own: the sends of this file's customer are limited to 12 an hour.
    const other = await signUp(app.url);
    const ep = await other.call('POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}/kinds` });
    const send = (body: Record<string, unknown>) =>
      other.call('POST', '/api/v1/simulator/events', { endpointId: ep.body.id, ...body });
    const officer = await send({ event: 'company.officers_changed', country: 'GB' });
    expect(officer.status).toBe(201);
    const o = JSON.parse(officer.body.request.body);
    expect(o.event).toBe('company.officers_changed');
    expect(o.data).toMatchObject({
      entity_id: expect.stringMatching(/^ent_gb_/),
      sequence: expect.any(Number),
      change: { field: 'officers', action: 'appointed', previous: null, current: expect.any(String) },
      officer: { name: expect.any(String), role: expect.any(String), kind: 'person', resigned_on: null },
      provenance: { source_mode: 'dataset' },
    });
    const filing = JSON.parse((await send({ event: 'company.filing_published' })).body.request.body);
    expect(filing.data).toMatchObject({
      country: 'GB',
      change: { field: 'filings', action: 'published', previous: null },
      filing: {
        type: 'AA',
        category: 'accounts',
        url: expect.stringMatching(/\/filing-history\/.+\/document\?format=pdf/),
      },
    });
    const back = JSON.parse((await send({ event: 'register.available', country: 'NO' })).body.request.body);
    expect(back.data).toMatchObject({ country: 'NO', status: 'live', outage: { duration_seconds: 2100 } });
    expect(back.data.sequence).toBeUndefined();
    // The same company twice: 1 then 2 in the account's test sequence of it.
    const first = JSON.parse(
      (await send({ event: 'company.name_changed', country: 'NO', registrationNumber: '883603362' })).body.request.body,
    );
    const second = JSON.parse(
      (await send({ event: 'company.status_changed', country: 'NO', registrationNumber: '883603362' })).body.request
        .body,
    );
    expect(second.data.sequence).toBe(first.data.sequence + 1);
  });

  it('reads a named company as search reads it, and says it was a live official read', async () => {
    const res = await send({ event: 'company.address_changed', country: 'NO', registrationNumber: '883 603 362' });
    expect(res.status).toBe(201);
    const d = JSON.parse(res.body.request.body).data;
    expect(fakes.NO_API.requestsTo('/enheter/883603362').length).toBeGreaterThanOrEqual(1);
    expect(d).toMatchObject({
      entity_id: 'ent_no_883603362',
      country: 'NO',
      registration_number: '883603362',
      change: { field: 'address' },
      provenance: {
        source_mode: 'live',
        source_url: 'https://virksomhet.brreg.no/nb/oppslag/enheter/883603362',
        retrieved_at: expect.stringMatching(ISO_MS),
      },
    });
    // A number that fails its check digit, or a company the register does not know: the search errors.
    expect(
      (await send({ event: 'company.name_changed', country: 'NO', registrationNumber: '923609017' })).body.code,
    ).toBe('invalid_query');
  });

  it.each([
    [{ event: 'company.officers_changed', country: 'AU' }, 'country', 'invalid_value', /not sent for AU companies/],
    [{ event: 'company.filing_published', country: 'NO' }, 'country', 'invalid_value', /only GB filings/],
    [{ event: 'company.deleted' }, 'event', 'unknown_event', /allowed: company.status_changed/],
    [
      { event: 'company.name_changed', registrationNumber: '923609016' },
      'country',
      'invalid_value',
      /country is required/,
    ],
    [{ event: 'company.name_changed', country: 'SE' }, 'country', 'invalid_value', /one of GB/],
    [{ event: 'company.name_changed', dryRun: true }, 'dryRun', 'unknown_field', /unknown field/],
    [{ event: ['company.name_changed'] }, 'event', 'invalid_type', /must be text, not a list/],
  ])('refuses %j: 400 naming the field', async (body, field, code, message) => {
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(expect.arrayContaining([{ field, code, message: expect.stringMatching(message) }]));
  });

  it('answers 404 for an endpoint that is not the account’s, and 409 for a disabled one', async () => {
    const other = await signUp(app.url);
    expect((await send({ event: 'company.name_changed' }, other)).status).toBe(404);
    expect((await send({ event: 'company.name_changed', endpointId: 'we_nope' })).status).toBe(404);
    const ep = await customer.call('POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}/off` });
    await customer.call('PATCH', `/api/v1/webhook-endpoints/${ep.body.id}`, { enabled: false });
    const res = await send({ event: 'company.name_changed', endpointId: ep.body.id });
    expect(res).toMatchObject({ status: 409, body: { code: 'conflict' } });
  });

  it('is refused a private target like any delivery, and the refusal is in the delivery log', async () => {
    const ep = await customer.call('POST', '/api/v1/webhook-endpoints', { url: 'http://sim.example.test:9/hook' });
    expect(ep.status).toBe(201);
    const res = await send({ event: 'company.name_changed', endpointId: ep.body.id });
    expect(res.body).toMatchObject({
      sent: true,
      response: null,
      error: { class: 'target_not_allowed', message: expect.stringMatching(/127.0.0.3, a loopback address/) },
      state: 'pending',
    });
    const log = await customer.call('GET', `/api/v1/webhook-endpoints/${ep.body.id}/deliveries/${res.body.deliveryId}`);
    expect(log.body.attempts[0]).toMatchObject({ errorClass: 'target_not_allowed', responseStatus: null });
    await customer.call('DELETE', `/api/v1/webhook-endpoints/${ep.body.id}`);
  });

  it('checks the target before reading the register: a host resolving privately now is 422, nothing read or sent', async () => {
    const ep = await customer.call('POST', '/api/v1/webhook-endpoints', { url: 'http://moved.example.test/hook' });
    expect(ep.status).toBe(201);
    const read = readsOf('913757424');
    const res = await send({
      event: 'company.name_changed',
      endpointId: ep.body.id,
      country: 'NO',
      registrationNumber: '913757424',
    });
    expect(res).toMatchObject({ status: 422, body: { code: 'target_not_allowed' } });
    expect(res.body.detail).toMatch(/moved\.example\.test resolves to 10\.9\.8\.7, a private address/);
    expect(readsOf('913757424')).toBe(read);
    const log = await customer.call('GET', `/api/v1/webhook-endpoints/${ep.body.id}/deliveries`);
    expect(log.body.data).toEqual([]);
    await customer.call('DELETE', `/api/v1/webhook-endpoints/${ep.body.id}`);
  });

  it('retries a failed test event on the schedule, in the delivery log like any delivery', async () => {
    const before = receiver.requests.length;
    receiver.answerWith((_r, i) => ({ status: i === before ? 502 : 200 }));
    const res = await send({ event: 'company.legal_form_changed' });
    expect(res.body).toMatchObject({
      state: 'pending',
      response: { status: 502 },
      error: { class: 'http_error' },
      nextAttemptAt: expect.any(String),
    });
    const log = await eventually(
      () =>
        customer
          .call('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries/${res.body.deliveryId}`)
          .then((r) => r.body),
      (d) => d.state === 'succeeded',
    );
    expect(log).toMatchObject({ isTest: true, attemptCount: 2, webhookId: res.body.webhookId });
    receiver.answerWith(() => ({ status: 200, body: 'ok' }));
  });

  it('limits sends per account per rolling hour, counted in the database', async () => {
    const someone = await signUp(app.url);
    const ep = await someone.call('POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}/limit` });
    const results = await Promise.all(
      Array.from({ length: 14 }, () =>
        someone.call('POST', '/api/v1/simulator/events', { event: 'register.unavailable', endpointId: ep.body.id }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(12);
    expect(statuses.filter((s) => s === 429)).toHaveLength(2);
    const refused = results.find((r) => r.status === 429)!;
    expect(refused.body).toMatchObject({
      code: 'simulator_limit_reached',
      limit: 12,
      resetAt: expect.stringMatching(ISO_MS),
    });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3_500);
    expect(Math.min(...results.filter((r) => r.status === 201).map((r) => r.body.remainingThisHour))).toBe(0);
    // A refused send reads nothing: the limit is checked before the company is read.
    const read = readsOf('913757424');
    for (let i = 0; i < 10; i++) {
      const named = await someone.call('POST', '/api/v1/simulator/events', {
        event: 'company.name_changed',
        endpointId: ep.body.id,
        country: 'NO',
        registrationNumber: '913757424',
      });
      expect(named.status).toBe(429);
    }
    expect(readsOf('913757424')).toBe(read);
    // Another account is not affected.
    expect((await send({ event: 'register.unavailable' })).status).toBe(201);
  });
});
