import { Logger } from '@nestjs/common';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../platform/errors/api-error';
import { REGISTER_TABLE } from '../registers/registers';
import type { McpAccountContext } from './mcp-account-tools';
import { callTool, toolError } from './mcp-server.factory';
import { summarizeEvents } from './mcp-summaries';
import { MCP_INSTRUCTIONS, MCP_TOOLS, mcpInstructions, McpToolServices } from './mcp-tools';

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

describe('account tools', () => {
  beforeAll(() => Logger.overrideLogger(false));
  const lookups = servicesThatThrow(new Error('lookups are not called'));

  /** An account whose services record what they were asked, and answer with `answers`. */
  function account(answers: { count?: () => Promise<void> } = {}) {
    const calls: string[] = [];
    const context: McpAccountContext = {
      accountId: 'acc_1',
      limit: {
        count: async (accountId, res) => {
          calls.push(`count ${accountId} ${res === null ? 'no headers' : 'headers'}`);
          await answers.count?.();
        },
      },
      watches: {
        create: async () => {
          calls.push('create');
          throw new Error('not in this spec');
        },
        list: async (accountId, query) => {
          calls.push(`list ${accountId} ${JSON.stringify(query)}`);
          return { data: [], nextCursor: null };
        },
        remove: async (accountId, id) => {
          calls.push(`remove ${accountId} ${id}`);
        },
      },
      events: {
        list: async (accountId, q) => {
          calls.push(`events ${accountId} ${JSON.stringify(q)}`);
          return { data: [], nextCursor: null };
        },
      },
    };
    return { context, calls };
  }

  it('the instructions name the account tools: how to get them without a key, what they do with one', () => {
    expect(MCP_INSTRUCTIONS).toBe(mcpInstructions(false));
    expect(MCP_INSTRUCTIONS).toContain('With `Authorization: Bearer <api key>` on the requests');
    for (const name of ['watch_company', 'list_watches', 'remove_watch', 'list_events']) {
      expect(mcpInstructions(false)).toContain(name);
      expect(mcpInstructions(true)).toContain(name);
    }
    expect(mcpInstructions(true)).toContain('watch_quota_exceeded');
  });

  it('without a key: an unauthorized tool error that says how to send the key, and no service called', async () => {
    const result = await callTool(lookups, { name: 'watch_company', arguments: { country: 'NO' } }, null);
    expect(result.isError).toBe(true);
    const problem = JSON.parse((result.content[1] as { text: string }).text).error;
    expect(problem).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(problem.detail).toContain('watch_company needs an API key: send Authorization: Bearer <api key>');
  });

  it('an unknown tool lists the account tools only to a caller with a key', async () => {
    const without = await callTool(lookups, { name: 'nope' }, null).catch((e: McpError) => e.message);
    expect(without).not.toContain('watch_company');
    const withKey = await callTool(lookups, { name: 'nope' }, account().context).catch((e: McpError) => e.message);
    expect(withKey).toContain('watch_company, list_watches, remove_watch, list_events');
  });

  it('counts the call in the account’s limit (without writing headers) before checking its arguments', async () => {
    const { context, calls } = account();
    await expect(callTool(lookups, { name: 'remove_watch', arguments: {} }, context)).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
    });
    expect(calls).toEqual(['count acc_1 no headers']);
  });

  it('past the account’s limit: the 429 problem as a tool error, and the tool does not run', async () => {
    const { context, calls } = account({
      count: async () => {
        throw new ApiError(
          'rate_limited',
          'More than 5 requests from this account in an hour.',
          { limit: 5, resetAt: '2026-11-22T13:00:00.000Z' },
          { 'Retry-After': '3600' },
        );
      },
    });
    const result = await callTool(lookups, { name: 'list_watches', arguments: {} }, context);
    expect(JSON.parse((result.content[1] as { text: string }).text).error).toMatchObject({
      code: 'rate_limited',
      status: 429,
      limit: 5,
      resetAt: '2026-11-22T13:00:00.000Z',
    });
    expect(calls).toEqual(['count acc_1 no headers']);
  });

  it('passes arguments to the services as the REST query would carry them', async () => {
    const { context, calls } = account();
    await callTool(lookups, { name: 'list_watches', arguments: { country: 'no', limit: 2 } }, context);
    const events = await callTool(
      lookups,
      { name: 'list_events', arguments: { isTest: false, limit: 3, entityId: 'ent_no_883603362' } },
      context,
    );
    expect(events.isError).toBeFalsy();
    const removed = await callTool(lookups, { name: 'remove_watch', arguments: { watchId: 'wch_x' } }, context);
    expect(removed.structuredContent).toEqual({ removed: true, watchId: 'wch_x' });
    expect(calls.filter((c) => !c.startsWith('count'))).toEqual([
      'list acc_1 {"country":"no","limit":"2"}',
      'events acc_1 {"limit":3,"isTest":false,"entityId":"ent_no_883603362"}',
      'remove acc_1 wch_x',
    ]);
  });

  it('refuses an argument a tool does not take, naming the ones it does, before counting or reading', async () => {
    const { context, calls } = account();
    await expect(
      callTool(lookups, { name: 'list_events', arguments: { kind: 'company.name_changed', limit: 1 } }, context),
    ).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringMatching(
        /unknown field kind\nIts arguments: event, entityId, isTest, since, until, limit, cursor\.$/,
      ),
    });
    await expect(
      callTool(lookups, { name: 'list_registers', arguments: { status: 'live', region: 'EU' } }),
    ).rejects.toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('provides, status') });
    expect(calls.some((c) => c.startsWith('events'))).toBe(false);
  });

  it('list_events refuses bad query values with REST’s invalid_parameter, before reading', async () => {
    const { context, calls } = account();
    const result = await callTool(
      lookups,
      { name: 'list_events', arguments: { since: 'yesterday', cursor: 'nope' } },
      context,
    );
    const problem = JSON.parse((result.content[1] as { text: string }).text).error;
    expect(problem).toMatchObject({ code: 'invalid_parameter', status: 400 });
    expect(problem.errors.map((e: { field: string }) => e.field).sort()).toEqual(['cursor', 'since']);
    expect(calls.some((c) => c.startsWith('events'))).toBe(false);
  });

  it('summarizes register events and company events in one line each', () => {
    const text = summarizeEvents({
      data: [
        {
          id: 'evt_1',
          event: 'register.unavailable',
          isTest: false,
          createdAt: '2026-11-22T12:00:00.000Z',
          payload: { event: 'register.unavailable', data: { country: 'NO', status: 'degraded' } },
        },
        {
          id: 'evt_2',
          event: 'company.status_changed',
          isTest: false,
          createdAt: '2026-11-22T11:00:00.000Z',
          payload: {
            data: {
              entity_id: 'ent_no_883603362',
              sequence: 4,
              company_name: 'ABG SUNDAL COLLIER ASA',
              change: { field: 'status', previous: 'active', current: 'dissolved' },
            },
          },
        },
      ],
      nextCursor: 'abc',
    });
    expect(text.split('\n')).toEqual([
      '2 events, newest first (full payloads in the JSON):',
      '- 2026-11-22T12:00:00.000Z register.unavailable register NO [evt_1]',
      '- 2026-11-22T11:00:00.000Z company.status_changed ABG SUNDAL COLLIER ASA (ent_no_883603362, sequence 4): status "active" → "dissolved" [evt_2]',
      'Older events: call again with cursor = nextCursor.',
    ]);
  });
});
