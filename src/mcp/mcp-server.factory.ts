import { Logger } from '@nestjs/common';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { type CallToolResult, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ApiError } from '../platform/errors/api-error';
import { PROBLEMS, problemTypeUri } from '../platform/errors/problem-catalog';
import { MCP_ACCOUNT_TOOLS, type McpAccountContext } from './mcp-account-tools';
import { MCP_TOOLS, MCP_TOOLS_BY_NAME, mcpInstructions, type McpTool, type McpToolServices } from './mcp-tools';

export const MCP_SERVER_NAME = 'registry-lookup';

const logger = new Logger('McpTools');

/**
 * tools/call as the Server class routes it: the SDK's wrapper validates the request against
 * CallToolRequestSchema (-32602 when malformed) before this handler runs. A schema that lets
 * any params through keeps the generic parse in front of it from turning a malformed call
 * into -32603.
 */
const ToolsCallRequest = z.object({ method: z.literal('tools/call'), params: z.unknown().optional() });
const ToolsCallParams = z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() });

/**
 * One MCP server for one HTTP request (stateless Streamable HTTP: any replica answers any
 * request). The tools are registered on McpServer, which publishes them in tools/list with
 * their JSON Schemas; tools/call is routed here instead of through McpServer's own handler,
 * because that one answers an unknown tool or malformed arguments with an isError result
 * where the protocol wants a JSON-RPC -32602 error. `account`: the account of the request's
 * API key, whose tools are then offered beside the lookups; null without a key.
 */
export function createMcpServer(
  services: McpToolServices,
  version: string,
  account: McpAccountContext | null = null,
): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, title: 'Registry Lookup', version },
    { capabilities: { tools: {} }, instructions: mcpInstructions(account !== null) },
  );
  // Registration reads names and schemas only (the tools run in callTool), so any context type fits.
  const offered: McpTool<never>[] = [...MCP_TOOLS, ...(account ? MCP_ACCOUNT_TOOLS : [])];
  for (const tool of offered) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        outputSchema: tool.output,
        annotations: { title: tool.title, ...tool.hints },
      },
      // Never called: tools/call is answered by callTool below.
      () => {
        throw new McpError(ErrorCode.InternalError, 'unreachable');
      },
    );
  }
  server.server.setRequestHandler(ToolsCallRequest, (request) =>
    callTool(services, ToolsCallParams.parse(request.params), account),
  );
  return server;
}

const ACCOUNT_TOOLS_BY_NAME: ReadonlyMap<string, McpTool<McpAccountContext>> = new Map(
  MCP_ACCOUNT_TOOLS.map((t) => [t.name, t]),
);

export async function callTool(
  services: McpToolServices,
  params: z.output<typeof ToolsCallParams>,
  account: McpAccountContext | null = null,
): Promise<CallToolResult> {
  const lookup = MCP_TOOLS_BY_NAME.get(params.name);
  if (lookup) return runTool(lookup, services, params);
  const accountTool = ACCOUNT_TOOLS_BY_NAME.get(params.name);
  if (!accountTool) {
    const available = [...MCP_TOOLS, ...(account ? MCP_ACCOUNT_TOOLS : [])].map((t) => t.name);
    throw new McpError(
      ErrorCode.InvalidParams,
      `Unknown tool "${params.name.slice(0, 100)}". Available tools: ${available.join(', ')}.`,
    );
  }
  // Not offered without a key, but named in the instructions: say how to get it rather than "unknown".
  if (!account) return toolError(keyNeeded(accountTool.name));
  try {
    // Counted like an /api/v1 request, before its input is checked (as ApiKeyGuard counts before the body).
    await account.limit.count(account.accountId, null);
  } catch (err) {
    if (err instanceof ApiError) return toolError(err);
    throw err;
  }
  return runTool(accountTool, account, params);
}

