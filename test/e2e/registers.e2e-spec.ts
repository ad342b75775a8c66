import { get as httpGet } from 'node:http';
import { JobQueue } from '../../src/platform/jobs/job-queue';
import { COUNTRY_CODES, REGISTER_TABLE } from '../../src/registers/registers';
import { ProbeScheduler } from '../../src/status/probe/probe.scheduler';
import { failRegister, FakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

async function get(app: TestApp, path: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(app.url + path);
  return { status: res.status, body: await res.json(), headers: res.headers };
}

describe('GET /api/public/v1/registers', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { REGISTER_NO_PAUSED: 'true', REGISTER_DK_USERNAME: 'user', REGISTER_DK_PASSWORD: 'secret' },
    });
  });
  afterAll(() => app.close());

  it('lists every register of the register table with their facts, provides and status', async () => {
    const { status, body, headers } = await get(app, '/api/public/v1/registers');
    expect(status).toBe(200);
    expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(body.apiVersion).toMatch(/^\d+\.\d+\.\d+$/);
    expect(body.count).toBe(COUNTRY_CODES.length);
    expect(body.registers.map((r: any) => r.country)).toEqual(COUNTRY_CODES);
    for (const def of REGISTER_TABLE) {
      const r = body.registers.find((x: any) => x.country === def.country);
      expect(r).toMatchObject({
        countryName: def.countryName,
        name: def.name,
        short: def.short,
        officialUrl: def.officialUrl,
        reuseTermsUrl: def.reuseTermsUrl,
        provides: def.provides,
      });
      expect(['live', 'degraded', 'paused']).toContain(r.status);
      expect(r.liveSource).toEqual(
        expect.objectContaining({ kind: expect.any(String), official: expect.any(Boolean) }),
      );
    }
    const byCountry = Object.fromEntries(body.registers.map((r: any) => [r.country, r]));
    // AU needs a GUID that is not configured; NO is paused by the operator; DK has its credentials.
    expect(byCountry.AU).toMatchObject({ status: 'paused', statusReason: expect.stringMatching(/GUID/) });
    expect(byCountry.NO).toMatchObject({
      status: 'paused',
      statusReason: expect.stringContaining('REGISTER_NO_PAUSED'),
    });
    expect(byCountry.DK.status).not.toBe('paused');
    // Without internet (every register points at a closed port here) nothing is live.
    expect(byCountry.GB.status).toBe('degraded');
    expect(byCountry.GB.statusReason).toEqual(expect.any(String));
    // France without an INSEE key reads the public mirror: never official.
    expect(byCountry.FR.liveSource).toMatchObject({ official: false, kind: 'public_mirror:recherche-entreprises' });
  });

  it('filters by status and by provides, case-insensitively and with comma lists', async () => {
    const paused = await get(app, '/api/public/v1/registers?status=PAUSED');
    expect(paused.body.registers.map((r: any) => r.country).sort()).toEqual(['AU', 'NO']);
    expect(paused.body.count).toBe(2);
    const notPaused = await get(app, '/api/public/v1/registers?status=live,degraded');
    expect(notPaused.body.count).toBe(COUNTRY_CODES.length - 2);
    const officers = await get(app, '/api/public/v1/registers?provides=officers');
    expect(officers.body.registers.map((r: any) => r.country)).toEqual(
      REGISTER_TABLE.filter((r) => r.provides.officers).map((r) => r.country),
    );
    const both = await get(app, '/api/public/v1/registers?provides=officers&status=paused');
    expect(both.body.registers.map((r: any) => r.country)).toEqual(['NO']);
    const filings = await get(app, '/api/public/v1/registers?provides=filings');
    expect(filings.body).toMatchObject({ count: 0, registers: [] });
  });

  it.each([
    ['status=bogus', 'status', 'live, degraded, paused'],
    ['provides=directors', 'provides', 'officers, filings, monitoring'],
    ['status=', 'status', 'live, degraded, paused'],
    ['status=live&status=%27%3B--', 'status', 'live, degraded, paused'],
  ])('rejects %s with 400 invalid_parameter listing the allowed values', async (query, field, allowed) => {
    const res = await fetch(`${app.url}/api/public/v1/registers?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      errors: [{ field, code: 'invalid_parameter' }],
    });
    expect(body.detail).toContain(allowed);
  });

  it('answers the plain list ahead of the route as the route does: same bytes and headers, 304 to its ETag, HEAD without a body', async () => {
    // The plain list is answered ahead of the route while the statuses are fresh
    // (RegisterListResponse); with a query, even an empty one, or a condition, by the route.
    // The boot's probe round first: a status it changes between two of the requests below
    // would change the list (Bull runs it beside the test on the real services).
    await app.get(JobQueue).drain();
    const url = `${app.url}/api/public/v1/registers`;
    // As sent, uncompressed: the Content-Length to compare (a compressed answer is chunked).
    const identity = { headers: { 'Accept-Encoding': 'identity' } };
    const plain = await fetch(url, identity);
    const routed = await fetch(`${url}?`, identity);
    const body = await plain.text();
    expect(plain.status).toBe(200);
    expect(body).toBe(await routed.text());
    for (const name of [
      'content-type',
      'etag',
      'content-length',
      'access-control-allow-origin',
      'access-control-expose-headers',
      'x-ratelimit-limit',
    ]) {
      expect([name, plain.headers.get(name)]).toEqual([name, routed.headers.get(name)]);
    }
    expect(plain.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(plain.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    expect(plain.headers.get('etag')).toMatch(/^W\/"/);
    expect(plain.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(plain.headers.get('x-ratelimit-remaining'))).toBe(
      Number(routed.headers.get('x-ratelimit-remaining')) + 1,
    );

    // Through node:http: fetch adds Cache-Control: no-cache to a conditional request, which is never answered 304.
    const notModified = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      httpGet(url, { headers: { 'If-None-Match': plain.headers.get('etag')! } }, (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: text }));
      }).on('error', reject);
    });
    expect(notModified).toEqual({ status: 304, body: '' });
    // Under 16 KiB, sent as it is even to a client that takes gzip (http-app.ts), ahead of the route too.
    const asked = await fetch(url, { headers: { 'Accept-Encoding': 'gzip' } });
    expect(asked.headers.get('content-encoding')).toBeNull();
    expect(await asked.text()).toBe(body);
    const head = await fetch(url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(plain.headers.get('content-length'));
    expect(head.headers.get('etag')).toBe(plain.headers.get('etag'));
    expect(await head.text()).toBe('');
  });
});

/**
 * The unfiltered list is served from a serialization made once per change of the list
 * (RegistersService.listJson): a probe that changes a register's status shows in the very
 * next answer, ETag included.
 */
describe('GET /api/public/v1/registers after a probe changes a status', () => {
  let fakes: FakeRegisters;
  let app: TestApp;
  const T0 = '2026-11-22T12:00:00.000Z';

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({ now: T0, env: { ...fakes.env, PROBE_INTERVAL_SECONDS: '300' } });
    await app.get(JobQueue).drain(); // the boot round: GB answers, so it is live
  });

  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
  });

  it('shows the new status at once', async () => {
    const before = await get(app, '/api/public/v1/registers');
    expect(before.body.registers.find((r: any) => r.country === 'GB')).toMatchObject({
      status: 'live',
      statusReason: null,
    });
    expect((await get(app, '/api/public/v1/registers')).headers.get('etag')).toBe(before.headers.get('etag'));

    failRegister(fakes, 'GB');
    app.clock.set(new Date(Date.parse(T0) + 300_000).toISOString());
    await app.get(ProbeScheduler).tick();
    await app.get(JobQueue).drain();

    const after = await get(app, '/api/public/v1/registers');
    expect(after.body.registers.find((r: any) => r.country === 'GB')).toMatchObject({
      status: 'degraded',
      statusReason: expect.stringMatching(/^The last probe failed/),
    });
    expect(after.headers.get('etag')).not.toBe(before.headers.get('etag'));
    // The filtered list, built per request, says the same.
    const degraded = await get(app, '/api/public/v1/registers?status=degraded');
    expect(degraded.body.registers.map((r: any) => r.country)).toContain('GB');
  });
});
