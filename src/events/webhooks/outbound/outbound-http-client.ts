import type { IncomingHttpHeaders } from 'node:http';
import type { LookupFunction } from 'node:net';
import { Agent, buildConnector, Client, Dispatcher, Pool } from 'undici';
import { storableText } from '../../../platform/validation/text-input';
import { AddressGuard } from './address-guard';
import { DnsResolver } from './dns-resolver';
import { parseTargetUrl, TargetUrlError } from './target-url';

/** What the delivery log keeps of a response body. */
export const LOGGED_BODY_BYTES = 2_048;
/** Past this much body the connection is closed: a receiver's answer is for us only a status. */
export const MAX_READ_BYTES = 64 * 1024;

/** Per origin, as the node:http agent had (maxSockets): a bound, far above WEBHOOK_ENDPOINT_CONCURRENCY. */
const CONNECTIONS_PER_ORIGIN = 256;
/**
 * Below node's server default of 5 s, so an idle connection is closed by us before the
 * receiver closes it under a request just written on it (a reset nobody could retry: POST).
 * undici also honours a shorter `Keep-Alive: timeout=` hint from the receiver.
 */
const KEEP_ALIVE_MS = 4_000;
/**
 * undici's connect timeout, the longest WEBHOOK_TIMEOUT_MS allows: every request gives up at its
 * own deadline, this only bounds how long an attempt on a dead host keeps its connection slot.
 */
const CONNECT_TIMEOUT_MS = 60_000;

export type OutboundErrorClass =
  | 'target_not_allowed'
  | 'invalid_url'
  | 'dns_error'
  | 'connection_refused'
  | 'connection_reset'
  | 'timeout'
  | 'tls_error'
  | 'network_error';

/** A request that got no HTTP answer, with the class the delivery log shows. */
export class OutboundError extends Error {
  constructor(
    readonly errorClass: OutboundErrorClass,
    message: string,
  ) {
    super(message);
  }
}

export interface OutboundResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first LOGGED_BODY_BYTES of the body, as text. */
  bodyStart: string;
  /** The address the request went to (checked by the guard). */
  remoteAddress?: string;
}

export interface OutboundRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Total deadline: name resolution, connection, request, status and headers. */
  timeoutMs: number;
}

/**
 * The HTTP client for customer URLs, apart from the register client, on undici's dispatcher
 * (a fraction of node:http's CPU per request, which bounds one worker's deliveries per second):
 * - POST only, redirects never followed (a 3xx is an answer like any other; undici follows
 *   none without its redirect interceptor);
 * - every address is checked by the AddressGuard where the connection is made — IP literals
 *   before connecting, names in the connector's `lookup` (every address the name resolves to
 *   must be allowed, and the socket connects to those checked addresses, with the name kept
 *   for SNI and Host) and, belt and braces, the socket's remote address once connected — so a
 *   name that resolves elsewhere at send time than at save time is still refused;
 * - one total deadline; the body read up to MAX_READ_BYTES, of which LOGGED_BODY_BYTES kept;
 * - kept-alive connections per origin (only ever to addresses checked when they connected).
 */
export class OutboundHttpClient {
  private readonly agent: Agent;

  constructor(
    private readonly guard: AddressGuard,
    private readonly dns: DnsResolver,
    private readonly userAgent: string,
  ) {
    this.agent = new Agent({
      connect: this.guardedConnector(),
      connections: CONNECTIONS_PER_ORIGIN,
      keepAliveTimeout: KEEP_ALIVE_MS,
      // The request's own deadline covers headers and body; undici's timers would be a second clock.
      headersTimeout: 0,
      bodyTimeout: 0,
      factory: (origin, options) =>
        new Pool(origin, {
          ...options,
          factory: (o: URL, clientOptions: object) => new GuardedClient(o, clientOptions as Client.Options),
        }),
    });
  }

