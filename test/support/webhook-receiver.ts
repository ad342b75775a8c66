import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the receiver answers one request. */
export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (the connection stays open until the sender gives up or the receiver stops). */
  hang?: boolean;
}

export interface ReceivedRequest {
  /** Date.now() when the body had arrived. */
  at: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** The parsed body (null when it is not JSON). */
  body: any;
  /** true when a secret verified the signature with the standardwebhooks package; otherwise why not. */
  verified: true | string;
}

/**
 * A customer's webhook receiver on loopback, as a real one would be written: it verifies each
 * delivery with the `standardwebhooks` package and the endpoint's secret(s), records the
 * method, headers and raw body, and answers as the test scripts it (status, delay, never,
 * redirect, Retry-After…).
 */
export class WebhookReceiver {
  readonly requests: ReceivedRequest[] = [];
  /** Secrets a delivery may be signed with (any one verifying is enough). */
  secrets: string[] = [];
  private script: (req: ReceivedRequest, index: number) => Answer = () => ({ status: 200, body: 'ok' });
  private server?: Server;
  private readonly sockets = new Set<Socket>();
  private readonly waiters: Array<() => void> = [];
  private inFlight = 0;
  /** Most requests in flight at once (received, not yet answered). */
  maxInFlight = 0;

  constructor(private readonly host = '127.0.0.1') {}

  get url(): string {
    return `http://${this.host}:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        const received: ReceivedRequest = {
          at: Date.now(),
          method: req.method ?? '',
          url: req.url ?? '',
          headers: req.headers,
          rawBody,
          body: parse(rawBody),
          verified: this.verify(rawBody, req.headers),
        };
        const index = this.requests.push(received) - 1;
        this.waiters.splice(0).forEach((w) => w());
        this.respond(res, this.script(received, index));
      });
    });
    this.server.keepAliveTimeout = 5_000;
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((r) => this.server!.listen(0, this.host, r));
    return this;
  }

  /** Answers request number i (0-based) with answers[i], and every later one with `then`. */
  answerInTurn(answers: Answer[], then: Answer = { status: 200, body: 'ok' }): void {
    this.script = (_req, i) => answers[i] ?? then;
  }

  answerWith(script: (req: ReceivedRequest, index: number) => Answer): void {
    this.script = script;
  }

  /** Resolves once `predicate` holds for the requests received (checked on every arrival). */
  async waitFor(predicate: (requests: ReceivedRequest[]) => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!predicate(this.requests)) {
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(
          `receiver: condition not met within ${timeoutMs} ms (${this.requests.length} requests received)`,
        );
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, 250));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  async stop(): Promise<void> {
    this.sockets.forEach((s) => s.destroy());
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }

  private respond(res: ServerResponse, answer: Answer): void {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const done = () => this.inFlight--;
    res.on('close', done);
    if (answer.hang) return;
    const send = () => {
      if (res.destroyed) return;
      res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
      res.end(answer.body ?? '');
    };
    if (answer.delayMs) setTimeout(send, answer.delayMs);
    else send();
  }

  private verify(rawBody: string, headers: IncomingHttpHeaders): true | string {
    if (this.secrets.length === 0) return 'no secret given to the receiver';
    let last = '';
    for (const secret of this.secrets) {
      try {
        new Webhook(secret).verify(rawBody, headers as Record<string, string>);
        return true;
      } catch (err) {
        last = (err as Error).message;
      }
    }
    return last;
  }
}

function parse(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}