async function runTool<S>(
  tool: McpTool<S>,
  context: S,
  params: z.output<typeof ToolsCallParams>,
): Promise<CallToolResult> {
  const args = tool.input.safeParse(params.arguments ?? {});
  if (!args.success) {
    // A misspelt optional filter would otherwise be dropped and answered unfiltered: say what the tool takes.
    const unknownKey = args.error.issues.some((i) => i.code === 'unrecognized_keys');
    const accepted = unknownKey ? `\nIts arguments: ${Object.keys(tool.input.shape).join(', ')}.` : '';
    throw new McpError(
      ErrorCode.InvalidParams,
      `Invalid arguments for tool ${tool.name}: ${z.prettifyError(args.error).slice(0, 500)}${accepted}`,
    );
  }
  let result: Record<string, unknown>;
  try {
    result = (await tool.run(context, args.data)) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof ApiError) return toolError(err);
    logger.error({ err, tool: tool.name }, 'MCP tool failed');
    return toolError(new ApiError('internal_error', 'An internal error occurred.'));
  }
  const checked = tool.output.safeParse(result);
  if (!checked.success) {
    // A DTO changed without its output schema: say so loudly rather than send a result the client will reject.
    logger.error(
      { tool: tool.name, issues: checked.error.issues.slice(0, 5) },
      'MCP tool result does not match its outputSchema',
    );
    throw new McpError(ErrorCode.InternalError, `The result of ${tool.name} does not match its output schema.`);
  }
  return {
    content: [
      { type: 'text', text: tool.summarize(result) },
      { type: 'text', text: JSON.stringify(result) },
    ],
    structuredContent: result,
  };
}

/** An account tool called without an API key: the 401 of /api/v1, worded for an MCP client. */
function keyNeeded(tool: string): ApiError {
  return new ApiError(
    'unauthorized',
    `${tool} needs an API key: send Authorization: Bearer <api key> with the MCP requests (create a free account with POST /api/v1/accounts). The lookup tools need none.`,
  );
}

/** How a model can recover from each business failure. */
const HINTS: Partial<Record<ApiError['code'], string>> = {
  missing_parameter: 'Give every required argument a non-empty value.',
  invalid_query:
    'Give a company name of 2–200 characters (more of its words when the register finds it too broad), or a registration number in the country’s format with a correct check digit (lookup_lei: an LEI of 20 letters and digits with correct check digits).',
  invalid_parameter:
    'Change the argument the message names as it says (an allowed value, a limit of 1–100, an ISO 8601 time, until after since), or leave it out.',
  country_not_covered: 'Use one of the covered country codes listed in the message (list_registers shows them all).',
  company_not_found: 'Check the registration number, or find the company by name with search_companies.',
  lei_not_found: 'Check the LEI; search_companies and get_company show a company’s LEI where GLEIF maps it.',
  upstream_error:
    'The register did not answer and no fallback record could stand in: retry later, and check get_register_status.',
  invalid_body:
    'Fix the field named in the message (a registration number in the register’s format with a correct check digit; search_companies finds it by name).',
  watch_quota_exceeded:
    'Remove watches the account no longer needs (list_watches, remove_watch), or ask for a higher quota.',
  resource_not_found: 'Use an id from list_watches (wch_…).',
  rate_limited: 'Wait until resetAt before calling this tool again.',
  internal_error: 'Retry later.',
};

/**
 * A business failure as a tool result the model can read and recover from: isError, a text
 * line with the contract code, and the same problem document the REST endpoint would answer
 * with, as JSON text. No structuredContent: SDK clients validate any structuredContent
 * against the tool's outputSchema even when isError is set, so an error object there would
 * turn a recoverable failure into a client-side exception.
 */
export function toolError(error: ApiError): CallToolResult {
  const hint = HINTS[error.code];
  const problem = {
    type: problemTypeUri(error.code),
    title: PROBLEMS[error.code].title,
    status: error.status,
    detail: error.detail,
    code: error.code,
    ...error.extras,
    ...(hint ? { hint } : {}),
  };
  return {
    isError: true,
    content: [
      { type: 'text', text: `Error ${error.code}: ${error.detail}${hint ? ` ${hint}` : ''}` },
      { type: 'text', text: JSON.stringify({ error: problem }) },
    ],
  };
}