  post(request: OutboundRequest): Promise<OutboundResponse> {
    let target: ReturnType<typeof parseTargetUrl>;
    try {
      target = parseTargetUrl(request.url);
    } catch (err) {
      const kind = err instanceof TargetUrlError && err.kind === 'not_allowed' ? 'target_not_allowed' : 'invalid_url';
      return Promise.reject(new OutboundError(kind, (err as Error).message));
    }
    if (target.isIp) {
      const why = this.guard.refusal(target.host);
      if (why) return Promise.reject(new OutboundError('target_not_allowed', `${target.host} is ${why}`));
    }
    return new Promise<OutboundResponse>((resolve, reject) => {
      const attempt = new Attempt(resolve, reject, request.timeoutMs);
      const options: AttemptOptions = {
        origin: target.url.origin,
        path: target.url.pathname + target.url.search,
        method: 'POST',
        headers: this.requestHeaders(request.headers),
        body: Buffer.from(request.body, 'utf8'),
        attempt,
      };
      this.agent.dispatch(options, attempt);
    });
  }

  close(): void {
    this.agent.destroy().catch(() => undefined);
  }

  /** The caller's headers as they are (the Standard Webhooks ones are signed), a User-Agent unless given; undici writes Content-Length from the body. */
  private requestHeaders(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    let hasUserAgent = false;
    for (const name in headers) {
      const lower = name.toLowerCase();
      if (lower === 'content-length') continue;
      if (lower === 'user-agent') hasUserAgent = true;
      out[name] = headers[name];
    }
    if (!hasUserAgent) out['User-Agent'] = this.userAgent;
    return out;
  }

  /** undici's connector with the guarded lookup, refusing the socket if it ended up at a refused address. */
  private guardedConnector(): buildConnector.connector {
    const connect = buildConnector({ lookup: this.guardedLookup(), timeout: CONNECT_TIMEOUT_MS });
    return (options, callback) =>
      connect(options, (err, socket) => {
        if (!socket) return callback(err ?? new Error('no socket'), null);
        const why = socket.remoteAddress ? this.guard.refusal(socket.remoteAddress) : 'an unknown address';
        if (!why) return callback(null, socket);
        socket.destroy();
        callback(new OutboundError('target_not_allowed', `connected to ${socket.remoteAddress ?? '?'}, ${why}`), null);
      });
  }

  /** net's `lookup` hook: resolve, refuse the name if ANY of its addresses is refused. */
  private guardedLookup(): LookupFunction {
    return ((
      hostname: string,
      options: { family?: number | string; all?: boolean },
      callback: (...args: unknown[]) => void,
    ) => {
      this.dns.resolve(hostname).then(
        (addresses) => {
          const refused = addresses.map((a) => ({ a, why: this.guard.refusal(a.address) })).find((x) => x.why);
          if (refused)
            return callback(
              new OutboundError('target_not_allowed', `${hostname} resolves to ${refused.a.address}, ${refused.why}`),
            );
          const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
          const usable = family ? addresses.filter((a) => a.family === family) : addresses;
          if (usable.length === 0)
            return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
          if (options.all) return callback(null, usable);
          callback(null, usable[0].address, usable[0].family);
        },
        (err: unknown) => callback(err),
      );
    }) as unknown as LookupFunction;
  }
}

/** Dispatch options that carry their Attempt down to the connection that takes them. */
type AttemptOptions = Dispatcher.DispatchOptions & { attempt: Attempt };

/**
 * undici's one-connection client, remembering where its current socket went (checked by the
 * connector) and telling each attempt it takes: undici's handler API never shows the socket.
 */
class GuardedClient extends Client {
  remoteAddress: string | undefined;

  constructor(origin: URL, options: Client.Options) {
    const connect = options.connect as buildConnector.connector;
    const self: { client?: GuardedClient } = {};
    super(origin, {
      ...options,
      connect: (o, callback) =>
        connect(o, (err, socket) => {
          if (self.client) self.client.remoteAddress = socket?.remoteAddress;
          callback(...([err, socket] as Parameters<buildConnector.Callback>));
        }),
    });
    self.client = this;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const attempt = (options as Partial<AttemptOptions>).attempt;
    if (attempt) attempt.client = this;
    return super.dispatch(options, handler);
  }
}

/** One POST as undici reports it, settled once: by the answer, by an error or at the deadline. */
class Attempt implements Dispatcher.DispatchHandler {
  /** The connection that took the request (set before it is written). */
  client: GuardedClient | undefined;
  private controller: Dispatcher.DispatchController | undefined;
  private remoteAddress: string | undefined;
  /** Set once the status line is in: from then on the deadline ends the body, not the answer. */
  private status = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly kept: Buffer[] = [];
  private read = 0;
  private settled = false;
  private readonly deadline: NodeJS.Timeout;

