import { AccessRequestAdmin } from '../../src/events/accounts/admin/access-request-admin.service';
import { JobQueue } from '../../src/platform/jobs/job-queue';
import { ProbeService } from '../../src/status/probe/probe.service';
import { importSample, SAMPLE_PRODUCED_AT } from '../support/datasets';
import { eventually, signUp } from '../support/event-side';
import { FI_FAILING, FI_NOKIA, FI_UNKNOWN } from '../support/fake-fi-register';
import type { FakeResponse } from '../support/fake-register';
import { fixture } from '../support/fake-register';
import { failRegister, FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { MODE, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const NOW = '2026-11-22T10:15:30.123Z';
const F = 'registers/fi';
const REGISTER = 'Yritys- ja yhteisötietojärjestelmä YTJ (Patentti- ja rekisterihallitus)';
const NOKIA_URL = 'https://tietopalvelu.ytj.fi/yritys/0112038-9';
const RENAMED = `${F}/prh-ytj-v3-companies-businessId-0112038-9-derived-renamed-moved.json`;
const LIQUIDATION = `${F}/prh-ytj-v3-companies-businessId-0112038-9-derived-liquidation-legal-form-changed.json`;

/** The ways PRH can fail to give an answer the service can read. */
const FAILURES: Array<[string, FakeResponse]> = [
  ['503 with its ErrorResponse', { status: 503, fixture: `${F}/prh-ytj-v3-error-503-derived-from-schema.json` }],
  [
    'an HTML page',
    { body: '<!DOCTYPE html><html><body>Huoltokatko</body></html>', headers: { 'Content-Type': 'text/html' } },
  ],
  [
    'a truncated body',
    {
      body: fixture(`${F}/prh-ytj-v3-companies-name-nokia-derived-three-hits.json`).slice(0, 600),
      headers: { 'Content-Type': 'application/json' },
    },
  ],
  ['429 in text/plain', { status: 429, body: 'Too Many Requests', headers: { 'Retry-After': '0' } }],
];

async function getJson(base: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(base + path);
  return { status: res.status, body: await res.json() };
}

/**
 * Finland (PRH's YTJ open data API v3) end to end, as a user sees it: search by name and by
 * business ID, lookup, the offline check digit, PRH failing, /registers, /status, MCP and the
 * OpenAPI document, against a fake PRH replaying the recorded Nokia answer and answers derived
 * from it (test/fixtures/registers/fi/MANIFEST.md).
 */
describe(`Finland (PRH), end to end (${MODE})`, () => {
  let fakes: FakeRegisters;
  let app: TestApp;

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({ now: NOW, env: { ...fakes.env } });
    await app.get(JobQueue).drain(); // the probes of the boot
    await importSample(app, 'FI');
  });
  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
  });
  beforeEach(() => resetFakeRegisters(fakes));

  const get = (path: string) => getJson(app.url, path);
  const search = (q: string) => get(`/api/public/v1/search?q=${encodeURIComponent(q)}&country=fi`);
  const prhReads = () => fakes.FI_API.requestsTo('/companies');

  describe('search and lookup', () => {
    it('searches by name: live, official, several hits in the register’s words', async () => {
      const { status, body } = await search('Nokia');
      expect(status).toBe(200);
      expect(body).toMatchObject({ query: 'Nokia', country: 'FI', countryName: 'Finland', resolved: true, count: 3 });
      expect(body.register).toMatchObject({
        name: REGISTER,
        short: 'PRH',
        officialUrl: 'https://www.ytj.fi',
        status: 'live',
        provides: { officers: false, filings: false, monitoring: true },
      });
      expect(body).not.toHaveProperty('warning');
      expect(prhReads().map((r) => r.query.get('name'))).toEqual(['Nokia']);
      const byNumber = Object.fromEntries(body.results.map((r: any) => [r.registrationNumber, r]));
      expect(byNumber[FI_NOKIA]).toEqual({
        name: 'Nokia Oyj',
        registrationNumber: FI_NOKIA,
        country: 'FI',
        status: 'Rekisterissä',
        statusCategory: 'active',
        legalForm: 'Julkinen osakeyhtiö',
        address: 'Karakaari 7, 02610 ESPOO',
        city: 'ESPOO',
        incorporationDate: '1896-12-19',
        extra: expect.objectContaining({ companyForm: '17', euId: 'FIFPRO.0112038-9' }),
        source: { register: REGISTER, url: NOKIA_URL, official: true, kind: 'native_official', retrievedAt: NOW },
      });
      // The derived hits: a company in liquidation and an ended one.
      expect(byNumber['9876543-0']).toMatchObject({ status: 'Selvitystila', statusCategory: 'in_liquidation' });
      expect(byNumber['9000001-1']).toMatchObject({ status: 'Lakannut', statusCategory: 'dissolved' });
    });

    it.each(['0112038-9', '01120389', '0112038 9', 'FI01120389', 'Y-tunnus: 0112038-9'])(
      'looks the business ID %p up directly, one request by businessId',
      async (q) => {
        const { status, body } = await search(q);
        expect(status).toBe(200);
        expect(body).toMatchObject({
          resolved: true,
          count: 1,
          results: [{ name: 'Nokia Oyj', registrationNumber: FI_NOKIA }],
        });
        expect(prhReads().map((r) => [r.query.get('businessId'), r.query.get('name')])).toEqual([[FI_NOKIA, null]]);
      },
    );

    it.each([
      ['0112038-8', '0112038-8 is not a valid Finnish business ID (Y-tunnus): its check digit should be 9.'],
      ['01120388', '0112038-8 is not a valid Finnish business ID (Y-tunnus): its check digit should be 9.'],
      [
        '9000002-5',
        '9000002-5 is not a valid Finnish business ID (Y-tunnus): no business ID begins with 9000002, as its check digit would be 10.',
      ],
      [
        'Y-tunnus 112038-9',
        'A Finnish business ID (Y-tunnus) is seven digits, a dash and a check digit, like 0112038-9; "Y-tunnus 112038-9" is not.',
      ],
    ])('refuses %p offline: 400 invalid_query with a sentence saying what is wrong', async (q, sentence) => {
      const { status, body } = await search(q);
      expect(status).toBe(400);
      expect(body).toMatchObject({
        code: 'invalid_query',
        detail: sentence,
        errors: [{ field: 'q', code: 'invalid_query', message: sentence }],
      });
      const lookup = await get(`/api/public/v1/companies/FI/${encodeURIComponent(q)}`);
      expect(lookup).toMatchObject({ status: 400, body: { code: 'invalid_query', detail: sentence } });
      expect(prhReads()).toHaveLength(0);
    });

    it('no hit is resolved: false, an answer', async () => {
      const { status, body } = await search('Zyxwvut Oy');
      expect(status).toBe(200);
      expect(body).toMatchObject({ resolved: false, count: 0, results: [], register: { status: 'live' } });
    });

    it('company lookup: the record with officers null (PRH publishes none), with and without the dash', async () => {
      for (const id of [FI_NOKIA, '01120389']) {
        const { status, body } = await get(`/api/public/v1/companies/FI/${id}`);
        expect(status).toBe(200);
        expect(body.register.status).toBe('live');
        expect(body.company).toMatchObject({
          name: 'Nokia Oyj',
          registrationNumber: FI_NOKIA,
          legalForm: 'Julkinen osakeyhtiö',
          officers: null,
          source: { official: true, url: NOKIA_URL, retrievedAt: NOW },
        });
      }
    });

    it('an unknown business ID is 404 company_not_found; a name is not a business ID', async () => {
      expect(await get(`/api/public/v1/companies/FI/${FI_UNKNOWN}`)).toMatchObject({
        status: 404,
        body: { code: 'company_not_found' },
      });
      expect(await get('/api/public/v1/companies/FI/Nokia')).toMatchObject({
        status: 400,
        body: { code: 'invalid_query', detail: expect.stringContaining('is not a PRH registration number') },
      });
    });

    it('a ceased company keeps its record, in the register’s word', async () => {
      fakes.FI_API.get('/companies', { fixture: `${F}/prh-ytj-v3-companies-businessId-0112038-9-derived-ceased.json` });
      const { body } = await get(`/api/public/v1/companies/FI/${FI_NOKIA}`);
      expect(body.company).toMatchObject({ status: 'Lakannut', statusCategory: 'dissolved' });
    });
  });

  describe('PRH failing', () => {
    function expectFallback(body: any) {
      expect(body.register.status).toBe('degraded');
      expect(body.warning).toContain('"fi-sample" (produced 2026-11-01)');
      for (const r of body.results ?? [body.company])
        expect(r.source).toMatchObject({ official: false, kind: 'dataset:fi-sample', retrievedAt: SAMPLE_PRODUCED_AT });
    }

    it.each(FAILURES)(
      '%s: the name search answers from the dataset, not official, with a warning',
      async (_w, answer) => {
        fakes.FI_API.get('/companies', answer);
        const { status, body } = await search('Nokia');
        expect(status).toBe(200);
        expectFallback(body);
        expect(body.results.map((r: any) => r.name)).toContain('Nokia Oyj');
        expect(JSON.stringify(body)).not.toMatch(/Huoltokatko|Service Unavailable|Too Many Requests|totalResults/);
      },
    );

    it.each(FAILURES)('%s: the lookup answers from the dataset', async (_w, answer) => {
      fakes.FI_API.get('/companies', answer);
      const { status, body } = await get(`/api/public/v1/companies/FI/${FI_NOKIA}`);
      expect(status).toBe(200);
      expectFallback(body);
      expect(body.company).toMatchObject({ name: 'Nokia Oyj', officers: null, source: { url: NOKIA_URL } });
    });

    it('the register failing for one business ID (503): the warning says it did not answer', async () => {
      const { body } = await search(FI_FAILING);
      expect(body.register.status).toBe('degraded');
      expect(body.warning).toMatch(/did not answer \(http_5xx\)/);
      expect(body).toMatchObject({ resolved: false, count: 0 });
    });

    describe('with only the bundled sample, no import of the bulk file', () => {
      let sampleOnly: TestApp;
      beforeAll(async () => {
        sampleOnly = await startTestApp({ now: NOW, env: { ...fakes.env, DATASET_SEED: 'true' } });
      });
      afterAll(() => sampleOnly?.close());

      it('a miss is 502 upstream_error: the sample cannot vouch for it', async () => {
        failRegister(fakes, 'FI');
        const { status, body } = await getJson(sampleOnly.url, '/api/public/v1/search?q=Zyxwvut%20Oy&country=FI');
        expect(status).toBe(502);
        expect(body.code).toBe('upstream_error');
        expect(body.detail).toMatch(/not a complete copy of the register/);
      });

      it('Nokia Oyj, the recorded company of the sample, is still an answer', async () => {
        failRegister(fakes, 'FI');
        const { status, body } = await getJson(sampleOnly.url, '/api/public/v1/search?q=0112038-9&country=FI');
        expect(status).toBe(200);
        expect(body.results[0]).toMatchObject({
          name: 'Nokia Oyj',
          source: { official: false, kind: 'dataset:bundled-sample', url: NOKIA_URL },
        });
        expect(body.warning).toContain('"bundled-sample"');
      });
    });
  });

  describe('FI in the service’s lists', () => {
    it('/registers lists FI after NO, with provides true only for monitoring', async () => {
      const { body } = await get('/api/public/v1/registers');
      const countries = body.registers.map((r: any) => r.country);
      expect(countries.indexOf('FI')).toBe(countries.indexOf('NO') + 1);
      expect(body.registers.find((r: any) => r.country === 'FI')).toMatchObject({
        countryName: 'Finland',
        name: REGISTER,
        short: 'PRH',
        officialUrl: 'https://www.ytj.fi',
        reuseTermsUrl: 'https://creativecommons.org/licenses/by/4.0/',
        provides: { officers: false, filings: false, monitoring: true },
        status: 'live',
        liveSource: expect.objectContaining({ kind: 'native_official', official: true }),
      });
      const monitored = await get('/api/public/v1/registers?provides=monitoring');
      expect(monitored.body.registers.map((r: any) => r.country)).toContain('FI');
      const officers = await get('/api/public/v1/registers?provides=officers');
      expect(officers.body.registers.map((r: any) => r.country)).not.toContain('FI');
    });

    it('/status reports FI from its probe of the recorded Nokia answer', async () => {
      const { body } = await get('/api/public/v1/status');
      expect(body.registers.find((r: any) => r.country === 'FI')).toMatchObject({
        status: 'live',
        lastProbe: { ok: true, httpStatus: 200, errorClass: null },
      });
      expect(fakes.FI_API.requests.length).toBe(0); // reset before each case: the probe ran at boot
    });

    it('the MCP tools name FI from the register table, and search it', async () => {
      const rpc = (id: number, method: string, params?: unknown) =>
        fetch(`${app.url}/api/public/v1/mcp`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) }),
        }).then((r) => r.json() as Promise<any>);
      const { result } = await rpc(1, 'tools/list');
      const tools = Object.fromEntries(result.tools.map((t: any) => [t.name, t]));
      for (const name of ['search_companies', 'get_company', 'list_registers'])
        expect(tools[name].description).toContain('FI (Finland: PRH)');
      expect(tools.get_company.description).toMatch(/; not [A-Z, ]*\bFI\b/);
      const call = await rpc(2, 'tools/call', {
        name: 'search_companies',
        arguments: { q: '0112038-9', country: 'fi' },
      });
      expect(call.result.structuredContent).toMatchObject({
        country: 'FI',
        results: [{ name: 'Nokia Oyj', source: { official: true, url: NOKIA_URL } }],
      });
    });

    it('the OpenAPI document offers FI and describes the business ID errors', async () => {
      const { body } = await get('/api/public/v1/openapi.json');
      const searchOp = body.paths['/api/public/v1/search'].get;
      const country = searchOp.parameters.find((p: any) => p.name === 'country');
      expect(country.schema.enum).toContain('FI');
      expect(country.description).toContain('FI');
      const lookup = body.paths['/api/public/v1/companies/{country}/{registrationNumber}'].get;
      expect(lookup.parameters.find((p: any) => p.name === 'country').schema.enum).toContain('FI');
      expect(searchOp.responses['400'].description).toMatch(/Finnish business ID/);
      expect(searchOp.responses['502'].description).toContain('upstream_error');
    });
  });
});

