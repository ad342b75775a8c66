import * as http from 'node:http';
import * as https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { AddressGuard } from './address-guard';
import { DnsResolver } from './dns-resolver';
import { parseTargetUrl, TargetUrlError } from './target-url';

/** What the delivery log keeps of a response body. */
export const LOGGED_BODY_BYTES = 2_048;
/** Past this much body the connection is closed: a receiver's answer is for us only a status. */
export const MAX_READ_BYTES = 64 * 1024;

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
  headers: http.IncomingHttpHeaders;
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
 * The HTTP client for customer URLs, apart from the register client:
 * - POST only, redirects never followed (a 3xx is an answer like any other);
 * - every address is checked by the AddressGuard where the connection is made — IP literals
 *   before connecting, names in the socket's `lookup` (every address the name resolves to
 *   must be allowed) and, belt and braces, the socket's remote address once connected — so a
 *   name that resolves elsewhere at send time than at save time is still refused;
 * - one total deadline; the body read up to MAX_READ_BYTES, of which LOGGED_BODY_BYTES kept;
 * - kept-alive sockets per host (only ever to addresses checked when they connected).
 */
export class OutboundHttpClient {
  private readonly agents: { http: http.Agent; https: https.Agent };
  private readonly lookup: LookupFunction;

  constructor(
    private readonly guard: AddressGuard,
    private readonly dns: DnsResolver,
    private readonly userAgent: string,
  ) {
    const options = { keepAlive: true, keepAliveMsecs: 1_000, maxSockets: 256, maxFreeSockets: 64, timeout: 30_000, scheduling: 'lifo' as const };
    this.agents = { http: new http.Agent(options), https: new https.Agent(options) };
    this.lookup = this.guardedLookup();
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
      if (why) return Promise.reject(new OutboundError('target_not_allowed', `${target.host} is a ${why}`));
    }
    const isHttps = target.url.protocol === 'https:';
    const body = Buffer.from(request.body, 'utf8');
    return new Promise<OutboundResponse>((resolve, reject) => {
      let settled = false;
      let remoteAddress: string | undefined;
      /** Set once the status line is in: from then on the deadline ends the body, not the answer. */
      let answered: (() => void) | undefined;
      let deadline: NodeJS.Timeout | undefined;
      const fail = (err: OutboundError) => {
        if (settled) return;
        settled = true;
        clearTimeout(deadline);
        reject(err);
      };
      const req = (isHttps ? https : http).request(
        target.url,
        {
          method: 'POST',
          agent: isHttps ? this.agents.https : this.agents.http,
          lookup: this.lookup,
          headers: { 'User-Agent': this.userAgent, ...request.headers, 'Content-Length': String(body.length) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let read = 0;
          const done = () => {
            if (settled) return;
            settled = true;
            clearTimeout(deadline);
            const all = Buffer.concat(chunks);
            resolve({ status: res.statusCode ?? 0, headers: res.headers, bodyStart: all.subarray(0, LOGGED_BODY_BYTES).toString('utf8'), remoteAddress });
          };
          res.on('data', (chunk: Buffer) => {
            if (read < LOGGED_BODY_BYTES) chunks.push(chunk.subarray(0, LOGGED_BODY_BYTES - read));
            read += chunk.length;
            if (read > MAX_READ_BYTES) {
              done();
              res.destroy();
            }
          });
          res.on('end', done);
          // The status came in time: a body cut short (or too slow) does not undo the answer.
          res.on('error', done);
          res.on('close', done);
          answered = done;
        },
      );
      deadline = setTimeout(() => {
        if (answered) {
          answered();
          req.destroy();
          return;
        }
        fail(new OutboundError('timeout', `no answer within ${request.timeoutMs} ms`));
        req.destroy();
      }, request.timeoutMs);
      req.on('socket', (socket: Socket) => {
        const check = () => {
          remoteAddress = socket.remoteAddress;
          const why = remoteAddress ? this.guard.refusal(remoteAddress) : 'an unknown address';
          if (why) {
            fail(new OutboundError('target_not_allowed', `connected to ${remoteAddress ?? '?'}, a ${why}`));
            req.destroy();
          }
        };
        if (socket.connecting || !socket.remoteAddress) socket.once('connect', check);
        else check();
      });
      req.on('error', (err) => fail(classify(err)));
      req.end(body);
    });
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** net's `lookup` hook: resolve, refuse the name if ANY of its addresses is refused. */
  private guardedLookup(): LookupFunction {
    return ((hostname: string, options: { family?: number | string; all?: boolean }, callback: (...args: unknown[]) => void) => {
      this.dns.resolve(hostname).then(
        (addresses) => {
          const refused = addresses.map((a) => ({ a, why: this.guard.refusal(a.address) })).find((x) => x.why);
          if (refused) return callback(new OutboundError('target_not_allowed', `${hostname} resolves to ${refused.a.address}, a ${refused.why}`));
          const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
          const usable = family ? addresses.filter((a) => a.family === family) : addresses;
          if (usable.length === 0) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }));
          if (options.all) return callback(null, usable);
          callback(null, usable[0].address, usable[0].family);
        },
        (err: unknown) => callback(err),
      );
    }) as unknown as LookupFunction;
  }
}

function classify(err: unknown): OutboundError {
  if (err instanceof OutboundError) return err;
  const e = err as NodeJS.ErrnoException & { cause?: unknown };
  if (e.cause instanceof OutboundError) return e.cause;
  const code = e.code ?? '';
  const message = `${code ? `${code}: ` : ''}${e.message ?? String(err)}`.slice(0, 300);
  if (code === 'ECONNREFUSED') return new OutboundError('connection_refused', message);
  if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(e.message ?? '')) return new OutboundError('connection_reset', message);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL' || code === 'ENODATA') return new OutboundError('dns_error', message);
  if (code === 'ETIMEDOUT') return new OutboundError('timeout', message);
  if (/CERT|SSL|TLS|ERR_OSSL/i.test(code) || /certificate|ssl|tls/i.test(e.message ?? '')) return new OutboundError('tls_error', message);
  return new OutboundError('network_error', message);
}
