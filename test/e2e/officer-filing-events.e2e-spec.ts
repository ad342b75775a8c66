import type { ServerResponse } from 'node:http';
import { AccessRequestAdmin } from '../../src/events/accounts/admin/access-request-admin.service';
import { eventually, signUp } from '../support/event-side';
import { fixture } from '../support/fake-register';
import { FakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { MODE, startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

const JSON_HEADERS = { 'Content-Type': 'application/json' };
const G = 'registers/gb';
const line = (file: string) => JSON.stringify(JSON.parse(fixture(`${G}/${file}`))) + '\n';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * The GB streams as a customer sees them, on the real clock: the recorded officer, filing and
 * company events replayed by a fake stream on loopback (chunked lines, heartbeats, a drop in
 * the middle of a line, a re-sent resource, a 416), each real change one signed webhook at a
 * receiver that verifies it with `standardwebhooks`, numbered per company without a gap
 * across kinds. Runs on both suites.
 */
describe(`officer, filing and company events from the GB streams (${MODE})`, () => {
  let fakes: FakeRegisters;
  let app: TestApp;
  let receiver: WebhookReceiver;
  const live: Record<string, ServerResponse | undefined> = {};
  const connections: Record<string, Array<string | null>> = { companies: [], officers: [], filings: [] };
  /** What the next connections of a stream get, in turn (then: heartbeats only). */
  const scripts: Record<string, Array<(res: ServerResponse) => void>> = { companies: [], officers: [], filings: [] };

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    fakes.GB_API.get('/company/10345936', { fixture: `${G}/ch-company-profile-10345936-derived-from-05954546.json` });
    fakes.GB_API.get('/company/10345936/officers', {
      fixture: `${G}/ch-company-officers-10345936-derived-from-stream-events.json`,
    });
    fakes.GB_API.get('/company/12317301', { fixture: `${G}/ch-company-profile-12317301-derived-from-05954546.json` });
    fakes.GB_API.get('/company/12317301/officers', {
      body: '{"items":[],"total_results":0,"kind":"officer-list"}',
      headers: JSON_HEADERS,
    });
    for (const name of Object.keys(connections))
      fakes.GB_STREAM.get(`/${name}`, (req) => ({
        raw: (res) => {
          connections[name].push(req.query.get('timepoint'));
          const script = scripts[name].shift();
          if (script) return script(res);
          res.writeHead(200, JSON_HEADERS);
          res.write('\n');
          live[name] = res;
        },
      }));
    app = await startTestApp({
      realClock: true,
      env: {
        ...fakes.env,
        REGISTER_GB_API_KEY: 'k',
        REGISTER_GB_STREAM_KEY: 'stream-key',
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s',
        DELIVERY_SWEEP_INTERVAL_MS: '500',
        DETECTION_INTERVAL_SECONDS: '3',
        PROBE_INTERVAL_SECONDS: '86400',
      },
    });
    await eventually(
      () => fetch(`${app.url}/api/public/v1/registers?status=live`).then((r) => r.json() as Promise<any>),
      (b) => b.registers.some((r: { country: string }) => r.country === 'GB'),
    );
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await app?.close();
    for (const res of Object.values(live)) res?.destroy();
    await fakes?.stop();
    await receiver?.stop();
  });

  it('provides filings exactly for GB with a stream key', async () => {
    const body = await fetch(`${app.url}/api/public/v1/registers?provides=filings`).then(
      (r) => r.json() as Promise<any>,
    );
    expect(body.registers.map((r: { country: string }) => r.country)).toEqual(['GB']);
  });

  it('one signed webhook per real change, none for re-sends, sequence numbers without gaps across kinds', async () => {
    const customer = await signUp(app.url);
    const filed = await customer.call('POST', '/api/v1/access-requests', {
      countries: ['GB'],
      monthlyVolume: 100,
      events: ['company.officers_changed', 'company.filing_published'],
      useCase: 'Watching the directors and filings of our British suppliers.',
    });
    expect(filed.status).toBe(201);
    await app.get(AccessRequestAdmin).approve(filed.body.id);
    const endpoint = await customer.call('POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}/hook` });
    expect(endpoint.status).toBe(201);
    expect(endpoint.body.events).toEqual(
      expect.arrayContaining(['company.officers_changed', 'company.filing_published', 'register.available']),
    );
    receiver.secrets = [endpoint.body.secret];
    for (const registrationNumber of ['10345936', '12317301']) {
      const watch = await customer.call('POST', '/api/v1/watches', { country: 'GB', registrationNumber });
      expect(watch.status).toBe(201);
      expect(watch.body.baseline.state).toBe('taken');
    }
    await eventually(
      async () => Object.keys(live).length,
      (n) => n === 3,
    );

    // Officers: a heartbeat, the appointment in chunks, then half of the resignation and a drop.
    const appointment = line('ch-streaming-officers-event-10345936-appointment.json');
    const resignation = line('ch-streaming-officers-event-10345936-resignation.json');
    const officers = live.officers!;
    officers.write('\n');
    officers.write(appointment.slice(0, 50));
    await sleep(20);
    officers.write(appointment.slice(50) + '\n');
    officers.write(resignation.slice(0, 100));
    // After the drop: the resignation whole, an unwatched company, the appointment re-sent; then a 416, then from now.
    scripts.officers.push(
      (res) => {
        res.writeHead(200, JSON_HEADERS);
        res.write(resignation);
        res.write(line('ch-streaming-officers-event-01448826-no-appointed-on.json'));
        res.write(line('ch-streaming-officers-event-10345936-appointment-derived-resent.json'));
        setTimeout(() => res.destroy(), 50);
      },
      (res) => {
        res.writeHead(416, JSON_HEADERS);
        res.end('{"error":"Requested Range Not Satisfiable"}');
      },
    );
    await sleep(50);
    officers.destroy();
    // Filings: the new confirmation statement, then the same filing annotated (not a new filing).
    live.filings!.write(line('ch-streaming-filings-event-12317301-cs01-timepoint-49094846.json'));
    live.filings!.write(line('ch-streaming-filings-event-12317301-cs01-timepoint-49095333-with-annotation.json'));
    // Companies: 10345936 renamed.
    live.companies!.write(line('ch-streaming-companies-event-10345936-derived-renamed.json'));

    await receiver.waitFor((r) => r.length >= 4, 60_000);
    // The 416 re-reads the watched companies: the register now shows the changes already sent.
    fakes.GB_API.get('/company/10345936', { fixture: `${G}/ch-company-profile-10345936-derived-renamed.json` });
    fakes.GB_API.get('/company/10345936/officers', {
      fixture: `${G}/ch-company-officers-10345936-derived-after-stream-events.json`,
    });
    await eventually(
      async () => connections.officers,
      (c) => c.length >= 4,
      30_000,
    );
    expect(connections.officers).toEqual([null, '2240349', '2240390', null]);
    const reread = () => fakes.GB_API.requests.filter((r) => r.path === '/company/10345936/officers').length;
    await eventually(
      async () => reread(),
      (n) => n >= 2,
      30_000,
    );
    await sleep(1_500);

    const got = receiver.requests.map((r) => r.body);
    expect(receiver.requests.every((r) => r.verified === true)).toBe(true);
    const about = (entity: string) =>
      got
        .filter((b) => b.data.entity_id === entity)
        .sort((a, b) => a.data.sequence - b.data.sequence)
        .map((b) => [b.data.sequence, b.event, b.data.change.action ?? b.data.change.field]);
    // The streams run side by side: the rename may come between the two officer events, never twice.
    const numbered = about('ent_gb_10345936');
    expect(numbered.map((e) => e[0])).toEqual([1, 2, 3]);
    expect(numbered.map((e) => `${e[1]} ${e[2]}`).sort()).toEqual([
      'company.name_changed name',
      'company.officers_changed appointed',
      'company.officers_changed resigned',
    ]);
    expect(numbered.findIndex((e) => e[2] === 'appointed')).toBeLessThan(
      numbered.findIndex((e) => e[2] === 'resigned'),
    );
    expect(about('ent_gb_12317301')).toEqual([[1, 'company.filing_published', 'published']]);
    expect(got).toHaveLength(4);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(4);

    const resigned = got.find((b) => b.data.change.action === 'resigned');
    expect(resigned).toMatchObject({
      event: 'company.officers_changed',
      is_test: false,
      data: {
        entity_id: 'ent_gb_10345936',
        sequence: expect.any(Number),
        country: 'GB',
        registration_number: '10345936',
        change: {
          field: 'officers',
          action: 'resigned',
          previous: 'NORRIS, Anthony Carmelo, Director, appointed 2016-08-25',
          current: 'NORRIS, Anthony Carmelo, Director, appointed 2016-08-25, resigned 2021-08-19',
        },
        officer: {
          name: 'NORRIS, Anthony Carmelo',
          role: 'Director',
          kind: 'person',
          appointed_on: '2016-08-25',
          resigned_on: '2021-08-19',
        },
        provenance: { source_mode: 'live' },
      },
    });
    const filing = got.find((b) => b.event === 'company.filing_published');
    expect(filing.data.filing).toMatchObject({ id: 'MzI4MzUzMjgyMGFkaXF6a2N4', type: 'CS01', date: '2020-11-16' });

    // The account's events by company: what a receiver that saw a gap would pull.
    const pulled = await customer.call('GET', '/api/v1/events?entityId=ent_gb_10345936');
    expect(pulled.status).toBe(200);
    expect(pulled.body.data.map((e: any) => e.payload.data.sequence)).toEqual([3, 2, 1]);
  });
});
