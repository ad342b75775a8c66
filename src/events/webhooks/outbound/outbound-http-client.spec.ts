import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo, Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { parseCidrs } from '../../../platform/config/cidrs';
import { AddressGuard } from './address-guard';
import { DnsResolver, ResolvedAddress } from './dns-resolver';
import { LOGGED_BODY_BYTES, OutboundError, OutboundHttpClient } from './outbound-http-client';

/** A loopback server that records every connection and request and answers with `handler`. */
async function server(handler: (req: IncomingMessage, res: ServerResponse) => void, host = '127.0.0.1') {
  const requests: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];
  let connections = 0;
  const sockets = new Set<Socket>();
  const s: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ url: req.url ?? '', headers: req.headers, body });
      handler(req, res);
    });
  });
  s.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => s.listen(0, host, r));
  const port = (s.address() as AddressInfo).port;
  return {
    port,
    url: `http://${host}:${port}`,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((r) => {
        sockets.forEach((x) => x.destroy());
        s.close(() => r());
      }),
  };
}

class FakeDns extends DnsResolver {
  /** How many times each name was resolved. */
  readonly lookups: Record<string, number> = {};
  constructor(readonly answers: Record<string, string[]>) {
    super();
  }
  override async resolve(host: string): Promise<ResolvedAddress[]> {
    this.lookups[host] = (this.lookups[host] ?? 0) + 1;
    const list = this.answers[host];
    if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }
}

const LOOPBACK_ALLOWED = new AddressGuard(parseCidrs('127.0.0.0/8'));
const NOTHING_ALLOWED = new AddressGuard();

function client(guard = LOOPBACK_ALLOWED, dns: Record<string, string[]> | FakeDns = {}) {
  return new OutboundHttpClient(guard, dns instanceof FakeDns ? dns : new FakeDns(dns), 'RegistryLookup-Webhooks/test');
}

async function failure(p: Promise<unknown>): Promise<OutboundError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof OutboundError) return err;
    throw err;
  }
  throw new Error('expected the request to fail');
}

