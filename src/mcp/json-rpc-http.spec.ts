import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { checkPostHeaders, MAX_BODY_BYTES, parseMessage, readBody } from './json-rpc-http';

function request(headers: Record<string, string>, chunks: Array<string | Buffer> = []): IncomingMessage {
  const stream = Readable.from(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
  return Object.assign(stream, { headers }) as unknown as IncomingMessage;
}

const ACCEPT = 'application/json, text/event-stream';

describe('checkPostHeaders', () => {
  it('accepts what MCP clients send', () => {
    expect(checkPostHeaders(request({ accept: ACCEPT, 'content-type': 'application/json' }))).toBeNull();
    expect(
      checkPostHeaders(
        request({
          accept: 'text/event-stream, application/json;q=0.9',
          'content-type': 'Application/JSON; charset=utf-8',
        }),
      ),
    ).toBeNull();
  });

  it('refuses an Accept without both media types with 406, before looking at the body type', () => {
    expect(checkPostHeaders(request({ 'content-type': 'text/plain' }))).toMatchObject({ status: 406, code: -32000 });
    expect(checkPostHeaders(request({ accept: 'application/json', 'content-type': 'application/json' }))).toMatchObject(
      { status: 406 },
    );
    expect(checkPostHeaders(request({ accept: '*/*', 'content-type': 'application/json' }))).toMatchObject({
      status: 406,
    });
  });

  it('refuses a body that is not JSON by its media type (parsed, not a substring) or is compressed with 415', () => {
    expect(checkPostHeaders(request({ accept: ACCEPT }))).toMatchObject({ status: 415 });
    expect(
      checkPostHeaders(request({ accept: ACCEPT, 'content-type': 'text/plain; x=application/json' })),
    ).toMatchObject({ status: 415 });
    expect(
      checkPostHeaders(request({ accept: ACCEPT, 'content-type': 'application/json', 'content-encoding': 'gzip' })),
    ).toMatchObject({ status: 415 });
  });
});

describe('readBody', () => {
  it('reads a body up to the limit', async () => {
    const read = await readBody(request({}, ['{"a":', '1}']), 7);
    expect(read).toEqual({ tooLarge: false, body: Buffer.from('{"a":1}') });
  });

  it('refuses a declared length over the limit without reading', async () => {
    const stream = request({ 'content-length': String(MAX_BODY_BYTES + 1) }, ['x']);
    expect(await readBody(stream)).toEqual({ tooLarge: true });
    expect(stream.readableEnded).toBe(false);
  });

  it('stops as soon as an undeclared body passes the limit', async () => {
    expect(await readBody(request({}, ['12345', '6789']), 8)).toEqual({ tooLarge: true });
  });
});

describe('parseMessage', () => {
  const ok = (v: unknown) => parseMessage(Buffer.from(JSON.stringify(v)));

  it('passes one well-formed message through', () => {
    expect(ok({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toEqual({
      ok: true,
      message: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(ok({ jsonrpc: '2.0', method: 'notifications/initialized' })).toMatchObject({ ok: true });
    // Methods this server does not answer are left to the SDK (-32601).
    expect(ok({ jsonrpc: '2.0', id: 2, method: 'resources/list', params: { anything: true } })).toMatchObject({
      ok: true,
    });
  });

  it('-32700 for what is not JSON or not UTF-8', () => {
    for (const body of ['', '{', 'nul', "{'a':1}"])
      expect(parseMessage(Buffer.from(body))).toMatchObject({ ok: false, refusal: { status: 400, code: -32700 } });
    expect(parseMessage(Buffer.from([0x22, 0xc3, 0x28, 0x22]))).toMatchObject({ ok: false, refusal: { code: -32700 } });
  });

  it('-32600 for a batch, even of valid messages, and for JSON that is no JSON-RPC message', () => {
    expect(ok([{ jsonrpc: '2.0', id: 1, method: 'ping' }])).toMatchObject({
      ok: false,
      refusal: { status: 400, code: -32600, id: undefined },
    });
    expect(ok({ jsonrpc: '2.0', id: 3 })).toMatchObject({ ok: false, refusal: { code: -32600, id: 3 } });
    expect(ok({ id: 'x', method: 'ping' })).toMatchObject({ ok: false, refusal: { code: -32600, id: 'x' } });
    expect(ok(null)).toMatchObject({ ok: false, refusal: { code: -32600, id: null } });
  });

  it('-32602 with the request id for a known method whose params do not fit', () => {
    expect(ok({ jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 1 } })).toMatchObject({
      ok: false,
      refusal: { status: 200, code: -32602, id: 4 },
    });
    const refused = ok({ jsonrpc: '2.0', id: 5, method: 'initialize', params: { protocolVersion: '2025-11-25' } });
    expect(refused).toMatchObject({ ok: false, refusal: { code: -32602, id: 5 } });
    expect(!refused.ok && refused.refusal.message).toMatch(/initialize/);
  });

  it('-32602 for a __proto__ key, which zod would drop rather than refuse as an unknown argument', () => {
    const call = (args: string) =>
      parseMessage(
        Buffer.from(
          `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"search_companies","arguments":${args}}}`,
        ),
      );
    expect(call('{"q":"sesam","country":"NO","__proto__":{"x":1}}')).toEqual({
      ok: false,
      refusal: {
        status: 200,
        code: -32602,
        id: 6,
        message: 'Invalid params for tools/call: ✖ unknown field __proto__\n  → at params.arguments',
      },
    });
    expect(call('{"q":"sesam","country":"NO","nested":{"__proto__":1}}')).toMatchObject({
      refusal: { message: expect.stringMatching(/at params\.arguments\.nested$/) },
    });
    expect(call('{"q":"sesam","country":"NO","constructor":1}')).toMatchObject({ ok: true });
  });
});
