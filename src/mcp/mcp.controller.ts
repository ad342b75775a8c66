import { All, Controller, Delete, Get, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiExcludeEndpoint,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiResponse,
  ApiSecurity,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { Request, Response } from 'express';
import { PROBLEMS } from '../platform/errors/problem-catalog';
import { BEARER_SCHEME } from '../platform/openapi/api-account-errors.decorator';
import { ApiPublicErrors, RATE_LIMIT_HEADERS } from '../platform/openapi/api-public-errors.decorator';
import { ProblemDetailsDto } from '../platform/openapi/problem-details.dto';
import { MCP_ACCOUNT_TOOLS } from './mcp-account-tools';
import { McpHttpService } from './mcp-http.service';
import { MCP_TOOLS } from './mcp-tools';

/** null in OpenAPI 3.0: a nullable type whose only value is null. */
const NULL: SchemaObject = { type: 'string', nullable: true, enum: [null] };
const JSON_RPC_ID: SchemaObject = {
  oneOf: [{ type: 'string' }, { type: 'integer' }, NULL],
  description: 'The id of the request answered; null when it could not be read.',
};

const JSON_RPC_ERROR: SchemaObject = {
  type: 'object',
  required: ['jsonrpc', 'error', 'id'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: JSON_RPC_ID,
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'integer', example: -32700 },
        message: { type: 'string' },
        data: { description: 'More about the error, when the server has it.' },
      },
    },
  },
};

/** A JSON-RPC 2.0 response: a result, or an error. */
const JSON_RPC_RESPONSE: SchemaObject = {
  type: 'object',
  required: ['jsonrpc', 'id'],
  properties: {
    jsonrpc: { type: 'string', enum: ['2.0'] },
    id: JSON_RPC_ID,
    result: {
      type: 'object',
      additionalProperties: true,
      description: 'The method’s result (for tools/call: content, structuredContent, isError).',
    },
    error: JSON_RPC_ERROR.properties!.error,
  },
};

const NOT_ALLOWED = {
  status: 405,
  description:
    'Only POST carries messages: this stateless server offers no SSE stream (GET) and has no session to end (DELETE). Allow: POST, OPTIONS.',
  headers: {
    ...RATE_LIMIT_HEADERS,
    Allow: { description: 'The methods this endpoint accepts.', schema: { type: 'string' as const } },
  },
  content: { 'application/json': { schema: JSON_RPC_ERROR } },
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
      '',
      `**Optional API key.** With \`Authorization: Bearer <api key>\` (the /api/v1 account’s key) the account’s tools are offered too: ${MCP_ACCOUNT_TOOLS.map((t) => `\`${t.name}\``).join(', ')}, with the /api/v1 validation, watch quota and per-account hourly limit. Without the header, tools/list has only the lookups, and calling an account tool is an \`isError\` result with code \`unauthorized\`. A malformed, unknown or revoked key is answered 401 (problem document and \`WWW-Authenticate\`), whatever the method.`,
    ].join('\n'),
  })
  // The key is optional: an empty requirement (no key) or the bearer scheme.
  @ApiSecurity({})
  @ApiSecurity(BEARER_SCHEME)
  @ApiExtraModels(ProblemDetailsDto)
  @ApiResponse({
    status: 401,
    description: `\`unauthorized\`: the request carries an \`Authorization\` header whose API key is malformed, unknown or revoked (${PROBLEMS.unauthorized.title.toLowerCase()}). Without the header the lookups need no key.`,
    headers: {
      ...RATE_LIMIT_HEADERS,
      'WWW-Authenticate': { description: 'The bearer challenge (RFC 6750).', schema: { type: 'string' } },
    },
    content: {
      'application/problem+json': {
        schema: {
          allOf: [
            { $ref: getSchemaPath(ProblemDetailsDto) },
            { properties: { code: { type: 'string', enum: ['unauthorized'] } } },
          ],
        },
      },
    },
  })
  @ApiBody({
    schema: {
      type: 'object',
      example: {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'search_companies', arguments: { q: 'Equinor', country: 'NO' } },
      },
    },
  })
  @ApiOkResponse({
    description: 'A JSON-RPC response (result or error).',
    headers: RATE_LIMIT_HEADERS,
    content: { 'application/json': { schema: JSON_RPC_RESPONSE } },
  })
  @ApiResponse({ status: 202, description: 'A notification or a response was accepted (no body).' })
  @ApiResponse({
    status: 400,
    description: 'Parse error (-32700) or invalid request, e.g. a batch (-32600).',
    content: { 'application/json': { schema: JSON_RPC_ERROR } },
  })
  @ApiResponse({
    status: 406,
    description: 'Accept does not list both application/json and text/event-stream.',
    content: { 'application/json': { schema: JSON_RPC_ERROR } },
  })
  @ApiResponse({
    status: 413,
    description: 'Body over 1 MiB.',
    content: { 'application/json': { schema: JSON_RPC_ERROR } },
  })
  @ApiResponse({
    status: 415,
    description: 'Content-Type is not application/json.',
    content: { 'application/json': { schema: JSON_RPC_ERROR } },
  })
  @ApiPublicErrors()
  post(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.mcp.post(req, res);
  }

  /** GET: no SSE stream is offered. */
  @Get()
  @ApiOperation({
    summary: 'Not offered: no SSE stream (405)',
    description: 'MCP clients probe GET for a server-sent event stream; this stateless server has none.',
  })
  @ApiResponse(NOT_ALLOWED)
  @ApiPublicErrors()
  getStream(@Res() res: Response): void {
    this.mcp.notAllowed(res);
  }

  /** DELETE: there is no session to end. */
  @Delete()
  @ApiOperation({
    summary: 'Not offered: no session to end (405)',
    description: 'MCP clients send DELETE to end a session; this stateless server has none.',
  })
  @ApiResponse(NOT_ALLOWED)
  @ApiPublicErrors()
  endSession(@Res() res: Response): void {
    this.mcp.notAllowed(res);
  }

  /** Every other method: 405. */
  @All()
  @ApiExcludeEndpoint()
  other(@Res() res: Response): void {
    this.mcp.notAllowed(res);
  }
}
