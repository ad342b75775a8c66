import { Logger } from '@nestjs/common';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../platform/errors/api-error';
import { REGISTER_TABLE } from '../registers/registers';
import { callTool, toolError } from './mcp-server.factory';
import { MCP_INSTRUCTIONS, MCP_TOOLS, McpToolServices } from './mcp-tools';

function servicesThatThrow(error: unknown): McpToolServices {
  const fail = async () => {
    throw error;
  };
  return {
    search: { search: fail, company: fail },
    registers: { list: fail },
    status: { report: fail },
    lei: { lookup: fail },
  };
}

describe('tool definitions', () => {
  it('name every covered country from the register table, and which publish officers', () => {
    for (const tool of MCP_TOOLS) for (const def of REGISTER_TABLE) expect(tool.description).toContain(def.country);
    for (const def of REGISTER_TABLE)
      expect(MCP_INSTRUCTIONS).toContain(`${def.country} (${def.countryName}: ${def.short})`);
    const getCompany = MCP_TOOLS.find((t) => t.name === 'get_company')!.description;
    expect(getCompany).toContain(
      `(${REGISTER_TABLE.filter((r) => r.provides.officers)
        .map((r) => r.country)
        .join(', ')};`,
    );
  });

  it('tell a model about provenance and non-live registers', () => {
    for (const name of ['search_companies', 'get_company']) {
      const description = MCP_TOOLS.find((t) => t.name === name)!.description;
      for (const field of ['official', 'kind', 'retrievedAt', 'url', 'warning']) expect(description).toContain(field);
    }
    expect(MCP_INSTRUCTIONS).toMatch(/no sanctions, PEP/);
  });
});

describe('callTool', () => {
  beforeAll(() => Logger.overrideLogger(false));
  it('answers an unknown tool and malformed arguments with McpError -32602', async () => {
    const services = servicesThatThrow(new Error('never called'));
    await expect(callTool(services, { name: 'nope', arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    await expect(
      callTool(services, { name: 'search_companies', arguments: { q: 1, country: 'NO' } }),
    ).rejects.toBeInstanceOf(McpError);
    await expect(callTool(services, { name: 'get_company', arguments: { country: 'NO' } })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('registrationNumber'),
    });
  });

  it('turns a business failure into an isError result with the problem document and no structuredContent', async () => {
    const result = await callTool(
      servicesThatThrow(
        new ApiError('upstream_error', 'Brønnøysund did not answer (timeout).', {
          register: 'Enhetsregisteret',
          errorClass: 'timeout',
        }),
      ),
      {
        name: 'get_company',
        arguments: { country: 'NO', registrationNumber: '923609016' },
      },
    );
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    const [summary, json] = result.content as Array<{ type: 'text'; text: string }>;
    expect(summary.text).toMatch(/^Error upstream_error: Brønnøysund did not answer \(timeout\)\. /);
    expect(JSON.parse(json.text)).toEqual({
      error: {
        type: '/api/public/v1/problems/upstream_error',
        title: 'The register did not answer',
        status: 502,
        detail: 'Brønnøysund did not answer (timeout).',
        code: 'upstream_error',
        register: 'Enhetsregisteret',
        errorClass: 'timeout',
        hint: expect.stringContaining('get_register_status'),
      },
    });
  });

  it('hides an unexpected failure behind internal_error', async () => {
    const result = await callTool(servicesThatThrow(new Error('connection to 10.0.0.5 refused, password=…')), {
      name: 'list_registers',
      arguments: {},
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).not.toContain('10.0.0.5');
    expect(JSON.parse((result.content[1] as { text: string }).text).error.code).toBe('internal_error');
  });

  it('refuses with -32603 to send a result that does not fit the outputSchema', async () => {
    const services = servicesThatThrow(null);
    services.registers.list = async () => ({ apiVersion: '1.0.0', count: 'six' }) as never;
    await expect(callTool(services, { name: 'list_registers', arguments: {} })).rejects.toMatchObject({
      code: ErrorCode.InternalError,
    });
  });

  it('get_register_status validates the country as search does, before reading the report', async () => {
    const services = servicesThatThrow(new Error('report must not be read'));
    const result = await callTool(services, { name: 'get_register_status', arguments: { country: 'Norway' } });
    expect(JSON.parse((result.content[1] as { text: string }).text).error).toMatchObject({
      code: 'country_not_covered',
      status: 404,
    });
  });

  it('toolError keeps the contract code first in the text a model reads', () => {
    const result = toolError(
      new ApiError('country_not_covered', 'No register connector for "SE"; covered: GB, AU, CA, FR, DK, NO.'),
    );
    expect((result.content[0] as { text: string }).text).toMatch(
      /^Error country_not_covered: No register connector for "SE"/,
    );
  });
});