describe('OutboundHttpClient (customer URLs)', () => {
  const clients: OutboundHttpClient[] = [];
  const make = (...args: Parameters<typeof client>) => {
    const c = client(...args);
    clients.push(c);
    return c;
  };
  afterAll(() => clients.forEach((c) => c.close()));

  it('POSTs the body with its headers and a User-Agent, and keeps the first 2 KB of the answer', async () => {
    const s = await server((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('é'.repeat(3000)));
    const res = await make().post({
      url: `${s.url}/hook?x=1`,
      headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' },
      body: '{"a":"ø"}',
      timeoutMs: 2000,
    });
    expect(res.status).toBe(200);
    expect(Buffer.byteLength(res.bodyStart)).toBeLessThanOrEqual(LOGGED_BODY_BYTES + 2);
    expect(res.bodyStart.startsWith('éé')).toBe(true);
    expect(res.remoteAddress).toBe('127.0.0.1');
    expect(s.requests[0]).toMatchObject({
      url: '/hook?x=1',
      body: '{"a":"ø"}',
      headers: { 'webhook-id': 'msg_1', 'user-agent': 'RegistryLookup-Webhooks/test', 'content-length': '10' },
    });
    await s.close();
  });

  it('never follows a redirect, not even to a refused address: the 3xx is the answer', async () => {
    const elsewhere = await server((_req, res) => res.end('should never be reached'));
    const s = await server((_req, res) => res.writeHead(302, { location: `${elsewhere.url}/` }).end());
    const s2 = await server((_req, res) =>
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' }).end(),
    );
    const c = make();
    expect((await c.post({ url: s.url, headers: {}, body: '{}', timeoutMs: 2000 })).status).toBe(302);
    expect((await c.post({ url: s2.url, headers: {}, body: '{}', timeoutMs: 2000 })).status).toBe(307);
    expect(elsewhere.connections()).toBe(0);
    await Promise.all([s.close(), s2.close(), elsewhere.close()]);
  });

  it('refuses a refused IP literal before connecting', async () => {
    const s = await server((_req, res) => res.end());
    const err = await failure(make(NOTHING_ALLOWED).post({ url: s.url, headers: {}, body: '{}', timeoutMs: 2000 }));
    expect(err.errorClass).toBe('target_not_allowed');
    expect(err.message).toMatch(/127\.0\.0\.1 is a loopback address/);
    const mapped = await failure(
      make(NOTHING_ALLOWED).post({
        url: `http://[::ffff:127.0.0.1]:${s.port}/`,
        headers: {},
        body: '{}',
        timeoutMs: 2000,
      }),
    );
    expect(mapped.errorClass).toBe('target_not_allowed');
    expect(s.connections()).toBe(0);
    await s.close();
  });

  it('refuses a name resolving to a refused address at connection time (DNS rebinding), without connecting', async () => {
    const s = await server((_req, res) => res.end('ok'), '127.0.0.2');
    // Allowed: 127.0.0.1 only. The name now resolves to 127.0.0.2, or to a public address and 127.0.0.2.
    const guard = new AddressGuard(parseCidrs('127.0.0.1/32'));
    for (const answers of [['127.0.0.2'], ['93.184.215.14', '127.0.0.2']]) {
      const err = await failure(
        make(guard, { 'rebind.test': answers }).post({
          url: `http://rebind.test:${s.port}/`,
          headers: {},
          body: '{}',
          timeoutMs: 2000,
        }),
      );
      expect(err.errorClass).toBe('target_not_allowed');
      expect(err.message).toMatch(/rebind\.test resolves to 127\.0\.0\.2, a loopback address/);
    }
    expect(s.connections()).toBe(0);
    // The same name resolving to an allowed address is reached, with the name as Host.
    const ok = await make(new AddressGuard(parseCidrs('127.0.0.2/32')), { 'rebind.test': ['127.0.0.2'] }).post({
      url: `http://rebind.test:${s.port}/`,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    });
    expect(ok.status).toBe(200);
    expect(s.requests[0].headers.host).toBe(`rebind.test:${s.port}`);
    await s.close();
  });

  it('resolves and checks an https name through the same guard, connects to the checked address and sends the name as SNI', async () => {
    // A TLS server without a certificate: it refuses the handshake (an alert), after the client has told its server name.
    const names: string[] = [];
    let connections = 0;
    const tlsServer = createTlsServer({ SNICallback: (name, cb) => (names.push(name), cb(null, undefined)) });
    tlsServer.on('connection', () => connections++);
    tlsServer.on('tlsClientError', () => undefined);
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    const port = (tlsServer.address() as AddressInfo).port;
    const dns = new FakeDns({ 'tls.test': ['127.0.0.1'], 'inside.test': ['10.0.0.1', '127.0.0.1'] });
    const c = make(LOOPBACK_ALLOWED, dns);
    const refused = await failure(
      c.post({ url: `https://inside.test:${port}/`, headers: {}, body: '{}', timeoutMs: 2000 }),
    );
    expect(refused.errorClass).toBe('target_not_allowed');
    expect(connections).toBe(0);
    const tls = await failure(c.post({ url: `https://tls.test:${port}/`, headers: {}, body: '{}', timeoutMs: 2000 }));
    expect(tls.errorClass).toBe('tls_error');
    expect(dns.lookups).toEqual({ 'inside.test': 1, 'tls.test': 1 });
    expect(connections).toBe(1);
    expect(names).toEqual(['tls.test']);
    await new Promise((r) => tlsServer.close(r));
  });

  it('gives up at the deadline on a receiver that never answers', async () => {
    const s = await server(() => undefined);
    const t0 = Date.now();
    const err = await failure(make().post({ url: s.url, headers: {}, body: '{}', timeoutMs: 300 }));
    expect(err.errorClass).toBe('timeout');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(Date.now() - t0).toBeLessThan(2000);
    await s.close();
  });

  it('classifies a refused connection, a reset connection and an unknown name', async () => {
    const s = await server((req) => req.socket.destroy());
    expect((await failure(make().post({ url: s.url, headers: {}, body: '{}', timeoutMs: 2000 }))).errorClass).toBe(
      'connection_reset',
    );
    const gone = await server(() => undefined);
    const port = gone.port;
    await gone.close();
    expect(
      (await failure(make().post({ url: `http://127.0.0.1:${port}/`, headers: {}, body: '{}', timeoutMs: 2000 })))
        .errorClass,
    ).toBe('connection_refused');
    expect(
      (await failure(make().post({ url: 'http://no-such-name.test/', headers: {}, body: '{}', timeoutMs: 2000 })))
        .errorClass,
    ).toBe('dns_error');
    await s.close();
  });

  it('stops reading a huge answer early and closes the connection', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let written = 0;
    const s = await server((_req, res) => {
      res.writeHead(200);
      const pump = () => {
        while (written < 200 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => undefined);
      pump();
    });
    const t0 = Date.now();
    const res = await make().post({ url: s.url, headers: {}, body: '{}', timeoutMs: 5000 });
    expect(res.status).toBe(200);
    expect(res.bodyStart).toHaveLength(LOGGED_BODY_BYTES);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(written).toBeLessThan(50 * 1024 * 1024);
    await s.close();
  });

  it("sends the caller's headers as given, with its own User-Agent, and the body's real length", async () => {
    const s = await server((_req, res) => res.end());
    await make().post({
      url: s.url,
      headers: { 'User-Agent': 'Custom/1', 'Content-Length': '999', 'webhook-signature': 'v1,abc= v1,def=' },
      body: 'ab',
      timeoutMs: 2000,
    });
    expect(s.requests[0].headers).toMatchObject({
      'user-agent': 'Custom/1',
      'content-length': '2',
      'webhook-signature': 'v1,abc= v1,def=',
    });
    expect(s.requests[0].body).toBe('ab');
    await s.close();
  });

  it("gives the answer's headers as node:http would: lower-case names, repeats joined, the first Retry-After", async () => {
    const s = await server((_req, res) => {
      res.setHeader('Retry-After', ['120', '60']);
      res.setHeader('X-Multi', ['a', 'b']);
      res.setHeader('Set-Cookie', 'k=v');
      res.writeHead(503).end();
    });
    const res = await make().post({ url: s.url, headers: {}, body: '{}', timeoutMs: 2000 });
    expect(res.status).toBe(503);
    expect(res.headers).toMatchObject({ 'retry-after': '120', 'x-multi': 'a, b', 'set-cookie': ['k=v'] });
    await s.close();
  });

  it('reuses a kept-alive connection, resolving the name once for it', async () => {
    const s = await server((_req, res) => res.end('ok'));
    const dns = new FakeDns({ 'keep.test': ['127.0.0.1'] });
    const c = make(LOOPBACK_ALLOWED, dns);
    for (let i = 0; i < 3; i++) {
      const res = await c.post({ url: `http://keep.test:${s.port}/`, headers: {}, body: '{}', timeoutMs: 2000 });
      expect(res).toMatchObject({ status: 200, remoteAddress: '127.0.0.1' });
      // undici gives a connection back one event-loop turn after its answer (in case the receiver closes it after all).
      await new Promise((r) => setImmediate(r));
    }
    expect(s.connections()).toBe(1);
    expect(dns.lookups['keep.test']).toBe(1);
    await s.close();
  });

  it('checks the name again on a fresh connection: a name that now resolves to a refused address is refused', async () => {
    // The receiver closes every connection after its answer, so each request connects anew.
    const allowed = await server((_req, res) => res.writeHead(200, { connection: 'close' }).end('ok'));
    const refused = await server((_req, res) => res.end('should never be reached'), '127.0.0.2');
    const dns = new FakeDns({ 'moving.test': ['127.0.0.1'] });
    const c = make(new AddressGuard(parseCidrs('127.0.0.1/32')), dns);
    const first = await c.post({
      url: `http://moving.test:${allowed.port}/`,
      headers: {},
      body: '{}',
      timeoutMs: 2000,
    });
    expect(first).toMatchObject({ status: 200, remoteAddress: '127.0.0.1' });
    dns.answers['moving.test'] = ['127.0.0.2'];
    const err = await failure(
      c.post({ url: `http://moving.test:${allowed.port}/`, headers: {}, body: '{}', timeoutMs: 2000 }),
    );
    expect(err.errorClass).toBe('target_not_allowed');
    expect(err.message).toMatch(/moving\.test resolves to 127\.0\.0\.2/);
    expect(dns.lookups['moving.test']).toBe(2);
    expect(refused.connections()).toBe(0);
    await Promise.all([allowed.close(), refused.close()]);
  });

  it('keeps the answer of a receiver whose body is too slow, ends it at the deadline and drops the connection', async () => {
    let closed = false;
    const s = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial ');
      req.socket.on('close', () => (closed = true));
    });
    const t0 = Date.now();
    const res = await make().post({ url: s.url, headers: {}, body: '{}', timeoutMs: 300 });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(res).toMatchObject({ status: 200, bodyStart: 'partial ' });
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(true);
    await s.close();
  });

  it('fails each of many requests in flight at the deadline, and the connections answer afterwards', async () => {
    let stall = true;
    const s = await server((_req, res) => (stall ? undefined : res.end('ok')));
    const c = make();
    const errors = await Promise.all(
      Array.from({ length: 20 }, () => failure(c.post({ url: s.url, headers: {}, body: '{}', timeoutMs: 200 }))),
    );
    expect(errors.map((e) => e.errorClass)).toEqual(Array(20).fill('timeout'));
    stall = false;
    expect((await c.post({ url: s.url, headers: {}, body: '{}', timeoutMs: 2000 })).status).toBe(200);
    await s.close();
  });
});
