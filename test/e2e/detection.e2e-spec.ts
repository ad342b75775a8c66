import { AccessRequestAdmin } from '../../src/events/accounts/admin/access-request-admin.service';
import { DataSource } from 'typeorm';
import { COUNTRY_CODES } from '../../src/registers/registers';
import { ProbeService } from '../../src/status/probe/probe.service';
import { Customer, eventually, signUp } from '../support/event-side';
import { fixture } from '../support/fake-register';
import { NO_ABG } from '../support/fake-no-register';
import { failRegister, FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { MODE, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const ABN = '26154482283';
const RENAMED = 'registers/au/abr-json-abndetails-26154482283-derived-renamed-moved.jsonp';
const CANCELLED = 'registers/au/abr-json-abndetails-26154482283-derived-cancelled-legal-form-changed.jsonp';
const CZ = 'registers/cz';
const HELLA = '25834151';

/**
 * Change detection as a customer sees it, on the real clock (receivers check the signature's
 * timestamp): a watch through the account API, a change at the (fake) register, and the
 * signed webhook at the customer's receiver; no_change on request; register.unavailable once;
 * live events held until access is approved. Runs on both suites.
 */
describe(`change detection end to end (${MODE})`, () => {
  let fakes: FakeRegisters;
  let app: TestApp;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({
      realClock: true,
      env: {
        ...fakes.env,
        REGISTER_AU_GUID: 'guid',
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s',
        DELIVERY_SWEEP_INTERVAL_MS: '500',
        DETECTION_INTERVAL_SECONDS: '3',
        // Feeds are polled every 3 s: CZ's poll is nine list requests at ARES's politeness (250 a minute).
        FEED_POLL_INTERVAL_SECONDS: '3',
        // Probes here are the test's own (probes.run); a scheduled one (it reads the same CA
        // company) must not fall into the window where the test counts reads.
        PROBE_INTERVAL_SECONDS: '86400',
      },
    });
    // The probe scheduler probes every register at boot: AU answers, so it is live.
    await eventually(
      () => fetch(`${app.url}/api/public/v1/registers?status=live`).then((r) => r.json() as Promise<any>),
      (b) => b.registers.some((r: { country: string }) => r.country === 'AU'),
    );
  });
  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
    await Promise.all(receivers.map((r) => r.stop()));
  });

  async function customerWithReceiver(
    approved: boolean,
    events = [
      'company.name_changed',
      'company.address_changed',
      'company.status_changed',
      'company.legal_form_changed',
      'company.no_change',
      'register.unavailable',
    ],
  ) {
    const customer = await signUp(app.url);
    if (approved) await approve(customer);
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const endpoint = await customer.call('POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}/hook`, events });
    expect(endpoint.status).toBe(201);
    receiver.secrets = [endpoint.body.secret];
    return { customer, receiver, endpointId: endpoint.body.id as string };
  }

  async function approve(customer: Customer) {
    const filed = await customer.call('POST', '/api/v1/access-requests', {
      countries: ['AU'],
      monthlyVolume: 100,
      events: ['company.name_changed'],
      useCase: 'Watching our Australian suppliers.',
    });
    expect(filed.status).toBe(201);
    await app.get(AccessRequestAdmin).approve(filed.body.id);
  }

  it('lists every register as watched, and filters on it', async () => {
    const body = await fetch(`${app.url}/api/public/v1/registers?provides=monitoring`).then(
      (r) => r.json() as Promise<any>,
    );
    expect(body.registers.map((r: { country: string }) => r.country)).toEqual(COUNTRY_CODES);
    expect(body.registers.every((r: { provides: { monitoring: boolean } }) => r.provides.monitoring)).toBe(true);
  });

  it('watches need an API key, and a number is checked like search checks it', async () => {
    expect((await fetch(`${app.url}/api/v1/watches`)).status).toBe(401);
    const { customer } = await customerWithReceiver(false);
    const bad = await customer.call('POST', '/api/v1/watches', { country: 'NO', registrationNumber: '923609017' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      code: 'invalid_body',
      errors: [{ field: 'registrationNumber', code: 'invalid_registration_number' }],
    });
    const elsewhere = await customer.call('POST', '/api/v1/watches', {
      country: 'SE',
      registrationNumber: '5560360793',
    });
    expect(elsewhere).toMatchObject({ status: 404, body: { code: 'country_not_covered' } });
    expect((await customer.call('GET', '/api/v1/watches/wch_nope')).status).toBe(404);
    expect((await customer.call('POST', '/api/v1/watches', { country: 'NO' })).status).toBe(400);
    const tooMany = await customer.call('POST', '/api/v1/watches/bulk', {
      watches: Array.from({ length: 10_001 }, () => ({ country: 'CA', registrationNumber: '1007' })),
    });
    expect(tooMany.status).toBe(400);
  });

  it('a watched company changes at the register: each changed field arrives as a signed webhook, with the register’s words and the read’s provenance', async () => {
    resetFakeRegisters(fakes);
    const { customer, receiver } = await customerWithReceiver(true);
    const created = await customer.call('POST', '/api/v1/watches', {
      country: 'AU',
      registrationNumber: '26 154 482 283',
      notifyNoChange: true,
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toBe(`/api/v1/watches/${created.body.id}`);
    expect(created.body).toMatchObject({
      entityId: `ent_au_${ABN}`,
      companyName: 'Oneflare Pty Ltd',
      baseline: { state: 'taken', sourceMode: 'live', sourceUrl: `https://abr.business.gov.au/ABN/View?abn=${ABN}` },
      notifyNoChange: true,
    });

    // Nothing changed at the next check: company.no_change, asked for.
    await receiver.waitFor((r) => r.some((x) => x.body?.event === 'company.no_change'), 30_000);
    const quiet = receiver.requests.find((x) => x.body?.event === 'company.no_change')!;
    expect(quiet.verified).toBe(true);
    expect(quiet.body.data).toMatchObject({
      entity_id: `ent_au_${ABN}`,
      change: null,
      provenance: { source_mode: 'live' },
    });

    fakes.AU_API.get('/json/AbnDetails.aspx', { fixture: RENAMED });
    await receiver.waitFor((r) => r.filter((x) => x.body?.event?.endsWith('_changed')).length >= 2, 30_000);
    // Delivery order is not guaranteed (README): compare in the order of the fields read.
    const fieldOrder = ['company.name_changed', 'company.address_changed'];
    const changes = receiver.requests
      .filter((x) => x.body?.event?.endsWith('_changed'))
      .sort((a, b) => fieldOrder.indexOf(a.body.event) - fieldOrder.indexOf(b.body.event));
    for (const r of changes) {
      expect(r.verified).toBe(true);
      expect(r.headers['x-service-event']).toBe(r.body.event);
      expect(r.headers['x-service-test']).toBeUndefined();
      expect(r.body).toMatchObject({
        source: 'registry-lookup',
        api_version: 'v1',
        is_test: false,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      });
    }
    expect(changes.map((r) => [r.body.event, r.body.data.change.previous, r.body.data.change.current])).toEqual([
      ['company.name_changed', 'Oneflare Pty Ltd', 'Oneflare Group Pty Ltd'],
      ['company.address_changed', 'NSW 2000', 'VIC 3000'],
    ]);
    expect(changes[0].body.data).toMatchObject({
      entity_id: `ent_au_${ABN}`,
      country: 'AU',
      company_name: 'Oneflare Group Pty Ltd',
      registration_number: ABN,
      register: { name: 'Australian Business Register (ABN Lookup)', official_url: 'https://abr.business.gov.au' },
      change: { field: 'name', observed_at: expect.any(String) },
      provenance: {
        source_mode: 'live',
        source_url: `https://abr.business.gov.au/ABN/View?abn=${ABN}`,
        retrieved_at: changes[0].body.data.change.observed_at,
      },
    });

    const watch = await customer.call('GET', `/api/v1/watches/${created.body.id}`);
    expect(watch.body).toMatchObject({
      companyName: 'Oneflare Group Pty Ltd',
      lastCheck: { outcome: expect.stringMatching(/changed|no_change/) },
      nextCheckAt: expect.any(String),
    });
    // The next check is scheduled after the last one (not a wall-clock bound: a loaded machine is slow).
    expect(Date.parse(watch.body.nextCheckAt)).toBeGreaterThan(Date.parse(watch.body.lastCheck.at));
    const listed = await customer.call('GET', '/api/v1/watches?country=AU');
    expect(listed.body.data.map((w: { id: string }) => w.id)).toEqual([created.body.id]);

    // No duplicate: later checks of the same state send no change event.
    await new Promise((r) => setTimeout(r, 4_000));
    expect(receiver.requests.filter((x) => x.body?.event?.endsWith('_changed'))).toHaveLength(2);
    expect((await customer.call('DELETE', `/api/v1/watches/${created.body.id}`)).status).toBe(204);
  });

  it('holds the live events of an account without approved access; after approval, new events are delivered', async () => {
    // The register says what it said at the end of the previous case: the baseline of this watch.
    resetFakeRegisters(fakes);
    fakes.AU_API.get('/json/AbnDetails.aspx', { fixture: RENAMED });
    const { customer, receiver, endpointId } = await customerWithReceiver(false, [
      'company.status_changed',
      'company.legal_form_changed',
    ]);
    const watched = await customer.call('POST', '/api/v1/watches', { country: 'AU', registrationNumber: ABN });
    expect(watched.body.baseline.state).toBe('taken');
    fakes.AU_API.get('/json/AbnDetails.aspx', { fixture: CANCELLED });
    const held = await eventually(
      () => customer.call('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries`),
      (r) => r.body.data?.length >= 2,
      30_000,
    );
    expect(held.body.data.every((d: { state: string }) => d.state === 'held')).toBe(true);
    expect(receiver.requests).toHaveLength(0);

    await approve(customer);
    fakes.AU_API.get('/json/AbnDetails.aspx', { fixture: RENAMED });
    await eventually(
      () => customer.call('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries`),
      (r) => r.body.data?.length >= 4,
      30_000,
    );
    await receiver.waitFor((r) => r.length >= 2, 30_000);
    const byKind = (a: { body: { event: string } }, b: { body: { event: string } }) =>
      a.body.event.localeCompare(b.body.event);
    expect(
      [...receiver.requests]
        .sort(byKind)
        .map((r) => [r.body.event, r.body.data.change.previous, r.body.data.change.current, r.verified]),
    ).toEqual([
      ['company.legal_form_changed', 'Australian Public Company', 'Australian Private Company', true],
      ['company.status_changed', 'Cancelled', 'Active', true],
    ]);
    await customer.call('DELETE', `/api/v1/watches/${watched.body.id}`);
  });

  it('CZ: an ARES notification batch names a watched IČO (twice): one re-read, one signed company.name_changed', async () => {
    resetFakeRegisters(fakes);
    const { customer, receiver } = await customerWithReceiver(true);
    await eventually(
      () => fetch(`${app.url}/api/public/v1/registers?status=live`).then((r) => r.json() as Promise<any>),
      (b) => b.registers.some((r: { country: string }) => r.country === 'CZ'),
    );
    const watched = await customer.call('POST', '/api/v1/watches', {
      country: 'CZ',
      registrationNumber: 'IČO 258 34 151',
    });
    expect(watched.status).toBe(201);
    expect(watched.body).toMatchObject({
      entityId: `ent_cz_${HELLA}`,
      companyName: 'HELLA AUTOTECHNIK NOVA, s.r.o.',
      baseline: {
        state: 'taken',
        sourceMode: 'live',
        sourceUrl: `https://ares.gov.cz/ekonomicke-subjekty?ico=${HELLA}`,
      },
    });
    // The feed takes its place after the recorded batches, both released before today.
    const cursor = async () =>
      (
        (await app.get(DataSource).query(`SELECT cursor FROM feed_cursor WHERE feed = 'CZ:changes'`)) as Array<{
          cursor: string;
        }>
      )[0]?.cursor;
    await eventually(cursor, (c) => !!c && JSON.parse(c).after?.vr === 680, 30_000);

    // ARES releases batch 681 (derived), naming HELLA twice; HELLA now has a new name (derived).
    const reads = () => fakes.CZ_API.requestsTo(`/ekonomicke-subjekty/${HELLA}`).length;
    const readsBefore = reads();
    fakes.CZ_API.get(`/ekonomicke-subjekty/${HELLA}`, {
      fixture: `${CZ}/ares-ekonomicke-subjekty-ico-25834151-derived-renamed-v-likvidaci.json`,
    });
    fakes.CZ_API.post('/ekonomicke-subjekty-notifikace/vyhledat', (req) =>
      JSON.parse(req.body).datovyZdroj === 'vr'
        ? { fixture: `${CZ}/ares-ekonomicke-subjekty-notifikace-vyhledat-vr-derived-3-batches.json` }
        : { status: 404, fixture: `${CZ}/ares-error-404-nenalezeno.json` },
    );
    fakes.CZ_API.get('/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/681', {
      fixture: `${CZ}/ares-ekonomicke-subjekty-notifikace-davka-vr-681-derived.json`,
    });
    await receiver.waitFor((r) => r.some((x) => x.body?.event === 'company.name_changed'), 60_000);
    // Later polls and checks of the same state add nothing.
    await new Promise((r) => setTimeout(r, 4_000));
    const changes = receiver.requests.filter((x) => x.body?.event?.endsWith('_changed'));
    expect(changes).toHaveLength(1);
    expect(changes[0].verified).toBe(true);
    expect(changes[0].headers['x-service-event']).toBe('company.name_changed');
    expect(changes[0].body).toMatchObject({ event: 'company.name_changed', is_test: false, api_version: 'v1' });
    expect(changes[0].body.data).toMatchObject({
      entity_id: `ent_cz_${HELLA}`,
      country: 'CZ',
      company_name: 'HELLA AUTOTECHNIK NOVA, s.r.o. v likvidaci',
      registration_number: HELLA,
      register: {
        name: 'ARES – Administrativní registr ekonomických subjektů (Ministerstvo financí)',
        official_url: 'https://ares.gov.cz',
      },
      change: {
        field: 'name',
        previous: 'HELLA AUTOTECHNIK NOVA, s.r.o.',
        current: 'HELLA AUTOTECHNIK NOVA, s.r.o. v likvidaci',
      },
      provenance: { source_mode: 'live', source_url: `https://ares.gov.cz/ekonomicke-subjekty?ico=${HELLA}` },
    });
    // One batch read, one re-read of the subject it named twice; no other subject read.
    expect(fakes.CZ_API.requestsTo('/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/681')).toHaveLength(1);
    expect(reads() - readsBefore).toBe(1);
    const subjects = fakes.CZ_API.requests.filter((r) => r.path.startsWith('/ekonomicke-subjekty/'));
    expect(subjects.every((r) => r.path === `/ekonomicke-subjekty/${HELLA}`)).toBe(true);
    expect((await customer.call('DELETE', `/api/v1/watches/${watched.body.id}`)).status).toBe(204);
  });

  it('keeps a record whose register text holds NUL (Postgres cannot): the baseline is taken without it', async () => {
    resetFakeRegisters(fakes);
    // Derived from the recorded ASA search: ABG's entry with a NUL in its name and its town.
    const asa = JSON.parse(fixture('registers/no/brreg-enheter-search-organisasjonsform-asa-size5.json'));
    const abg = asa._embedded.enheter.find((e: { organisasjonsnummer: string }) => e.organisasjonsnummer === NO_ABG);
    abg.navn = `${abg.navn.slice(0, 3)}\u0000${abg.navn.slice(3)}`;
    abg.forretningsadresse.poststed = 'OS\u0000LO';
    fakes.NO_API.get(`/enheter/${NO_ABG}`, {
      body: JSON.stringify(abg),
      headers: { 'Content-Type': 'application/json' },
    });
    const customer = await signUp(app.url);
    await approve(customer);
    const watched = await customer.call('POST', '/api/v1/watches', { country: 'NO', registrationNumber: NO_ABG });
    expect(watched.status).toBe(201);
    expect(watched.body).toMatchObject({
      companyName: 'ABG SUNDAL COLLIER ASA',
      baseline: { state: 'taken', sourceMode: 'live' },
    });
    const company = await fetch(`${app.url}/api/public/v1/companies/NO/${NO_ABG}`).then(
      (r) => r.json() as Promise<any>,
    );
    expect(company.company).toMatchObject({ name: 'ABG SUNDAL COLLIER ASA' });
    expect(JSON.stringify(company)).not.toContain('\\u0000');
    expect((await customer.call('DELETE', `/api/v1/watches/${watched.body.id}`)).status).toBe(204);
  });

  it('a register going down: register.unavailable once to each account watching it, no change while it is down, catch-up after', async () => {
    resetFakeRegisters(fakes);
    const { customer, receiver } = await customerWithReceiver(true);
    const watched = await customer.call('POST', '/api/v1/watches', { country: 'CA', registrationNumber: '1007' });
    expect(watched.body).toMatchObject({ companyName: 'Abbotsford Chamber of Commerce', baseline: { state: 'taken' } });
    const probes = app.get(ProbeService);
    const slot = (m: number) => new Date(Date.UTC(2030, 0, 1, 0, m)).toISOString();
    failRegister(fakes, 'CA');
    await probes.run({ country: 'CA', slotStart: slot(1) });
    await probes.run({ country: 'CA', slotStart: slot(2) });
    await receiver.waitFor((r) => r.some((x) => x.body?.event === 'register.unavailable'), 20_000);
    const outage = receiver.requests.filter((x) => x.body?.event === 'register.unavailable');
    expect(outage).toHaveLength(1);
    expect(outage[0].verified).toBe(true);
    expect(outage[0].body.data).toMatchObject({
      country: 'CA',
      status: 'degraded',
      reason: expect.stringContaining('probe failed'),
      since: expect.any(String),
      status_url: expect.stringMatching(/\/api\/public\/v1\/status$/),
    });

    // Down, and renamed meanwhile: nothing is read, nothing is said.
    resetFakeRegisters(fakes);
    failRegister(fakes, 'CA');
    const rename = () =>
      fakes.CA_API.get('/api/corporations/1007.json', {
        fixture: 'registers/ca/corpcan-api-corporation-1007-derived-renamed-moved.json',
      });
    rename();
    const readsBefore = fakes.CA_API.requests.length;
    await new Promise((r) => setTimeout(r, 4_000));
    expect(fakes.CA_API.requests.length).toBe(readsBefore);
    expect(receiver.requests.filter((x) => x.body?.event?.endsWith('_changed'))).toHaveLength(0);

    // Back: two good probes, and the change made during the outage arrives.
    resetFakeRegisters(fakes);
    rename();
    const recovered = Date.now();
    await probes.run({ country: 'CA', slotStart: slot(3) });
    await probes.run({ country: 'CA', slotStart: slot(4) });
    await receiver.waitFor((r) => r.some((x) => x.body?.event === 'company.name_changed'), 30_000);
    const caughtUp = receiver.requests.find((x) => x.body?.event === 'company.name_changed')!;
    expect(caughtUp.body.data.change).toMatchObject({
      previous: 'Abbotsford Chamber of Commerce',
      current: 'Abbotsford Chamber of Commerce and Industry',
    });
    expect(Date.parse(caughtUp.body.data.change.observed_at)).toBeGreaterThanOrEqual(recovered - 1_000);
    expect(receiver.requests.filter((x) => x.body?.event === 'register.unavailable')).toHaveLength(1);
  });
});
