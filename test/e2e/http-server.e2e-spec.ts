import { raw, RawAnswer } from '../support/raw-http';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

function parse(answer: RawAnswer): { status: number; headers: Record<string, string>; body: any } {
  const [head, ...rest] = answer.text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const l of lines) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n')) };
}

function expectProblemWithHeaders(answer: RawAnswer, status: number, code: string): void {
  const { status: got, headers, body } = parse(answer);
  expect(got).toBe(status);
  expect(headers['content-type']).toBe('application/problem+json');
  expect(headers['access-control-allow-origin']).toBe('*');
  expect(headers['x-ratelimit-remaining']).toMatch(/^\d+$/);
  expect(headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  expect(body).toMatchObject({
    status,
    code,
    type: `/api/public/v1/problems/${code}`,
    instance: `urn:request:${headers['x-request-id']}`,
  });
}

describe('HTTP server limits against slow clients, and answers to what the parser refuses', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { HTTP_HEADERS_TIMEOUT_MS: '600', HTTP_REQUEST_TIMEOUT_MS: '1200', HTTP_KEEP_ALIVE_TIMEOUT_MS: '500' },
    });
  });
  afterAll(() => app.close());

  it('cuts a client whose headers stop half-way after the headers timeout, with 408 request_timeout', async () => {
    const answer = await raw(app, ['GET /api/public/v1/registers HTTP/1.1\r\nHost: x\r\nX-Slow: '], 5_000);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(500);
    expect(answer.closedAfterMs).toBeLessThan(2_000);
    expectProblemWithHeaders(answer, 408, 'request_timeout');
  });

  it('cuts a client whose body never arrives after the request timeout', async () => {
    const headers =
      'POST /api/public/v1/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n';
    const answer = await raw(app, [headers, '{"jsonrpc":'], 5_000);
    expect(answer.closedAfterMs).toBeGreaterThanOrEqual(1_000);
    expect(answer.closedAfterMs).toBeLessThan(3_000);
    expectProblemWithHeaders(answer, 408, 'request_timeout');
  });

  it('closes an idle keep-alive connection after the keep-alive timeout', async () => {
    const answer = await raw(app, ['GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n'], 5_000);
    expect(answer.text).toMatch(/^HTTP\/1\.1 200/);
    // Node adds a one-second grace to the keep-alive timeout.
    expect(answer.closedAfterMs).toBeLessThan(3_000);
  });

  it('answers a malformed request line with a problem document, CORS and rate-limit headers', async () => {
    expectProblemWithHeaders(await raw(app, ['G@T / HTTP/1.1\r\nHost: x\r\n\r\n']), 400, 'malformed_request');
    expectProblemWithHeaders(
      await raw(app, ['GET /api/public/v1/registers HTTP/1.1\r\nHost x\r\n\r\n']),
      400,
      'malformed_request',
    );
  });

  it('answers headers over the limit with 431 headers_too_large', async () => {
    const answer = await raw(app, [
      `GET /api/public/v1/registers HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    ]);
    expectProblemWithHeaders(answer, 431, 'headers_too_large');
  });

  it('still serves normal requests', async () => {
    const res = await fetch(`${app.url}/api/public/v1/registers`);
    expect(res.status).toBe(200);
  });
});

describe('HTTP server limits by default', () => {
  it('are those of a public API: 15 s for headers, 30 s for the request, 5 s keep-alive', async () => {
    const app = await startTestApp({ serviceKeepAlive: true });
    try {
      const server = app.app.getHttpServer();
      expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([15_000, 30_000, 5_000]);
    } finally {
      await app.close();
    }
  });
});
