import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';

export const FIXTURES = join(__dirname, '..', 'fixtures');

/** Reads a fixture file (path relative to test/fixtures) as text. */
export function fixture(relativePath: string): string {
  return readFileSync(join(FIXTURES, relativePath), 'utf8');
}

export interface FakeResponse {
  status?: number;
  /** Body text, or a fixture to replay byte for byte. */
  body?: string | Buffer;
  fixture?: string;
  headers?: Record<string, string>;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
  /** Destroy the socket instead of answering (connection reset). */
  reset?: boolean;
  /** Write the answer by hand (a long-lived stream): called instead of sending a body. */
  raw?: (res: ServerResponse, req: IncomingMessage) => void;
}

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

type Matcher = (req: RecordedRequest) => boolean;
type Responder = FakeResponse | ((req: RecordedRequest) => FakeResponse);

/**
 * A register on loopback that answers at the real register's paths with recorded
 * responses. Routes are matched newest first, so a test can override a default route.
 */
export class FakeRegister {
  readonly requests: RecordedRequest[] = [];
  private routes: Array<{ method: string; match: Matcher; respond: Responder }> = [];
  private server?: Server;

  /** Base URL (no trailing slash), valid after start(). */
  url = '';

  on(method: string, path: string | RegExp | Matcher, respond: Responder): this {
    const match: Matcher =
      typeof path === 'function' ? path : typeof path === 'string' ? (r) => r.path === path : (r) => path.test(r.path);
    this.routes.unshift({ method: method.toUpperCase(), match, respond });
    return this;
  }

  get(path: string | RegExp | Matcher, respond: Responder): this {
    return this.on('GET', path, respond);
  }

  post(path: string | RegExp | Matcher, respond: Responder): this {
    return this.on('POST', path, respond);
  }

  /** Forget every route and recorded request. */
  reset(): void {
    this.routes = [];
    this.requests.length = 0;
  }

  requestsTo(path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: decodeURIComponent(url.pathname),
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
      at: Date.now(),
    };
    this.requests.push(recorded);
    const route = this.routes.find((r) => (r.method === recorded.method || r.method === '*') && r.match(recorded));
    const answer: FakeResponse = route
      ? typeof route.respond === 'function'
        ? route.respond(recorded)
        : route.respond
      : { status: 404, body: '{"error":"no fake route"}' };
    if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
    if (answer.reset) {
      req.socket.destroy();
      return;
    }
    if (answer.raw) {
      answer.raw(res, req);
      return;
    }
    const body = answer.fixture ? readFileSync(join(FIXTURES, answer.fixture)) : (answer.body ?? '');
    const contentType = answer.fixture?.endsWith('.json')
      ? 'application/json; charset=utf-8'
      : 'text/plain; charset=utf-8';
    res.writeHead(answer.status ?? 200, { 'Content-Type': contentType, ...answer.headers });
    res.end(body);
  }
}
