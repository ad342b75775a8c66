import { All, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExcludeEndpoint, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Request, Response } from 'express';
import { RATE_LIMIT_HEADERS } from '../core/openapi/api-public-errors.decorator';
import { McpHttpService } from './mcp-http.service';
import { MCP_TOOLS } from './mcp-tools';

const JSON_RPC_ERROR: SchemaObject = {
  type: 'object',
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: { nullable: true, oneOf: [{ type: 'string' }, { type: 'integer' }] },
    error: { type: 'object', properties: { code: { type: 'integer', example: -32700 }, message: { type: 'string' } } },
  },
};

/** The MCP endpoint (JSON-RPC 2.0 over Streamable HTTP); the SDK writes the responses. */
@ApiTags('mcp')
@Controller('api/public/v1/mcp')
export class McpController {
  constructor(private readonly mcp: McpHttpService) {}

  @Post()
  @ApiOperation({
    summary: 'Model Context Protocol server (JSON-RPC 2.0, Streamable HTTP, stateless)',
    description: [
      'One JSON-RPC message per POST (no batches), `Content-Type: application/json`, `Accept: application/json, text/event-stream`. Requests are answered with `application/json`; notifications with 202. No session id. Counted in the same hourly rate limit as every /api/public/v1 endpoint.',
      '',
      `Tools: ${MCP_TOOLS.map((t) => `\`${t.name}\``).join(', ')} (see tools/list for their schemas). Lookup failures are tool results with \`isError: true\` and the contract error code; protocol errors use JSON-RPC codes -32700, -32600, -32601, -32602.`,
    ].join('\n'),
  })
  @ApiBody({ schema: { type: 'object', example: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_companies', arguments: { q: 'Equinor', country: 'NO' } } } } })
  @ApiOkResponse({ description: 'A JSON-RPC response (result or error).', headers: RATE_LIMIT_HEADERS })
  @ApiResponse({ status: 202, description: 'A notification was accepted.' })
  @ApiResponse({ status: 400, description: 'Parse error (-32700) or invalid request, e.g. a batch (-32600).', content: { 'application/json': { schema: JSON_RPC_ERROR } } })
  @ApiResponse({ status: 406, description: 'Accept does not list both application/json and text/event-stream.', content: { 'application/json': { schema: JSON_RPC_ERROR } } })
  @ApiResponse({ status: 413, description: 'Body over 1 MiB.', content: { 'application/json': { schema: JSON_RPC_ERROR } } })
  @ApiResponse({ status: 415, description: 'Content-Type is not application/json.', content: { 'application/json': { schema: JSON_RPC_ERROR } } })
  @ApiResponse({ status: 429, description: '`rate_limited` (application/problem+json, as on every endpoint).' })
  post(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.mcp.post(req, res);
  }

  /** GET (no SSE stream is offered), DELETE (no session to end) and every other method: 405. */
  @All()
  @ApiExcludeEndpoint()
  other(@Res() res: Response): void {
    this.mcp.notAllowed(res);
  }
}
