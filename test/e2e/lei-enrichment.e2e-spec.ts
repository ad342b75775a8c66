import { LeiEnrichment } from '../../src/lei/lei-enrichment.service';
import { JobQueue } from '../../src/platform/jobs/job-queue';
import { fixture } from '../support/fake-register';
import {
  AMAZON_UK_GB_NUMBER,
  AMAZON_UK_LEI,
  FakeGleif,
  routeGbCompaniesGleifHolds,
  SHELL_GB_NUMBER,
  SHELL_LEI,
  startFakeGleif,
} from '../support/fake-gleif';
import { FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const NOW = '2026-11-22T10:15:30.123Z';
const LEI_TIMEOUT_MS = 800;
const SHELL_PATH = `/api/public/v1/companies/GB/${SHELL_GB_NUMBER}`;

/**
 * The `lei` of search results and company lookups, end to end: one batched GLEIF request per
 * response (counted on the fake GLEIF), the cache, and a wait bounded by LEI_LOOKUP_TIMEOUT_MS
 * whatever GLEIF does. Companies House has no recorded profile of Shell plc or Amazon Digital
 * UK: the GB fake answers for them with bodies derived from their recorded GLEIF records
 * (test/support/fake-gleif.ts).
 */
describe('GLEIF LEI enrichment of search results and company lookups, end to end', () => {
  let fakes: FakeRegisters;
  let gleif: FakeGleif;
  let app: TestApp;

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    gleif = await startFakeGleif();
    app = await startTestApp({
      now: NOW,
      env: {
        ...fakes.env,
        ...gleif.env,
        REGISTER_GB_API_KEY: 'test-key',
        LEI_LOOKUP_TIMEOUT_MS: String(LEI_TIMEOUT_MS),
      },
    });
    await app.get(JobQueue).drain();
  });
  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
    await gleif?.stop();
  });
  beforeEach(() => {
    resetFakeRegisters(fakes);
    routeGbCompaniesGleifHolds(fakes.GB_API);
    gleif.reset();
    app.get(LeiEnrichment).clearCache();
  });

  async function get(path: string) {
    const started = performance.now();
    const res = await fetch(app.url + path);
    const body = (await res.json()) as any;
    return { status: res.status, body, ms: performance.now() - started };
  }

  it('a name search gets each mapped LEI from ONE GLEIF request, the others no field', async () => {
    const { status, body } = await get('/api/public/v1/search?q=shell&country=GB');
    expect(status).toBe(200);
    expect(body.count).toBe(17);
    const byNumber = Object.fromEntries(body.results.map((r: any) => [r.registrationNumber, r]));
    expect(byNumber[SHELL_GB_NUMBER].lei).toBe(SHELL_LEI);
    expect(byNumber[AMAZON_UK_GB_NUMBER].lei).toBe(AMAZON_UK_LEI);
    expect(body.results.filter((r: any) => 'lei' in r)).toHaveLength(2);
    // One request for the 17 numbers, filtered on the Companies House authorities.
    const batch = gleif.batchRequests();
    expect(gleif.fake.requests).toHaveLength(1);
    expect(batch).toHaveLength(1);
    expect(batch[0].query.get('filter[entity.registeredAt]')!.split(',')).toContain('RA000585');
    expect(batch[0].query.get('filter[entity.registeredAs]')!.split(',')).toEqual(
      expect.arrayContaining([SHELL_GB_NUMBER, AMAZON_UK_GB_NUMBER, '04475590']),
    );

    // The same search again: every number is known (LEI or none), GLEIF is not asked.
    const again = await get('/api/public/v1/search?q=shell&country=GB');
    expect(again.body.results.find((r: any) => r.registrationNumber === SHELL_GB_NUMBER).lei).toBe(SHELL_LEI);
    expect(gleif.fake.requests).toHaveLength(1);
  });

  it('a company lookup and a number search get the company’s LEI, one GLEIF request each', async () => {
    const company = await get(SHELL_PATH);
    expect(company.status).toBe(200);
    expect(company.body.company).toMatchObject({ registrationNumber: SHELL_GB_NUMBER, lei: SHELL_LEI, officers: [] });
    expect(gleif.batchRequests()).toHaveLength(1);

    app.get(LeiEnrichment).clearCache();
    const search = await get(`/api/public/v1/search?q=${SHELL_GB_NUMBER}&country=gb`);
    expect(search.body.results).toEqual([
      expect.objectContaining({ registrationNumber: SHELL_GB_NUMBER, lei: SHELL_LEI }),
    ]);
    expect(gleif.batchRequests()).toHaveLength(2);
  });

  it('a company GLEIF does not map has no lei field (YOU LIMITED)', async () => {
    const { status, body } = await get('/api/public/v1/companies/GB/04475590');
    expect(status).toBe(200);
    expect(body.company).not.toHaveProperty('lei');
    expect(gleif.batchRequests()).toHaveLength(1);
  });

  it('a GLEIF that never answers adds at most LEI_LOOKUP_TIMEOUT_MS: the field is absent, not wrong', async () => {
    // Baseline: the same search with GLEIF answering at once.
    const quick = await get('/api/public/v1/search?q=shell&country=GB');
    expect(quick.body.results.filter((r: any) => r.lei)).toHaveLength(2);
    app.get(LeiEnrichment).clearCache();
    gleif.fake.get('/lei-records', { raw: () => undefined }); // holds the request open, never answers
    const slow = await get('/api/public/v1/search?q=shell&country=GB');
    expect(slow.status).toBe(200);
    expect(slow.body.count).toBe(17);
    expect(slow.body.results.filter((r: any) => 'lei' in r)).toHaveLength(0);
    expect(slow.body.register.status).toBe('live');
    expect(slow.body).not.toHaveProperty('warning');
    expect(gleif.batchRequests()).toHaveLength(2);
    expect(slow.ms).toBeGreaterThanOrEqual(LEI_TIMEOUT_MS - 50);
    expect(slow.ms).toBeLessThan(quick.ms + LEI_TIMEOUT_MS + 700);

    // Not remembered as "no LEI": once GLEIF answers again, the LEIs are back.
    gleif.reset();
    const back = await get('/api/public/v1/search?q=shell&country=GB');
    expect(back.body.results.filter((r: any) => r.lei)).toHaveLength(2);
  });

  it('a GLEIF answering 5xx, HTML or a truncated page leaves the field absent, the answer whole', async () => {
    const twelve = fixture('registers/lei/gleif-lei-records-filter-lei-12-hits.json');
    for (const answer of [
      { status: 503, body: 'Service Unavailable' },
      { body: '<html>busy</html>', headers: { 'Content-Type': 'text/html' } },
      { body: twelve.slice(0, 500), headers: { 'Content-Type': 'application/vnd.api+json' } },
    ]) {
      gleif.fake.get('/lei-records', answer);
      const { status, body } = await get('/api/public/v1/search?q=shell&country=GB');
      expect(status).toBe(200);
      expect(body.results.filter((r: any) => 'lei' in r)).toHaveLength(0);
    }
    expect(gleif.batchRequests()).toHaveLength(3);
  });

  it('a GLEIF refusing connections opens its own breaker only: no request, no lei, registers untouched', async () => {
    gleif.fake.get('/lei-records', { reset: true });
    await get('/api/public/v1/companies/GB/04475590');
    await get('/api/public/v1/companies/GB/08957400');
    expect(gleif.batchRequests()).toHaveLength(2);
    // Open now: the next lookups do not ask GLEIF and do not wait for it.
    const { status, body, ms } = await get(SHELL_PATH);
    expect(status).toBe(200);
    expect(body.company).not.toHaveProperty('lei');
    expect(ms).toBeLessThan(LEI_TIMEOUT_MS);
    expect(gleif.batchRequests()).toHaveLength(2);
    const lei = await get(`/api/public/v1/lei/${SHELL_LEI}`);
    expect(lei.status).toBe(502);
    expect(lei.body.detail).toMatch(/^GLEIF is unreachable \(connection_reset\) since /);
    // Companies House is live all along.
    const registers = await get('/api/public/v1/registers');
    expect(registers.body.registers.find((r: any) => r.country === 'GB').status).toBe('live');
    expect(body.register.status).toBe('live');

    // After REGISTER_BREAKER_RETRY_SECONDS one trial goes out; GLEIF answering closes the breaker.
    gleif.reset();
    app.clock.advance(31_000);
    const trial = await get(SHELL_PATH);
    expect(trial.body.company.lei).toBe(SHELL_LEI);
    expect((await get(`/api/public/v1/lei/${SHELL_LEI}`)).status).toBe(200);
    app.clock.set(NOW);
  });
});
