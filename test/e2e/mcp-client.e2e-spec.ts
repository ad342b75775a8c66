import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type CallToolResult, ErrorCode, McpError, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { REGISTER_TABLE } from '../../src/registers/registers';
import type { FakeRegister } from '../support/fake-register';
import { NO_ABG, NO_FAILING, NO_SESAM_AS, NO_UNKNOWN, startFakeNoRegister } from '../support/fake-no-register';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

const TOOL_NAMES = ['search_companies', 'get_company', 'list_registers', 'get_register_status', 'lookup_lei'];

/** The record minus its reading time, which differs between two reads of the register. */
function withoutRetrievedAt(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value), (key, v) => (key === 'retrievedAt' ? undefined : v));
}

describe('MCP over Streamable HTTP with the SDK client', () => {
  let fake: FakeRegister;
  let app: TestApp;
  let client: Client;
  let tools: Map<string, Tool>;
  const ajv = new AjvJsonSchemaValidator();

  beforeAll(async () => {
    fake = await startFakeNoRegister();
    app = await startTestApp({ env: { REGISTER_NO_API_URL: fake.url, REGISTER_TIMEOUT_MS: '2000' } });
    client = new Client({ name: 'e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${app.url}/api/public/v1/mcp`)));
    tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
    await fake?.stop();
  });

  async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
    return (await client.callTool({ name, arguments: args })) as CallToolResult;
  }

  /** Validates with ajv against the outputSchema as published in tools/list (not our zod copy). */
  function expectMatchesOutputSchema(name: string, result: CallToolResult): void {
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toBeDefined();
    const check = ajv.getValidator(tools.get(name)!.outputSchema as never)(result.structuredContent);
    expect(check.errorMessage).toBeUndefined();
    expect(check.valid).toBe(true);
    // The short summary first, then the same JSON as text.
    const texts = result.content.filter((c) => c.type === 'text').map((c) => (c as { text: string }).text);
    expect(texts).toHaveLength(2);
    expect(JSON.parse(texts[1])).toEqual(result.structuredContent);
  }

  function errorOf(result: CallToolResult): { code: string; status: number; detail: string; hint?: string } {
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const texts = result.content.map((c) => (c as { text: string }).text);
    const { error } = JSON.parse(texts[1]) as {
      error: { code: string; status: number; detail: string; hint?: string };
    };
    expect(texts[0]).toContain(error.code);
    return error;
  }

  it('initializes as registry-lookup with the API version and instructions about provenance', () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'registry-lookup', version: app.config.apiVersion });
    const instructions = client.getInstructions() ?? '';
    for (const def of REGISTER_TABLE) expect(instructions).toContain(def.country);
    expect(instructions).toMatch(/provenance/i);
    expect(instructions).toMatch(/fallback/);
    expect(instructions).toMatch(/no sanctions, PEP/);
    expect(client.getServerCapabilities()?.tools).toBeDefined();
  });

  it('lists the five tools with input and output schemas and the covered countries from the register table', () => {
    expect([...tools.keys()]).toEqual(TOOL_NAMES);
    for (const tool of tools.values()) {
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.inputSchema.additionalProperties).toBe(false);
      expect(tool.outputSchema?.type).toBe('object');
      expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    }
    for (const name of ['search_companies', 'get_company', 'list_registers']) {
      for (const def of REGISTER_TABLE)
        expect(tools.get(name)!.description).toContain(`${def.country} (${def.countryName}: ${def.short})`);
    }
    expect(tools.get('search_companies')!.inputSchema.required).toEqual(['q', 'country']);
    expect(tools.get('get_company')!.inputSchema.required).toEqual(['country', 'registrationNumber']);
    expect(tools.get('search_companies')!.description).toMatch(/retrievedAt/);
    expect(tools.get('search_companies')!.description).toMatch(/warning/);
    const officers = REGISTER_TABLE.filter((r) => r.provides.officers)
      .map((r) => r.country)
      .join(', ');
    expect(tools.get('get_company')!.description).toContain(officers);
  });

  it('search_companies answers what GET /search answers, with provenance, and validates against its outputSchema', async () => {
    const result = await call('search_companies', { q: 'Sesam', country: 'no' });
    expectMatchesOutputSchema('search_companies', result);
    const rest = await (await fetch(`${app.url}/api/public/v1/search?q=Sesam&country=no`)).json();
    expect(withoutRetrievedAt(result.structuredContent)).toEqual(withoutRetrievedAt(rest));
    const content = result.structuredContent as {
      count: number;
      resolved: boolean;
      register: { status: string };
      results: Array<{ registrationNumber: string; source: Record<string, unknown> }>;
    };
    expect(content).toMatchObject({ resolved: true, count: 2, register: { status: 'live' } });
    expect(content.results[0]).toMatchObject({
      registrationNumber: NO_SESAM_AS,
      source: {
        official: true,
        kind: 'native_official',
        url: `${app.registers.of('NO').urls.WEB}/nb/oppslag/enheter/${NO_SESAM_AS}`,
      },
    });
    expect(content.results[0].source.retrievedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((result.content[0] as { text: string }).text).toContain('SESAM AS');
  });

  it('search_companies with no match is resolved: false, not an error', async () => {
    const result = await call('search_companies', { q: 'jibberish', country: 'NO' });
    expectMatchesOutputSchema('search_companies', result);
    expect(result.structuredContent).toMatchObject({ resolved: false, count: 0, results: [] });
  });

  it('get_company answers what GET /companies answers, with officers', async () => {
    const result = await call('get_company', { country: 'NO', registrationNumber: NO_ABG });
    expectMatchesOutputSchema('get_company', result);
    const rest = await (await fetch(`${app.url}/api/public/v1/companies/NO/${NO_ABG}`)).json();
    expect(withoutRetrievedAt(result.structuredContent)).toEqual(withoutRetrievedAt(rest));
    const company = (result.structuredContent as { company: { name: string; officers: Array<{ kind: string }> } })
      .company;
    expect(company.name).toBe('ABG SUNDAL COLLIER ASA');
    expect(company.officers.length).toBeGreaterThan(3);
    expect(company.officers.map((o) => o.kind)).toEqual(expect.arrayContaining(['person', 'company']));
  });

  it('list_registers answers what GET /registers answers, filters included', async () => {
    const all = await call('list_registers', {});
    expectMatchesOutputSchema('list_registers', all);
    expect(all.structuredContent).toEqual(await (await fetch(`${app.url}/api/public/v1/registers`)).json());
    expect((all.structuredContent as { count: number }).count).toBe(REGISTER_TABLE.length);
    const officers = await call('list_registers', { provides: 'officers' });
    expectMatchesOutputSchema('list_registers', officers);
    expect(officers.structuredContent).toEqual(
      await (await fetch(`${app.url}/api/public/v1/registers?provides=officers`)).json(),
    );
  });

  it('get_register_status answers the /status data for one register or all', async () => {
    const all = await call('get_register_status', {});
    expectMatchesOutputSchema('get_register_status', all);
    const rest = (await (await fetch(`${app.url}/api/public/v1/status`)).json()) as {
      registers: Array<{ country: string }>;
    };
    expect(all.structuredContent).toEqual(rest);
    const one = await call('get_register_status', { country: 'no' });
    expectMatchesOutputSchema('get_register_status', one);
    expect(one.structuredContent).toEqual({ ...rest, registers: rest.registers.filter((r) => r.country === 'NO') });
  });

  it('answers business failures as isError results carrying the contract code', async () => {
    expect(errorOf(await call('search_companies', { q: 'Sesam', country: 'SE' }))).toMatchObject({
      code: 'country_not_covered',
      status: 404,
    });
    expect(errorOf(await call('search_companies', { q: '!', country: 'NO' }))).toMatchObject({
      code: 'invalid_query',
      status: 400,
    });
    expect(errorOf(await call('search_companies', { q: '', country: 'NO' }))).toMatchObject({
      code: 'missing_parameter',
    });
    expect(errorOf(await call('get_company', { country: 'NO', registrationNumber: NO_UNKNOWN }))).toMatchObject({
      code: 'company_not_found',
      status: 404,
    });
    expect(errorOf(await call('get_company', { country: 'NO', registrationNumber: NO_FAILING }))).toMatchObject({
      code: 'upstream_error',
      status: 502,
      hint: expect.stringContaining('get_register_status'),
    });
    expect(errorOf(await call('list_registers', { status: 'bogus' }))).toMatchObject({ code: 'invalid_parameter' });
    expect(errorOf(await call('get_register_status', { country: 'XX' }))).toMatchObject({
      code: 'country_not_covered',
    });
  });

  it('answers an unknown tool and malformed arguments with JSON-RPC -32602', async () => {
    for (const [name, args] of [
      ['no_such_tool', {}],
      ['search_companies', { q: 42, country: 'NO' }],
      ['search_companies', { country: 'NO' }],
      ['list_registers', { status: ['live'] }],
      // A misspelt optional filter, refused rather than answered unfiltered.
      ['list_registers', { statuses: 'live' }],
      ['get_register_status', { counrty: 'NO' }],
    ] as const) {
      const error = await client.callTool({ name, arguments: args }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    }
  });
});
