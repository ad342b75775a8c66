import { Injectable, Logger } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AccountRequestLimit } from '../events/accounts/account-request-limit.service';
import { ApiKeyAuth } from '../events/accounts/api-key-auth.service';
import { WatchService } from '../events/monitoring/watches/watch.service';
import { EventsService } from '../events/webhooks/events/events.service';
import { LeiService } from '../lei/lei.service';
import { AppConfig } from '../platform/config/app-config';
import { RegistersService } from '../status/registers.service';
import { SearchService } from '../search/search.service';
import { StatusReportService } from '../status/status-report.service';
import { checkPostHeaders, MAX_BODY_BYTES, parseMessage, readBody, writeJsonRpcError } from './json-rpc-http';
import { createMcpServer } from './mcp-server.factory';
import type { McpAccountContext, McpAccountServices } from './mcp-account-tools';
import type { McpToolServices } from './mcp-tools';

/** Only POST carries messages: no SSE stream is offered (GET) and there is no session to end (DELETE). */
export const MCP_ALLOWED_METHODS = 'POST, OPTIONS';

/**
 * Streamable HTTP, stateless: every POST gets a fresh McpServer and transport (no session id,
 * so any api replica answers any request) and JSON answers rather than SSE streams. The body
 * is read and checked here first, since the app runs without a body parser and the SDK
 * would accept a batch.
 *
 * A request carrying `Authorization` is authenticated as /api/v1 authenticates (ApiKeyAuth):
 * a valid key adds the account's tools; a malformed, unknown or revoked key is answered 401
 * with the problem document and WWW-Authenticate, as the MCP authorization spec wants of an
 * invalid token (the SDK client then throws a StreamableHTTPError with code 401).
 */
@Injectable()
export class McpHttpService {
  private readonly logger = new Logger(McpHttpService.name);
  private readonly services: McpToolServices;
  private readonly accountServices: McpAccountServices;

  constructor(
    search: SearchService,
    registers: RegistersService,
    status: StatusReportService,
    lei: LeiService,
    watches: WatchService,
    events: EventsService,
    limit: AccountRequestLimit,
    private readonly auth: ApiKeyAuth,
    private readonly config: AppConfig,
  ) {
    this.services = { search, registers, status, lei };
    this.accountServices = { watches, events, limit };
  }

  async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const refused = checkPostHeaders(req);
    if (refused) return writeJsonRpcError(res, refused);
    let read: Awaited<ReturnType<typeof readBody>>;
    try {
      read = await readBody(req);
    } catch {
      // The client went away while sending the body: nobody is left to answer.
      res.destroy();
      return;
    }
    if (read.tooLarge) {
      // The rest of an oversized body is not read: close the connection rather than drain it.
      return writeJsonRpcError(res, {
        status: 413,
        code: -32000,
        message: `Payload Too Large: the request body exceeds ${MAX_BODY_BYTES} bytes`,
        headers: { Connection: 'close' },
      });
    }
    const parsed = parseMessage(read.body);
    if (!parsed.ok) return writeJsonRpcError(res, parsed.refusal);
    // Throws the 401 ApiError, which the global filter writes as a problem document.
    const account = await this.account(req.headers.authorization);

    const server = createMcpServer(this.services, this.config.apiVersion, account);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    try {
      await server.connect(transport);
      await transport.handleRequest(req, res, parsed.message);
    } catch (err) {
      this.logger.error({ err }, 'MCP request failed');
      writeJsonRpcError(res, { status: 500, code: -32603, message: 'Internal error' });
    }
  }

  /** The account of the request's API key; null without an Authorization header (the open lookups only). */
  private async account(authorization: string | undefined): Promise<McpAccountContext | null> {
    if (authorization === undefined || authorization.trim() === '') return null;
    const principal = await this.auth.authenticate(authorization);
    return { ...this.accountServices, accountId: principal.accountId };
  }

  notAllowed(res: ServerResponse): void {
    const message =
      'Method Not Allowed: POST one JSON-RPC message per request; this stateless server offers no SSE stream (GET) and has no session to end (DELETE)';
    writeJsonRpcError(res, { status: 405, code: -32000, message, headers: { Allow: MCP_ALLOWED_METHODS } });
  }
}
