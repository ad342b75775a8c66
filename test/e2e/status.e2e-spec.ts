import { JobQueue } from '../../src/platform/jobs/job-queue';
import { COUNTRY_CODES, CountryCode } from '../../src/registers/registers';
import { ProbeScheduler } from '../../src/status/probe/probe.scheduler';
import { RegisterStatusService } from '../../src/status/register-status.service';
import { failRegister, FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

/**
 * Probes at chosen instants (the clock is injected), some registers answering and some
 * failing, then /status: every uptime figure is checked exactly.
 */
describe('GET /api/public/v1/status after scheduled probes', () => {
  let fakes: FakeRegisters;
  let app: TestApp;

  const T = {
    t0: '2026-10-01T00:00:00.000Z', // 52 days before "now": only in the 90-day window
    t1: '2026-11-15T06:00:00.000Z', // in 30 d, not in 7 d
    t2: '2026-11-21T12:05:00.000Z', // in 24 h
    t3: '2026-11-22T11:00:00.000Z',
    t4: '2026-11-22T11:55:00.000Z',
    now: '2026-11-22T12:00:00.000Z',
  };
  // Which registers fail at each instant; the others answer with their recorded responses.
  const failing: Record<'t0' | 't1' | 't2' | 't3' | 't4', CountryCode[]> = {
    t0: ['GB', 'CA'],
    t1: ['GB', 'CA'],
    t2: ['GB', 'CA'],
    t3: ['GB', 'AU'],
    t4: ['GB'],
  };

  async function probeAt(instant: keyof typeof failing): Promise<void> {
    resetFakeRegisters(fakes);
    for (const cc of failing[instant]) failRegister(fakes, cc);
    app.clock.set(T[instant]);
    await app.get(ProbeScheduler).tick();
    await app.get(JobQueue).drain();
  }

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    for (const cc of failing.t0) failRegister(fakes, cc);
    app = await startTestApp({
      now: T.t0, // the scheduler's first round at boot probes the t0 slot
      env: {
        ...fakes.env,
        REGISTER_DK_USERNAME: 'u',
        REGISTER_DK_PASSWORD: 'p',
        REGISTER_AU_GUID: 'test-guid',
        PROBE_INTERVAL_SECONDS: '300',
      },
    });
    await app.get(JobQueue).drain();
    for (const instant of ['t1', 't2', 't3', 't4'] as const) await probeAt(instant);
    app.clock.set(T.now);
  });

  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
  });

  async function report(): Promise<any> {
    const res = await fetch(`${app.url}/api/public/v1/status`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    return res.json();
  }

  const w = (probes: number, ok: number) => ({ probes, ok, uptime: probes ? ok / probes : null });

  it('computes uptime over 24 h, 7 d, 30 d and 90 d from the probes, per register', async () => {
    const body = await report();
    expect(body.generatedAt).toBe(T.now);
    expect(body.probeIntervalSeconds).toBe(300);
    const by = Object.fromEntries(body.registers.map((r: any) => [r.country, r]));
    expect(Object.keys(by)).toEqual(COUNTRY_CODES);
    expect(by.NO.uptime).toEqual({ '24h': w(3, 3), '7d': w(3, 3), '30d': w(4, 4), '90d': w(5, 5) });
    expect(by.PL.uptime).toEqual(by.NO.uptime);
    expect(by.AU.uptime).toEqual({ '24h': w(3, 2), '7d': w(3, 2), '30d': w(4, 3), '90d': w(5, 4) });
    expect(by.GB.uptime).toEqual({ '24h': w(3, 0), '7d': w(3, 0), '30d': w(4, 0), '90d': w(5, 0) });
    expect(by.CA.uptime).toEqual({ '24h': w(3, 2), '7d': w(3, 2), '30d': w(4, 2), '90d': w(5, 2) });
    // FI's probe reads the recorded Nokia Oyj answer at every instant.
    expect(by.FI.uptime).toEqual({ '24h': w(3, 3), '7d': w(3, 3), '30d': w(4, 4), '90d': w(5, 5) });
    for (const r of body.registers) expect(r.probeCount).toBe(5);
  });

  it('reports the last probe, the last success and the status with the documented thresholds', async () => {
    const by = Object.fromEntries((await report()).registers.map((r: any) => [r.country, r]));
    expect(by.GB).toMatchObject({
      status: 'degraded',
      lastSuccessAt: null,
      lastProbe: { slotStart: T.t4, ok: false, httpStatus: 503, errorClass: 'http_5xx' },
    });
    expect(by.GB.statusReason).toContain('http_5xx');
    expect(by.NO).toMatchObject({
      status: 'live',
      statusReason: null,
      lastSuccessAt: T.t4,
      lastProbe: { slotStart: T.t4, ok: true, httpStatus: 200, errorClass: null },
    });
    expect(by.NO.lastProbe.latencyMs).toEqual(expect.any(Number));
    // AU failed at t3 (degraded at once) and answered once since: not yet live (2 in a row needed).
    expect(by.AU).toMatchObject({ status: 'degraded', statusChangedAt: T.t3 });
    expect(by.AU.statusReason).toMatch(/1 of 2/);
    // CA failed until t2, then answered at t3 and t4: live again at t4.
    expect(by.CA).toMatchObject({ status: 'live', statusChangedAt: T.t4 });
    // France reads a mirror: degraded even while every probe succeeds.
    expect(by.FR).toMatchObject({ status: 'degraded', lastProbe: { ok: true } });
    expect(by.FR.statusReason).toMatch(/mirror/);
  });

  it('gives 90 days of per-day uptime, oldest first', async () => {
    const no = (await report()).registers.find((r: any) => r.country === 'NO');
    expect(no.daily).toHaveLength(90);
    expect(no.daily[0].date).toBe('2026-08-25');
    expect(no.daily[89]).toEqual({ date: '2026-11-22', ...w(2, 2) });
    const days = Object.fromEntries(no.daily.map((d: any) => [d.date, d]));
    expect(days['2026-10-01']).toEqual({ date: '2026-10-01', ...w(1, 1) });
    expect(days['2026-11-21']).toEqual({ date: '2026-11-21', ...w(1, 1) });
    expect(days['2026-11-20']).toEqual({ date: '2026-11-20', ...w(0, 0) });
    const au = (await report()).registers.find((r: any) => r.country === 'AU');
    expect(au.daily[89]).toEqual({ date: '2026-11-22', ...w(2, 1) });
  });

  it('stores every status transition', async () => {
    const ca = await app.get(RegisterStatusService).transitions('CA');
    expect(ca.map((t) => [t.fromStatus, t.toStatus, t.at.toISOString()])).toEqual([
      ['degraded', 'live', T.t4],
      [null, 'degraded', T.t0],
    ]);
    const au = await app.get(RegisterStatusService).transitions('AU');
    expect(au.map((t) => [t.fromStatus, t.toStatus])).toEqual([
      ['live', 'degraded'],
      [null, 'live'],
    ]);
  });

  it('probes each register once per slot however often the slot is scheduled', async () => {
    const before = fakes.NO_API.requestsTo('/enheter/923609016').length;
    app.clock.set(T.t4);
    await app.get(ProbeScheduler).tick();
    await app.get(ProbeScheduler).tick();
    await app.get(JobQueue).drain();
    expect(fakes.NO_API.requestsTo('/enheter/923609016').length).toBe(before);
    app.clock.set(T.now);
  });
});
