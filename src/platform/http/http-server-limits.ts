import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { PROBLEMS, ProblemCode, problemTypeUri } from '../errors/problem-catalog';
import type { RateLimitMiddleware } from '../rate-limit/rate-limit.middleware';

const logger = new Logger('HttpServer');

/** What Node's parser or its timers refused, and how we answer it. */
function classify(code: string | undefined): { code: ProblemCode; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { code: 'headers_too_large', detail: 'The request headers exceed 16 KiB.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return {
        code: 'request_timeout',
        detail: 'The request did not arrive completely in time; the connection is closed.',
      };
    default:
      return {
        code: 'malformed_request',
        detail: `The request could not be parsed as HTTP/1.1 (${code ?? 'parse error'}).`,
      };
  }
}

/**
 * Limits of the HTTP server against slow and idle clients (Node's defaults let half-sent
 * headers hold a connection for a minute and a body that never comes for five), and a
 * problem-details answer, with CORS and rate-limit headers, to requests Node's parser refuses
 * before any route sees them.
 */
export function applyServerLimits(server: Server, config: AppConfig, rateLimit?: RateLimitMiddleware): void {
  const { headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs } = config.http;
  server.headersTimeout = headersTimeoutMs;
  server.requestTimeout = requestTimeoutMs;
  server.keepAliveTimeout = keepAliveTimeoutMs;
  // Node checks both timeouts on this timer (30 s by default), read when the server starts
  // listening: check often enough that a limit is enforced within a quarter of itself.
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval = Math.max(
    50,
    Math.min(1_000, Math.floor(headersTimeoutMs / 4)),
  );
  server.on(
    'clientError',
    (err: NodeJS.ErrnoException, socket: Duplex) => void answerClientError(err, socket, rateLimit),
  );
}

async function answerClientError(
  err: NodeJS.ErrnoException,
  socket: Duplex,
  rateLimit?: RateLimitMiddleware,
): Promise<void> {
  const inFlight = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || err.code === 'EPIPE' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const { code, detail } = classify(err.code);
  const status = PROBLEMS[code].status;
  const requestId = randomUUID();
  let limitHeaders: Record<string, string> = {};
  try {
    // No path and no trusted forwarding header can be read: counted by the connecting address.
    limitHeaders = rateLimit
      ? (await rateLimit.count((socket as Duplex & { remoteAddress?: string }).remoteAddress)).headers
      : {};
  } catch {
    /* answered without them */
  }
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify({
    type: problemTypeUri(code),
    title: PROBLEMS[code].title,
    status,
    detail,
    instance: `urn:request:${requestId}`,
    code,
  });
  const headers: Record<string, string> = {
    'Content-Type': 'application/problem+json',
    'Content-Length': String(Buffer.byteLength(body)),
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers':
      'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, X-Request-Id',
    'X-Request-Id': requestId,
    ...limitHeaders,
    Connection: 'close',
  };
  logger.log({ requestId, code, status, reason: err.code }, 'request refused by the HTTP parser');
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n')}\r\n\r\n`;
  socket.end(head + body);
}
