import { connect } from 'node:net';
import type { FakeRegister } from '../support/fake-register';
import { startFakeNoRegister } from '../support/fake-no-register';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

const MCP = '/api/public/v1/mcp';
const HEADERS = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

async function post(app: TestApp, body: string | Buffer, headers: Record<string, string> = HEADERS): Promise<Answer> {
  const res = await fetch(app.url + MCP, { method: 'POST', headers, body });
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

const rpc = (method: string, params?: unknown, id: number | string = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

/** A JSON-RPC error in a JSON body, never HTML and never a 500. */
function expectJsonRpcError(answer: Answer, status: number, code: number, id: unknown = null): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  expect(answer.json).toMatchObject({ jsonrpc: '2.0', id, error: { code, message: expect.any(String) } });
}

describe('MCP endpoint over raw HTTP', () => {
  let fake: FakeRegister;
  let app: TestApp;

  beforeAll(async () => {
    fake = await startFakeNoRegister();
    app = await startTestApp({ env: { REGISTER_NO_API_URL: fake.url } });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
  });

  it('answers initialize with application/json, no session id, and the rate-limit headers', async () => {
    const answer = await post(
      app,
      rpc('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '0' } }),
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.headers.get('mcp-session-id')).toBeNull();
    expect(answer.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(answer.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(answer.json.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'registry-lookup', version: app.config.apiVersion },
      instructions: expect.any(String),
    });
  });

  it('answers a stateless tools/call without initialize', async () => {
    const answer = await post(
      app,
      rpc('tools/call', { name: 'search_companies', arguments: { q: 'Sesam', country: 'NO' } }, 'abc'),
    );
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ id: 'abc', result: { structuredContent: { count: 2, resolved: true } } });
  });

  it('malformed JSON: HTTP 400 with -32700 in JSON, not the framework’s HTML', async () => {
    for (const body of ['{"jsonrpc":"2.0","id":1,"method":', 'not json', '', Buffer.from([0x7b, 0xff, 0xfe, 0x7d])]) {
      expectJsonRpcError(await post(app, body), 400, -32700);
    }
  });

  it('a batch: -32600, although the SDK would accept it', async () => {
    const batch = `[${rpc('tools/list', undefined, 1)},${rpc('ping', undefined, 2)}]`;
    const answer = await post(app, batch);
    expectJsonRpcError(answer, 400, -32600);
    expect(answer.json.error.message).toMatch(/batch/i);
    expectJsonRpcError(await post(app, '[]'), 400, -32600);
  });

  it('JSON that is not a JSON-RPC message: -32600', async () => {
    expectJsonRpcError(await post(app, '{"hello":"world"}'), 400, -32600);
    expectJsonRpcError(await post(app, '42'), 400, -32600);
    expectJsonRpcError(await post(app, JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'ping' })), 400, -32600, 7);
    // JSON-RPC: params, when present, is an object or an array.
    expectJsonRpcError(await post(app, rpc('tools/call', 'search_companies', 8)), 400, -32600, 8);
  });

  it('an unknown method: -32601', async () => {
    const answer = await post(app, rpc('resources/list', {}, 5));
    expectJsonRpcError(answer, 200, -32601, 5);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'the method %s (an Object.prototype name): -32601, not a 500',
    async (method) => {
      const answer = await post(app, rpc(method, {}, 9));
      expectJsonRpcError(answer, 200, -32601, 9);
    },
  );

  it('params of the wrong types: -32602, never -32603', async () => {
    expectJsonRpcError(await post(app, rpc('tools/call', { name: 42 }, 6)), 200, -32602, 6);
    expectJsonRpcError(
      await post(app, rpc('tools/call', { name: 'search_companies', arguments: { q: ['a'], country: 'NO' } }, 8)),
      200,
      -32602,
      8,
    );
    expectJsonRpcError(
      await post(app, rpc('tools/call', { name: 'search_companies', arguments: 'q=Sesam' }, 9)),
      200,
      -32602,
      9,
    );
    expectJsonRpcError(await post(app, rpc('tools/call', { name: 'nope', arguments: {} }, 10)), 200, -32602, 10);
    expectJsonRpcError(await post(app, rpc('initialize', { protocolVersion: 2025 }, 11)), 200, -32602, 11);
    expectJsonRpcError(await post(app, rpc('tools/list', { cursor: 5 }, 12)), 200, -32602, 12);
  });

  it('an argument named __proto__: -32602 naming it, as any argument a tool does not take', async () => {
    const answer = await post(
      app,
      '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"search_companies","arguments":{"q":"sesam","country":"NO","__proto__":{"limit":1}}}}',
    );
    expectJsonRpcError(answer, 200, -32602, 13);
    expect(JSON.stringify(answer.json)).toContain('unknown field __proto__');
  });

  it('a body over 1 MiB: 413 with a JSON-RPC error in JSON', async () => {
    const huge = rpc('tools/call', {
      name: 'search_companies',
      arguments: { q: 'x'.repeat(1_100_000), country: 'NO' },
    });
    expectJsonRpcError(await post(app, huge), 413, -32000);
    // Also when the length is not declared up front (chunked upload).
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 12; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(100_000)));
        controller.close();
      },
    });
    const res = await fetch(app.url + MCP, {
      method: 'POST',
      headers: HEADERS,
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
  });

  it('a client that hangs up in the middle of its body leaves the server answering', async () => {
    const { port } = new URL(app.url);
    await new Promise<void>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST ${MCP} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: ${HEADERS.Accept}\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`,
        );
        setTimeout(() => socket.destroy(), 100);
      });
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    const answer = await post(app, rpc('ping', undefined, 'after'));
    expect(answer.json).toEqual({ jsonrpc: '2.0', id: 'after', result: {} });
  });

  it('a missing or insufficient Accept header: 406 in JSON', async () => {
    expectJsonRpcError(await post(app, rpc('ping'), { 'Content-Type': 'application/json' }), 406, -32000);
    expectJsonRpcError(
      await post(app, rpc('ping'), { 'Content-Type': 'application/json', Accept: 'application/json' }),
      406,
      -32000,
    );
  });

  it('a Content-Type other than JSON: 415 in JSON', async () => {
    expectJsonRpcError(
      await post(app, rpc('ping'), { 'Content-Type': 'text/plain', Accept: HEADERS.Accept }),
      415,
      -32000,
    );
    expectJsonRpcError(
      await post(app, rpc('ping'), { 'Content-Type': 'text/plain; a=application/json', Accept: HEADERS.Accept }),
      415,
      -32000,
    );
    expectJsonRpcError(await post(app, rpc('ping'), { Accept: HEADERS.Accept, 'Content-Type': '' }), 415, -32000);
  });

  it('an unsupported MCP-Protocol-Version: 400 in JSON', async () => {
    expectJsonRpcError(
      await post(app, rpc('tools/list'), { ...HEADERS, 'MCP-Protocol-Version': '1999-01-01' }),
      400,
      -32000,
    );
  });

  it('GET, DELETE and any other method but POST: 405 with Allow (no SSE stream, no session)', async () => {
    for (const method of ['GET', 'DELETE', 'PUT', 'PATCH']) {
      const res = await fetch(app.url + MCP, { method, headers: { Accept: 'text/event-stream' } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST, OPTIONS');
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } });
    }
  });

  it('a notification: 202 with no body', async () => {
    const res = await fetch(app.url + MCP, {
      method: 'POST',
      headers: HEADERS,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it('a CORS preflight from any origin allows the MCP headers', async () => {
    const res = await fetch(app.url + MCP, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://agent.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, accept, mcp-protocol-version',
      },
    });
    expect(res.status).toBeLessThan(300);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-protocol-version');
  });
});

describe('MCP endpoint over the rate limit', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '3' } });
  });
  afterAll(() => app?.close());

  it('counts MCP requests and answers the 4th with 429 problem+json and the rate-limit headers', async () => {
    const remaining: string[] = [];
    for (let i = 0; i < 3; i++) {
      const answer = await post(app, rpc('tools/list', undefined, i));
      expect(answer.status).toBe(200);
      remaining.push(answer.headers.get('x-ratelimit-remaining')!);
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const blocked = await post(app, rpc('tools/list'));
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(blocked.headers.get('x-ratelimit-limit')).toBe('3');
    expect(blocked.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(blocked.headers.get('x-ratelimit-reset'))).toBeGreaterThan(3500);
    expect(blocked.headers.get('retry-after')).toBe(blocked.headers.get('x-ratelimit-reset'));
    expect(blocked.json).toMatchObject({ status: 429, code: 'rate_limited', resetAt: expect.any(String) });
    // A malformed body over the limit is still a 429, not a parse error: the limit comes first.
    expect((await post(app, '{oops')).status).toBe(429);
  });
});
