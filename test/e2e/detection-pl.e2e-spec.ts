import { DataSource } from 'typeorm';
import { AccessRequestAdmin } from '../../src/events/accounts/admin/access-request-admin.service';
import { queryRows } from '../../src/platform/database/sql';
import { warsawHour } from '../../src/registers/pl/pl-biuletyn-feed';
import { ProbeService } from '../../src/status/probe/probe.service';
import { eventually, signUp } from '../support/event-side';
import { RecordedRequest } from '../support/fake-register';
import { failRegister, FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { PL_GYM, plCurrent } from '../support/fake-pl-register';
import { MODE, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const RENAMED = 'registers/pl/krs-odpisaktualny-P-0001268296-derived-renamed-moved.json';
const DAILY = 'registers/pl/krs-biuletyn-2026-09-22-derived-from-hourly-10-11.json';

/** The day before `day` (YYYY-MM-DD). */
const dayBefore = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * PL change detection as a customer sees it, on the real clock (receivers check the signature's
 * timestamp): a watch of a KRS entity through the account API; the feed resumes from a cursor
 * stored yesterday (as after a restart), reads yesterday's bulletin, which names the entity
 * twice, re-reads it once, and the changes arrive as signed webhooks; KRS failing its probes
 * sends register.unavailable once.
 */
describe(`PL change detection end to end (${MODE})`, () => {
  let fakes: FakeRegisters;
  let app: TestApp;
  let receiver: WebhookReceiver;

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
        FEED_POLL_INTERVAL_SECONDS: '1',
        PROBE_INTERVAL_SECONDS: '86400',
      },
    });
    await eventually(
      () => fetch(`${app.url}/api/public/v1/registers?status=live`).then((r) => r.json() as Promise<any>),
      (b) => b.registers.some((r: { country: string }) => r.country === 'PL'),
    );
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
    await receiver?.stop();
  });

  const gymReads = () => fakes.PL_API.requests.filter(plCurrent(PL_GYM, 'P')).length;
  const bulletins = () => fakes.PL_API.requests.filter((r: RecordedRequest) => r.path.startsWith('/Biuletyn'));

  /** Stores the feed's cursor while no poll holds the feed, as a process that stopped there would have left it. */
  async function storeCursor(cursor: string): Promise<void> {
    const dataSource = app.get(DataSource);
    await eventually(
      async () =>
        (
          await queryRows(
            dataSource,
            `UPDATE feed_cursor SET cursor = $2 WHERE feed = $1 AND (lease_owner IS NULL OR lease_until < now()) RETURNING feed`,
            ['PL:changes', cursor],
          )
        ).length,
      (updated) => updated === 1,
    );
  }

  it('the day’s bulletin names a watched entity twice: one re-read, each change one signed webhook', async () => {
    const customer = await signUp(app.url);
    const filed = await customer.call('POST', '/api/v1/access-requests', {
      countries: ['PL'],
      monthlyVolume: 100,
      events: ['company.name_changed'],
      useCase: 'Watching our Polish suppliers in KRS.',
    });
    expect(filed.status).toBe(201);
    await app.get(AccessRequestAdmin).approve(filed.body.id);
    const endpoint = await customer.call('POST', '/api/v1/webhook-endpoints', {
      url: `${receiver.url}/hook`,
      events: ['company.name_changed', 'company.address_changed', 'company.status_changed', 'register.unavailable'],
    });
    expect(endpoint.status).toBe(201);
    receiver.secrets = [endpoint.body.secret];

    // A NIP is no number KRS can be read by: refused, rather than a watch that could never be read.
    const byNip = await customer.call('POST', '/api/v1/watches', {
      country: 'PL',
      registrationNumber: '945-233-64-18',
    });
    expect(byNip.status).toBe(400);
    expect(byNip.body).toMatchObject({
      code: 'invalid_body',
      errors: [{ field: 'registrationNumber', code: 'invalid_registration_number' }],
      detail: expect.stringMatching(
        /^9452336418 is a NIP, not a KRS registration number: watch the company by its KRS number/,
      ),
    });
    const created = await customer.call('POST', '/api/v1/watches', {
      country: 'PL',
      registrationNumber: 'KRS 1268296',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      entityId: `ent_pl_${PL_GYM}`,
      companyName: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      baseline: { state: 'taken', sourceMode: 'live' },
    });
    // The feed has started on the hour under way; the scheduled checks of a feed register cost no request.
    await eventually(
      () => app.get(DataSource).query(`SELECT cursor FROM feed_cursor WHERE feed = 'PL:changes'`),
      (rows: Array<{ cursor: string | null }>) => !!rows[0]?.cursor,
    );
    await new Promise((r) => setTimeout(r, 2_000));
    expect(gymReads()).toBe(1);

    // The entity is renamed and moves; its number is in yesterday's bulletin, twice. The stored
    // cursor is yesterday morning's, as a process that stopped then would have left it.
    const yesterday = dayBefore(warsawHour(new Date(Date.now() - 10 * 60_000)).day);
    fakes.PL_API.get(plCurrent(PL_GYM, 'P'), { fixture: RENAMED });
    fakes.PL_API.get(`/Biuletyn/${yesterday}`, { fixture: DAILY });
    const readBefore = bulletins().length;
    await storeCursor(`${yesterday}T05`);

    await receiver.waitFor((r) => r.filter((x) => x.body?.event?.endsWith('_changed')).length >= 2, 60_000);
    const order = ['company.name_changed', 'company.address_changed'];
    const changes = receiver.requests
      .filter((x) => x.body?.event?.endsWith('_changed'))
      .sort((a, b) => order.indexOf(a.body.event) - order.indexOf(b.body.event));
    for (const r of changes) {
      expect(r.verified).toBe(true);
      expect(r.headers['x-service-event']).toBe(r.body.event);
      expect(r.body).toMatchObject({ source: 'registry-lookup', api_version: 'v1', is_test: false });
    }
    expect(changes.map((r) => [r.body.event, r.body.data.change.previous, r.body.data.change.current])).toEqual([
      [
        'company.name_changed',
        'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
        'GYM CENTER 9.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      ],
      ['company.address_changed', 'UL. OSTATNIA 1D, 31-444 KRAKÓW', 'UL. PIERWSZA 2/5, 31-445 KRAKÓW'],
    ]);
    expect(changes[0].body.data).toMatchObject({
      entity_id: `ent_pl_${PL_GYM}`,
      country: 'PL',
      registration_number: PL_GYM,
      company_name: 'GYM CENTER 9.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      register: { name: 'Krajowy Rejestr Sądowy (Ministerstwo Sprawiedliwości)' },
      provenance: {
        source_mode: 'live',
        source_url: `${fakes.env.REGISTER_PL_API_URL}/OdpisAktualny/${PL_GYM}?rejestr=P&format=json`,
      },
    });
    // Yesterday was read whole from its bulletin, then today's finished hours: each once.
    const read = bulletins()
      .slice(readBefore)
      .map((r) => `${r.path} ${r.query.get('godzinaOd') ?? ''}`);
    expect(read[0]).toBe(`/Biuletyn/${yesterday} `);
    expect(new Set(read).size).toBe(read.length);

    // Named twice, re-read once; later checks and polls send nothing more.
    await new Promise((r) => setTimeout(r, 4_000));
    expect(gymReads()).toBe(2);
    expect(receiver.requests.filter((x) => x.body?.event?.endsWith('_changed'))).toHaveLength(2);
    await customer.call('DELETE', `/api/v1/watches/${created.body.id}`);
  });

  it('KRS failing its probes: register.unavailable once, to the account watching a PL entity', async () => {
    resetFakeRegisters(fakes);
    const customer = await signUp(app.url);
    const filed = await customer.call('POST', '/api/v1/access-requests', {
      countries: ['PL'],
      monthlyVolume: 100,
      events: ['register.unavailable'],
      useCase: 'Watching our Polish suppliers in KRS.',
    });
    await app.get(AccessRequestAdmin).approve(filed.body.id);
    const own = await new WebhookReceiver().start();
    try {
      const endpoint = await customer.call('POST', '/api/v1/webhook-endpoints', {
        url: `${own.url}/hook`,
        events: ['register.unavailable'],
      });
      own.secrets = [endpoint.body.secret];
      const watched = await customer.call('POST', '/api/v1/watches', { country: 'PL', registrationNumber: '30897' });
      expect(watched.body).toMatchObject({ companyName: 'FUNDACJA WIELKA ORKIESTRA ŚWIĄTECZNEJ POMOCY' });
      failRegister(fakes, 'PL');
      const probes = app.get(ProbeService);
      const slot = (m: number) => new Date(Date.UTC(2030, 0, 1, 0, m)).toISOString();
      await probes.run({ country: 'PL', slotStart: slot(1) });
      await probes.run({ country: 'PL', slotStart: slot(2) });
      await own.waitFor((r) => r.some((x) => x.body?.event === 'register.unavailable'), 30_000);
      await new Promise((r) => setTimeout(r, 1_500));
      const outage = own.requests.filter((x) => x.body?.event === 'register.unavailable');
      expect(outage).toHaveLength(1);
      expect(outage[0].verified).toBe(true);
      expect(outage[0].body.data).toMatchObject({
        country: 'PL',
        status: 'degraded',
        reason: expect.stringContaining('probe failed'),
      });
    } finally {
      await own.stop();
    }
  });
});
