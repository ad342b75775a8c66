import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { DataSource } from 'typeorm';
import type { FakeRegister } from '../../test/support/fake-register';
import { NO_ABG, NO_FAILING, NO_UNKNOWN, startFakeNoRegister } from '../../test/support/fake-no-register';
import { FakeGleif, FRAPORT_LEI, LAPSED_FUND_LEI, SHELL_LEI, startFakeGleif } from '../../test/support/fake-gleif';
import { startTestApp, TestApp } from '../../test/support/test-app';
import { LeiService } from '../lei/lei.service';
import { normalizeName } from '../dataset/normalize-name';
import { RegistersService } from '../status/registers.service';
import { SearchService } from '../search/search.service';
import { ProbeService } from '../status/probe/probe.service';
import { StatusReportService } from '../status/status-report.service';
import { createMcpServer } from './mcp-server.factory';
import { MCP_TOOLS_BY_NAME, McpToolServices } from './mcp-tools';

jest.setTimeout(60_000);

/**
 * Real results of the services the REST controllers call (live reads from a fake register
 * replaying recorded responses, fallback reads from dataset rows) must fit each tool's
 * outputSchema — both our zod schema and the JSON Schema the SDK publishes from it in tools/list.
 */
describe('MCP output schemas against real service results', () => {
  let fake: FakeRegister;
  let gleif: FakeGleif;
  let app: TestApp;
  let services: McpToolServices;
  let published: Map<string, Tool>;
  const ajv = new AjvJsonSchemaValidator();

  beforeAll(async () => {
    fake = await startFakeNoRegister();
    gleif = await startFakeGleif();
    app = await startTestApp({
      env: { REGISTER_NO_API_URL: fake.url, REGISTER_TIMEOUT_MS: '2000', ...gleif.env },
    });
    // One dataset row for the number the fake register fails on: the fallback path.
    await app.get(DataSource).query(
      `INSERT INTO company (country, registration_number, name, name_normalized, status, status_category, legal_form, address, city, incorporation_date, source_url, source_kind, dataset_name, produced_at)
       VALUES ('NO', $1, 'BROKEN TEST AS', $2, NULL, 'active', 'Aksjeselskap', NULL, 'OSLO', NULL, $3, 'dataset:enheter', 'enheter-2026-11-01', '2026-11-01T04:00:00Z')`,
      [NO_FAILING, normalizeName('BROKEN TEST AS'), `https://virksomhet.brreg.no/nb/oppslag/enheter/${NO_FAILING}`],
    );
    services = {
      search: app.get(SearchService),
      registers: app.get(RegistersService),
      status: app.get(StatusReportService),
      lei: app.get(LeiService),
    };

    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(services, app.config.apiVersion).connect(serverSide);
    const client = new Client({ name: 'spec', version: '0' });
    await client.connect(clientSide);
    published = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    await client.close();
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
    await gleif?.stop();
  });

  function expectValid(tool: string, result: unknown): void {
    const parsed = MCP_TOOLS_BY_NAME.get(tool)!.output.safeParse(result);
    expect(parsed.error?.issues).toBeUndefined();
    const json = ajv.getValidator(published.get(tool)!.outputSchema as never)(result);
    expect(json.errorMessage).toBeUndefined();
    expect(json.valid).toBe(true);
  }

  function expectInvalid(tool: string, result: unknown): void {
    expect(MCP_TOOLS_BY_NAME.get(tool)!.output.safeParse(result).success).toBe(false);
    expect(ajv.getValidator(published.get(tool)!.outputSchema as never)(result).valid).toBe(false);
  }

  it('search_companies: a live search, an empty one, and a fallback answer with a warning', async () => {
    const live = await services.search.search('Sesam', 'NO');
    expect(live.results.length).toBeGreaterThan(0);
    expectValid('search_companies', live);
    expectValid('search_companies', await services.search.search('Sesam', 'no'));

    const empty = await services.search.search('Nothing', 'NO');
    expect(empty.resolved).toBe(false);
    expectValid('search_companies', empty);

    const fallback = await services.search.search(NO_FAILING, 'NO');
    expect(fallback.register.status).toBe('degraded');
    expect(fallback.warning).toEqual(expect.any(String));
    expect(fallback.results[0].source).toMatchObject({ official: false, kind: 'dataset:enheter' });
    expectValid('search_companies', fallback);
  });

  it('get_company: live with officers (and resigned ones in extra), and a fallback record without officers', async () => {
    const live = await services.search.company('NO', NO_ABG);
    expect(live.company.officers?.length).toBeGreaterThan(0);
    expectValid('get_company', live);

    const fallback = await services.search.company('NO', NO_FAILING);
    expect(fallback.company.officers).toBeNull();
    expect(fallback.warning).toEqual(expect.any(String));
    expectValid('get_company', fallback);
    await expect(services.search.company('NO', NO_UNKNOWN)).rejects.toMatchObject({ code: 'company_not_found' });
  });

  it('list_registers and get_register_status: the lists as /registers and /status give them', async () => {
    expectValid('list_registers', await services.registers.list({}));
    expectValid(
      'list_registers',
      await services.registers.list({ provides: 'officers', status: 'live,degraded,paused' }),
    );
    expectValid('get_register_status', await services.status.report());
    // With a finished probe (the fake has no unit at the probe's path: a failed one).
    const probes = app.get(ProbeService);
    await probes.run({
      country: 'NO',
      slotStart: probes.slotStart(new Date(app.clock.now().getTime() - 60_000)).toISOString(),
    });
    const report = await services.status.report();
    const no = report.registers.find((r) => r.country === 'NO')!;
    expect(no.lastProbe).toMatchObject({ ok: false, httpStatus: 404, errorClass: expect.any(String) });
    expect(no.daily).toHaveLength(90);
    expectValid('get_register_status', report);
  });

  it('lookup_lei: an issued record with its national record, a lapsed fund, a record of a register not read here', async () => {
    const shell = await services.lei.lookup(SHELL_LEI);
    expect(shell.entity.nationalRecord).toMatchObject({ country: 'GB', registrationNumber: '04366849' });
    expectValid('lookup_lei', shell);
    const fund = await services.lei.lookup(LAPSED_FUND_LEI);
    expect(fund.entity).toMatchObject({ registrationStatus: 'LAPSED', nationalRecord: null, creationDate: null });
    expectValid('lookup_lei', fund);
    expectValid('lookup_lei', await services.lei.lookup(FRAPORT_LEI));
    expectInvalid('lookup_lei', {
      ...shell,
      entity: { ...shell.entity, source: { ...shell.entity.source, kind: 'native_official' } },
    });
  });

  it('rejects a result that drifted from the DTO: an unknown field, a missing one, a wrong type', async () => {
    const live = await services.search.search('Sesam', 'NO');
    expectInvalid('search_companies', { ...live, newField: 1 });
    const { attribution: _a, ...missing } = live;
    expectInvalid('search_companies', missing);
    expectInvalid('search_companies', {
      ...live,
      results: [{ ...live.results[0], source: { ...live.results[0].source, official: 'yes' } }],
    });
    const company = await services.search.company('NO', NO_ABG);
    expectInvalid('get_company', {
      ...company,
      company: {
        ...company.company,
        officers: [{ name: 'X', role: 'Y', kind: 'robot', appointedOn: null, resignedOn: null }],
      },
    });
  });
});
