import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { LeiEnrichment } from '../../src/lei/lei-enrichment.service';
import { JobQueue } from '../../src/platform/jobs/job-queue';
import { ProbeService } from '../../src/status/probe/probe.service';
import { RegisterStatusService } from '../../src/status/register-status.service';
import { fixture } from '../support/fake-register';
import {
  AMAZON_UK_GB_NUMBER,
  AMAZON_UK_LEI,
  chProfileDerivedFromGleif,
  chSearchItemDerivedFromGleif,
  FakeGleif,
  FRAPORT_LEI,
  LAPSED_FUND_LEI,
  SHELL_GB_NUMBER,
  SHELL_LEI,
  startFakeGleif,
  UNKNOWN_LEI,
} from '../support/fake-gleif';
import { FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const NOW = '2026-11-22T10:15:30.123Z';
const LEI_TIMEOUT_MS = 800;
const SHELL_PATH = `/api/public/v1/companies/GB/${SHELL_GB_NUMBER}`;
const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

/**
 * GLEIF's LEI index end to end: GET /lei/{lei}, the `lei` of search results and company lookups
 * (one batched GLEIF request per response, a bounded wait), its health beside the registers',
 * and the MCP tool — against a fake GLEIF replaying the recorded records (test/support/fake-gleif.ts)
 * and the fake registers. Companies House has no recorded profile of Shell plc or Amazon Digital
 * UK: the GB fake answers for them with bodies derived from their recorded GLEIF records.
 */
describe('GLEIF LEI index, end to end', () => {
  let fakes: FakeRegisters;
  let gleif: FakeGleif;
  let app: TestApp;

  /** GB name search "shell": the two companies GLEIF holds, then the 15 recorded items of q=you. */
  function routeGbShell(): void {
    const you = JSON.parse(fixture('registers/gb/ch-search-companies-q-you.json')) as { items: unknown[] };
    const items = [chSearchItemDerivedFromGleif(SHELL_LEI), chSearchItemDerivedFromGleif(AMAZON_UK_LEI), ...you.items];
    fakes.GB_API.get((r) => r.path === '/search/companies' && /shell/i.test(r.query.get('q') ?? ''), {
      body: JSON.stringify({ kind: 'search#companies', total_results: items.length, items }),
      headers: JSON_HEADERS,
    });
    for (const lei of [SHELL_LEI, AMAZON_UK_LEI]) {
      const profile = chProfileDerivedFromGleif(lei);
      fakes.GB_API.get(`/company/${profile.company_number as string}`, {
        body: JSON.stringify(profile),
        headers: JSON_HEADERS,
      });
    }
  }

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
    // The probes of the boot slot (GLEIF's included) are done before anything is asked.
    await app.get(JobQueue).drain();
  });
  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
    await gleif?.stop();
  });
  beforeEach(() => {
    resetFakeRegisters(fakes);
    routeGbShell();
    gleif.reset();
    app.get(LeiEnrichment).clearCache();
  });

  async function get(path: string, headers: Record<string, string> = {}) {
    const started = performance.now();
    const res = await fetch(app.url + path, { headers });
    const body = (await res.json()) as any;
    return { status: res.status, body, headers: res.headers, ms: performance.now() - started };
  }

  describe('GET /api/public/v1/lei/{lei}', () => {
    it('answers Shell plc with its national record here, GLEIF’s provenance and the read rules', async () => {
      const { status, body, headers } = await get(`/api/public/v1/lei/${SHELL_LEI}`, {
        Origin: 'https://example.org',
      });
      expect(status).toBe(200);
      expect(headers.get('access-control-allow-origin')).toBe('*');
      expect(headers.get('x-ratelimit-limit')).toBe('120');
      expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(body.index).toEqual({
        name: 'GLEIF Global LEI Index',
        short: 'GLEIF',
        officialUrl: 'https://www.gleif.org',
        reuseTermsUrl: 'https://www.gleif.org/en/meta/lei-data-terms-of-use',
        licence: 'CC0 1.0',
      });
      expect(body.entity).toMatchObject({
        lei: SHELL_LEI,
        legalName: { name: 'SHELL PLC', language: 'en' },
        otherNames: [{ name: 'ROYAL DUTCH SHELL PLC', language: 'en', type: 'PREVIOUS_LEGAL_NAME' }],
        entityStatus: 'ACTIVE',
        registrationStatus: 'ISSUED',
        legalForm: { elfCode: 'B6ES', other: null },
        jurisdiction: 'GB',
        legalAddress: {
          lines: ['SHELL CENTRE'],
          city: 'LONDON',
          region: 'GB-LND',
          country: 'GB',
          postalCode: 'SE1 7NA',
        },
        headquartersAddress: { city: 'LONDON' },
        registeredAt: { id: 'RA000585', other: null, name: 'Companies House (England and Wales)' },
        registeredAs: SHELL_GB_NUMBER,
        nationalRecord: { country: 'GB', registrationNumber: SHELL_GB_NUMBER, path: SHELL_PATH },
        creationDate: '2002-02-05',
        registration: {
          initialRegistrationDate: '2016-06-30T00:00:00.000Z',
          lastUpdateDate: '2025-05-06T15:51:56.000Z',
          managingLou: '213800WAVVOPS85N2205',
          corroborationLevel: 'FULLY_CORROBORATED',
        },
        source: {
          register: 'GLEIF Global LEI Index',
          url: `https://search.gleif.org/#/record/${SHELL_LEI}`,
          official: true,
          kind: 'lei_index',
          retrievedAt: NOW,
        },
      });
      expect(body.provenanceNote).toMatch(/not the official source of national registration data/);
      expect(body.attribution).toContain('Registry Lookup');
      expect(gleif.fake.requestsTo(`/lei-records/${SHELL_LEI}`)).toHaveLength(1);
      expect(gleif.fake.requests[0].headers.accept).toBe('application/vnd.api+json');
      expect(gleif.fake.requests[0].headers['user-agent']).toMatch(/^RegistryLookup\//);

      // The national record it points to answers here, with the same LEI.
      const national = await get(body.entity.nationalRecord.path);
      expect(national.status).toBe(200);
      expect(national.body.company).toMatchObject({ name: 'SHELL PLC', lei: SHELL_LEI });
    });

    it('reads a lower-case LEI as the LEI', async () => {
      const { status, body } = await get(`/api/public/v1/lei/${SHELL_LEI.toLowerCase()}`);
      expect(status).toBe(200);
      expect(body.entity.lei).toBe(SHELL_LEI);
    });

    it('answers a lapsed LEI as lapsed (not a dissolved company), without a national record', async () => {
      const { status, body } = await get(`/api/public/v1/lei/${LAPSED_FUND_LEI}`);
      expect(status).toBe(200);
      expect(body.entity).toMatchObject({
        lei: LAPSED_FUND_LEI,
        entityStatus: 'ACTIVE',
        registrationStatus: 'LAPSED',
        entityCategory: 'FUND',
        legalForm: { elfCode: null, other: 'FUND' },
        registeredAt: { id: 'RA999999', name: null },
        registeredAs: null,
        nationalRecord: null,
        creationDate: null,
      });
    });

    it('gives no national record for a register the service does not read (Fraport, German Handelsregister)', async () => {
      const { status, body } = await get(`/api/public/v1/lei/${FRAPORT_LEI}`);
      expect(status).toBe(200);
      expect(body.entity).toMatchObject({
        registeredAt: { id: 'RA000242', name: null },
        registeredAs: 'HRB 7042',
        nationalRecord: null,
      });
    });

    it('answers an LEI GLEIF does not hold with 404 lei_not_found', async () => {
      const { status, body, headers } = await get(`/api/public/v1/lei/${UNKNOWN_LEI}`);
      expect(status).toBe(404);
      expect(headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(body).toMatchObject({ code: 'lei_not_found', status: 404, type: '/api/public/v1/problems/lei_not_found' });
      expect(body.detail).toContain(UNKNOWN_LEI);
    });

    it.each([
      ['21380068P1DRHMJ8KU71', /check digits should be 70/],
      ['21380068P1DRHMJ8KU', /has 20 characters, and this has 18/],
      ['21380068P1DRHMJ8KUAB', /last two characters are check digits/],
      ['21380068P1DRHMJ8K_70', /only letters A–Z and digits/],
    ])('refuses %s with 400 invalid_query, offline', async (lei, sentence) => {
      const { status, body, headers } = await get(`/api/public/v1/lei/${lei}`);
      expect(status).toBe(400);
      expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(body).toMatchObject({ code: 'invalid_query', errors: [{ field: 'lei', code: 'invalid_query' }] });
      expect(body.detail).toMatch(sentence);
      expect(gleif.fake.requests).toHaveLength(0);
    });

    it.each([
      ['429', { status: 429, body: '{"errors":[{"status":"429","title":"Too Many Requests"}]}' }, 'rate_limited'],
      ['503', { status: 503, body: 'Service Unavailable' }, 'http_5xx'],
      [
        'HTML instead of JSON',
        { body: '<html><body>Maintenance</body></html>', headers: { 'Content-Type': 'text/html' } },
        'invalid_response',
      ],
      [
        'a truncated body',
        {
          body: fixture('registers/lei/gleif-lei-record-21380068P1DRHMJ8KU70-shell-plc-gb-ra000585.json').slice(0, 900),
          headers: { 'Content-Type': 'application/vnd.api+json' },
        },
        'invalid_response',
      ],
    ])(
      'answers 502 upstream_error when GLEIF answers %s, nothing of it passed on',
      async (_what, answer, errorClass) => {
        gleif.fake.get(`/lei-records/${SHELL_LEI}`, answer);
        const { status, body } = await get(`/api/public/v1/lei/${SHELL_LEI}`);
        expect(status).toBe(502);
        expect(body).toMatchObject({ code: 'upstream_error', register: 'GLEIF Global LEI Index', errorClass });
        expect(body.detail).toMatch(/^GLEIF did not answer/);
        expect(JSON.stringify(body)).not.toMatch(/Maintenance|SHELL|Too Many/);
      },
    );

    it('counts in the one hourly limit shared with every /api/public/v1 endpoint', async () => {
      const a = await get('/api/public/v1/registers');
      const b = await get(`/api/public/v1/lei/${SHELL_LEI}`);
      const c = await get('/api/public/v1/status');
      const remaining = [a, b, c].map((r) => Number(r.headers.get('x-ratelimit-remaining')));
      expect(remaining[1]).toBe(remaining[0] - 1);
      expect(remaining[2]).toBe(remaining[1] - 1);
    });
  });

  describe('the `lei` of search results and company lookups', () => {
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

  describe('health', () => {
    it('lists the index beside the registers in /registers, with the status of its probes', async () => {
      const { status, body } = await get('/api/public/v1/registers');
      expect(status).toBe(200);
      expect(body.count).toBe(body.registers.length);
      expect(body.registers.map((r: any) => r.country)).not.toContain('LEI');
      expect(body.indexes).toEqual([
        {
          id: 'LEI',
          name: 'GLEIF Global LEI Index',
          short: 'GLEIF',
          officialUrl: 'https://www.gleif.org',
          reuseTermsUrl: 'https://www.gleif.org/en/meta/lei-data-terms-of-use',
          licence: 'CC0 1.0',
          status: 'live',
          statusReason: null,
          statusChangedAt: expect.any(String),
          provides: { officers: false, filings: false, monitoring: false },
          liveSource: { kind: 'lei_index', official: true, description: expect.any(String) },
          lookupPath: '/api/public/v1/lei/{lei}',
        },
      ]);
      // The filters apply to it as to a register.
      expect((await get('/api/public/v1/registers?status=live')).body.indexes).toHaveLength(1);
      expect((await get('/api/public/v1/registers?status=degraded')).body.indexes).toHaveLength(0);
      expect((await get('/api/public/v1/registers?provides=officers')).body.indexes).toHaveLength(0);
    });

    it('reports its uptime in /status; a failed GLEIF probe degrades the index and no register', async () => {
      const before = await get('/api/public/v1/status');
      expect(before.body.indexes).toHaveLength(1);
      expect(before.body.indexes[0]).toMatchObject({
        id: 'LEI',
        name: 'GLEIF Global LEI Index',
        status: 'live',
        probeCount: 1,
        lastProbe: { ok: true, httpStatus: 200, errorClass: null },
        uptime: { '24h': { probes: 1, ok: 1, uptime: 1 } },
      });
      expect(before.body.indexes[0].daily).toHaveLength(90);
      expect(gleif.fake.requests).toHaveLength(0);

      gleif.fake.get(`/lei-records/${SHELL_LEI}`, { status: 503, body: 'Service Unavailable' });
      const probes = app.get(ProbeService);
      const slot = probes.slotStart(new Date(Date.parse(NOW) + 300_000)).toISOString();
      await probes.run({ country: 'LEI', slotStart: slot });
      app.clock.advance(300_000);
      try {
        const after = await get('/api/public/v1/status');
        expect(after.body.indexes[0]).toMatchObject({
          status: 'degraded',
          statusReason: expect.stringContaining('http_5xx'),
          probeCount: 2,
          lastProbe: { ok: false, httpStatus: 503, errorClass: 'http_5xx' },
        });
        expect(after.body.registers.find((r: any) => r.country === 'GB').status).toBe('live');
        const registers = await get('/api/public/v1/registers');
        expect(registers.body.indexes[0].status).toBe('degraded');
        expect(registers.body.registers.find((r: any) => r.country === 'GB').status).toBe('live');
        expect((await app.get(RegisterStatusService).transitions('LEI')).map((t) => t.toStatus)).toEqual([
          'degraded',
          'live',
        ]);
        // A degraded index changes nothing of a lookup but its lei, which GLEIF still gives here.
        const company = await get(SHELL_PATH);
        expect(company.body.register.status).toBe('live');
      } finally {
        app.clock.set(NOW);
      }
    });
  });

  describe('MCP', () => {
    let client: Client;
    const ajv = new AjvJsonSchemaValidator();

    beforeAll(async () => {
      client = new Client({ name: 'e2e', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/public/v1/mcp`)));
    });
    afterAll(async () => {
      await client?.close();
    });

    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;

    it('lookup_lei answers what GET /lei/{lei} answers, valid against its published outputSchema', async () => {
      const tool = (await client.listTools()).tools.find((t) => t.name === 'lookup_lei')!;
      expect(tool.inputSchema.required).toEqual(['lei']);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true });
      const result = await call('lookup_lei', { lei: SHELL_LEI });
      expect(result.isError).toBeFalsy();
      const check = ajv.getValidator(tool.outputSchema as never)(result.structuredContent);
      expect(check.errorMessage).toBeUndefined();
      const rest = (await get(`/api/public/v1/lei/${SHELL_LEI}`)).body;
      expect(result.structuredContent).toEqual(rest);
      const summary = (result.content[0] as { text: string }).text;
      expect(summary).toContain('SHELL PLC — LEI 21380068P1DRHMJ8KU70');
      expect(summary).toContain(`get_company country GB, registrationNumber ${SHELL_GB_NUMBER}`);
    });

    it('lookup_lei fails as the route does: wrong check digits, unknown LEI, GLEIF down', async () => {
      const errorOf = (r: CallToolResult) => {
        expect(r.isError).toBe(true);
        return JSON.parse((r.content[1] as { text: string }).text).error as { code: string; detail: string };
      };
      expect(errorOf(await call('lookup_lei', { lei: '21380068P1DRHMJ8KU71' }))).toMatchObject({
        code: 'invalid_query',
        detail: expect.stringMatching(/check digits should be 70/),
      });
      expect(errorOf(await call('lookup_lei', { lei: UNKNOWN_LEI })).code).toBe('lei_not_found');
      gleif.fake.get(`/lei-records/${SHELL_LEI}`, { status: 500, body: 'oops' });
      expect(errorOf(await call('lookup_lei', { lei: SHELL_LEI })).code).toBe('upstream_error');
    });

    it('get_company and search_companies carry the lei; list_registers and get_register_status the index', async () => {
      const company = await call('get_company', { country: 'GB', registrationNumber: SHELL_GB_NUMBER });
      expect(company.isError).toBeFalsy();
      expect((company.structuredContent as any).company.lei).toBe(SHELL_LEI);
      expect((company.content[0] as { text: string }).text).toContain(`LEI ${SHELL_LEI}`);
      const registers = await call('list_registers', {});
      expect((registers.structuredContent as any).indexes[0].id).toBe('LEI');
      const status = await call('get_register_status', {});
      expect((status.structuredContent as any).indexes[0].id).toBe('LEI');
      const one = await call('get_register_status', { country: 'GB' });
      expect((one.structuredContent as any).registers.map((r: any) => r.country)).toEqual(['GB']);
      expect((one.structuredContent as any).indexes[0].id).toBe('LEI');
    });
  });

  it('documents the route, its new error and the lei field in the OpenAPI document', async () => {
    const { body } = await get('/api/public/v1/openapi.json');
    const op = body.paths['/api/public/v1/lei/{lei}'].get;
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '404', '429', '500', '502']);
    expect(JSON.stringify(op.responses['404'])).toContain('lei_not_found');
    expect(op.security).toEqual([]);
    expect(body.components.schemas.CompanyResultDto.properties.lei).toMatchObject({ type: 'string' });
    expect(body.components.schemas.RegisterListDto.properties.indexes).toBeDefined();
    expect(body.components.schemas.StatusReportDto.properties.indexes).toBeDefined();
  });
});
