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
  FakeGleif,
  FRAPORT_LEI,
  LAPSED_FUND_LEI,
  routeGbCompaniesGleifHolds,
  SHELL_GB_NUMBER,
  SHELL_LEI,
  startFakeGleif,
  UNKNOWN_LEI,
} from '../support/fake-gleif';
import { FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const NOW = '2026-11-22T10:15:30.123Z';
const SHELL_PATH = `/api/public/v1/companies/GB/${SHELL_GB_NUMBER}`;

/**
 * GLEIF's LEI index end to end: GET /lei/{lei}, its health beside the registers', the MCP tool
 * and the OpenAPI document — against a fake GLEIF replaying the recorded records
 * (test/support/fake-gleif.ts) and the fake registers. The `lei` of search results and company
 * lookups: lei-enrichment.e2e-spec.ts.
 */
describe('GLEIF LEI index, end to end', () => {
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
    routeGbCompaniesGleifHolds(fakes.GB_API);
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
    expect(Object.keys(op.responses).sort()).toEqual(['200', '400', '404', '406', '429', '500', '502', '503']);
    expect(JSON.stringify(op.responses['404'])).toContain('lei_not_found');
    expect(op.security).toEqual([]);
    expect(body.components.schemas.CompanyResultDto.properties.lei).toMatchObject({ type: 'string' });
    expect(body.components.schemas.RegisterListDto.properties.indexes).toBeDefined();
    expect(body.components.schemas.StatusReportDto.properties.indexes).toBeDefined();
  });
});