  constructor(
    private readonly resolve: (response: OutboundResponse) => void,
    private readonly reject: (err: OutboundError) => void,
    private readonly timeoutMs: number,
  ) {
    this.deadline = setTimeout(() => this.expire(), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Given up on while it waited for a connection: not sent at all.
    if (this.settled) return controller.abort(new OutboundError('timeout', `no answer within ${this.timeoutMs} ms`));
    this.remoteAddress = this.client?.remoteAddress;
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    // 1xx (103 Early Hints…) is not the answer, which is still to come.
    if (statusCode < 200) return;
    this.status = statusCode;
    this.headers = nodeHeaders(headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.read < LOGGED_BODY_BYTES) this.kept.push(chunk.subarray(0, LOGGED_BODY_BYTES - this.read));
    this.read += chunk.length;
    if (this.read > MAX_READ_BYTES) {
      this.answer();
      // Aborting a request whose body is still coming destroys its connection.
      controller.abort(new OutboundError('network_error', `answer longer than ${MAX_READ_BYTES} bytes`));
    }
  }

  onResponseEnd(): void {
    this.answer();
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    // The status came in time: a body cut short does not undo the answer.
    if (this.status) this.answer();
    else this.fail(classify(err));
  }

  private expire(): void {
    if (this.status) this.answer();
    else this.fail(new OutboundError('timeout', `no answer within ${this.timeoutMs} ms`));
    // Not yet on a connection: onRequestStart aborts it when one takes it.
    this.controller?.abort(new OutboundError('timeout', `no answer within ${this.timeoutMs} ms`));
  }

  private answer(): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    const body = this.kept.length === 1 ? this.kept[0] : Buffer.concat(this.kept);
    this.resolve({
      status: this.status,
      headers: this.headers,
      bodyStart: storableText(body.toString('utf8')),
      remoteAddress: this.remoteAddress,
    });
  }

  private fail(err: OutboundError): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    this.reject(err);
  }
}

/** Node drops the repeats of these and keeps the first (IncomingMessage#headers), `retry-after` among them. */
const SINGLE_VALUED = new Set([
  'age',
  'authorization',
  'content-length',
  'content-type',
  'etag',
  'expires',
  'from',
  'host',
  'if-modified-since',
  'if-unmodified-since',
  'last-modified',
  'location',
  'max-forwards',
  'proxy-authorization',
  'referer',
  'retry-after',
  'server',
  'user-agent',
]);

/** undici's parsed headers (lower-case names, an array for a repeated one) as node:http gives them. */
function nodeHeaders(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  for (const name in headers) {
    const value = headers[name];
    if (name === 'set-cookie') headers[name] = Array.isArray(value) ? value : [value as string];
    else if (Array.isArray(value))
      headers[name] = SINGLE_VALUED.has(name) ? value[0] : value.join(name === 'cookie' ? '; ' : ', ');
  }
  return headers;
}

function classify(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  const e = err as NodeJS.ErrnoException & { cause?: unknown; errors?: unknown[] };
  if (e.cause instanceof OutboundError) return e.cause;
  // net's happy eyeballs fails with every address's error: the first tells the kind.
  const code = e.code ?? (e.errors?.[0] as NodeJS.ErrnoException | undefined)?.code ?? '';
  const message = `${code ? `${code}: ` : ''}${e.message || String(err)}`.slice(0, 300);
  if (code === 'ECONNREFUSED') return new OutboundError('connection_refused', message);
  // UND_ERR_SOCKET: the receiver closed the connection before answering ("other side closed").
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET')
    return new OutboundError('connection_reset', message);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'ENODATA')
    return new OutboundError('dns_error', message);
  if (code === 'ETIMEDOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') return new OutboundError('timeout', message);
  if (/CERT|SSL|TLS|ERR_OSSL/i.test(code) || /certificate|ssl|tls/i.test(e.message ?? ''))
    return new OutboundError('tls_error', message);
  return new OutboundError('network_error', message);
}