describe(`Finland (PRH), change detection end to end (${MODE})`, () => {
  let fakes: FakeRegisters;
  let app: TestApp;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({
      realClock: true,
      env: {
        ...fakes.env,
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s',
        DELIVERY_SWEEP_INTERVAL_MS: '500',
        DETECTION_INTERVAL_SECONDS: '3',
        PROBE_INTERVAL_SECONDS: '86400',
      },
    });
    await eventually(
      () => getJson(app.url, '/api/public/v1/registers?status=live').then((r) => r.body),
      (b) => b.registers.some((r: { country: string }) => r.country === 'FI'),
    );
  });
  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  async function approvedCustomerWithReceiver() {
    const customer = await signUp(app.url);
    const filed = await customer.call('POST', '/api/v1/access-requests', {
      countries: ['FI'],
      monthlyVolume: 100,
      events: ['company.name_changed'],
      useCase: 'Watching our Finnish suppliers.',
    });
    expect(filed.status).toBe(201);
    await app.get(AccessRequestAdmin).approve(filed.body.id);
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const endpoint = await customer.call('POST', '/api/v1/webhook-endpoints', {
      url: `${receiver.url}/hook`,
      events: [
        'company.name_changed',
        'company.address_changed',
        'company.status_changed',
        'company.legal_form_changed',
        'register.unavailable',
      ],
    });
    expect(endpoint.status).toBe(201);
    receiver.secrets = [endpoint.body.secret];
    return { customer, receiver };
  }

  it('checks a watched business ID like search does', async () => {
    const { customer } = await approvedCustomerWithReceiver();
    const bad = await customer.call('POST', '/api/v1/watches', { country: 'FI', registrationNumber: '0112038-8' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([
      {
        field: 'registrationNumber',
        code: 'invalid_registration_number',
        message: '0112038-8 is not a valid Finnish business ID (Y-tunnus): its check digit should be 9.',
      },
    ]);
  });

  it('a watched company renamed and moved, then in liquidation as an Osakeyhtiö: signed webhooks in PRH’s words', async () => {
    resetFakeRegisters(fakes);
    const { customer, receiver } = await approvedCustomerWithReceiver();
    const created = await customer.call('POST', '/api/v1/watches', { country: 'FI', registrationNumber: '01120389' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      entityId: 'ent_fi_0112038-9',
      registrationNumber: FI_NOKIA,
      companyName: 'Nokia Oyj',
      baseline: { state: 'taken', sourceMode: 'live', sourceUrl: NOKIA_URL },
    });

    fakes.FI_API.get('/companies', { fixture: RENAMED });
    await receiver.waitFor((r) => r.filter((x) => x.body?.event?.endsWith('_changed')).length >= 2, 30_000);
    fakes.FI_API.get('/companies', { fixture: LIQUIDATION });
    await receiver.waitFor((r) => r.filter((x) => x.body?.event?.endsWith('_changed')).length >= 4, 30_000);

    const changes = receiver.requests.filter((x) => x.body?.event?.endsWith('_changed'));
    for (const r of changes) {
      expect(r.verified).toBe(true);
      expect(r.headers['x-service-event']).toBe(r.body.event);
      expect(r.body).toMatchObject({ source: 'registry-lookup', api_version: 'v1', is_test: false });
    }
    const order = ['name', 'address', 'status', 'legal_form'];
    expect(
      changes
        .map((r) => [r.body.event, r.body.data.change.previous, r.body.data.change.current])
        .sort((a, b) => order.indexOf(a[0].slice(8, -8)) - order.indexOf(b[0].slice(8, -8))),
    ).toEqual([
      ['company.name_changed', 'Nokia Oyj', 'Nokia Group Oyj'],
      ['company.address_changed', 'Karakaari 7, 02610 ESPOO', 'Karaportti 3, 02610 ESPOO'],
      ['company.status_changed', 'Rekisterissä', 'Selvitystila'],
      ['company.legal_form_changed', 'Julkinen osakeyhtiö', 'Osakeyhtiö'],
    ]);
    const named = changes.find((r) => r.body.event === 'company.name_changed')!;
    expect(named.body.data).toMatchObject({
      entity_id: 'ent_fi_0112038-9',
      country: 'FI',
      company_name: 'Nokia Group Oyj',
      registration_number: FI_NOKIA,
      register: { name: REGISTER, official_url: 'https://www.ytj.fi' },
      change: { field: 'name' },
      provenance: { source_mode: 'live', source_url: NOKIA_URL },
    });
    expect((await customer.call('DELETE', `/api/v1/watches/${created.body.id}`)).status).toBe(204);
  });

  it('PRH down: register.unavailable once to the account watching an FI company', async () => {
    resetFakeRegisters(fakes);
    const { customer, receiver } = await approvedCustomerWithReceiver();
    const watched = await customer.call('POST', '/api/v1/watches', { country: 'FI', registrationNumber: FI_NOKIA });
    expect(watched.body.baseline.state).toBe('taken');
    const probes = app.get(ProbeService);
    const slot = (m: number) => new Date(Date.UTC(2030, 0, 1, 0, m)).toISOString();
    failRegister(fakes, 'FI');
    await probes.run({ country: 'FI', slotStart: slot(1) });
    await probes.run({ country: 'FI', slotStart: slot(2) });
    await receiver.waitFor((r) => r.some((x) => x.body?.event === 'register.unavailable'), 20_000);
    const outage = receiver.requests.filter((x) => x.body?.event === 'register.unavailable');
    expect(outage).toHaveLength(1);
    expect(outage[0].verified).toBe(true);
    expect(outage[0].body.data).toMatchObject({
      country: 'FI',
      register: { name: REGISTER, official_url: 'https://www.ytj.fi' },
      status: 'degraded',
      reason: expect.stringContaining('probe failed'),
    });
    resetFakeRegisters(fakes);
    await probes.run({ country: 'FI', slotStart: slot(3) });
    await probes.run({ country: 'FI', slotStart: slot(4) });
    await customer.call('DELETE', `/api/v1/watches/${watched.body.id}`);
  });
});
