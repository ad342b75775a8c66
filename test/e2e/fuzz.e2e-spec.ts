import fc from 'fast-check';
import { PROTOTYPE_KEYS } from '../../src/platform/lookup-table';
import { PROBLEM_CODES } from '../../src/platform/errors/problem-catalog';
import { COUNTRY_CODES } from '../../src/registers/registers';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(180_000);

const SEED = 20261122;
const REST_RUNS = 2_000;
const MCP_RUNS = 1_000;
const ACCOUNT_RUNS = 1_200;
const TIMEOUT_MS = 15_000;

interface Generated {
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

// Text a hostile client sends: any code point, lone surrogates, controls, separators, prototype names.
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '  ',
    '\t',
    '\r\n',
    '%',
    '%zz',
    '%00',
    '%E0%A4%A',
    '..',
    '../..',
    '/',
    '%2F',
    '923609016',
    '976030788',
    'SESAM',
    '0112038-9',
    'Y-tunnus: 0112038-8',
    'NO',
    'gb',
    ...PROTOTYPE_KEYS,
  ),
  fc.stringMatching(/^[0-9 ./-]{0,20}$/),
);
/** As a client puts text in a URL (a lone surrogate cannot be percent-encoded: sent raw). */
function percentEncoded(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return s.replace(/[^\x21-\x7e]/g, '%FF');
  }
}
const encoded = hostile.map(percentEncoded);
const raw = fc.oneof(
  encoded,
  fc.stringMatching(/^[\x21-\x7e]{0,30}$/).map((s) => s.replace(/[#?]/g, '')),
);
const country = fc.oneof(fc.constantFrom(...COUNTRY_CODES, 'no', 'fi', 'SE', 'XX', ''), raw);

const restRequest: fc.Arbitrary<Generated> = fc.record({
  method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
  path: fc.oneof(
    fc
      .tuple(raw, country, fc.boolean())
      .map(([q, c, twice]) => `/api/public/v1/search?q=${q}&country=${c}${twice ? `&q=${q}` : ''}`),
    fc.tuple(country, raw).map(([c, n]) => `/api/public/v1/companies/${c}/${n}`),
    fc.tuple(raw, raw).map(([p, s]) => `/api/public/v1/registers?provides=${p}&status=${s}`),
    fc.constantFrom(
      '/api/public/v1/registers',
      '/api/public/v1/status',
      '/api/public/v1/problems',
      '/api/public/v1/openapi.json',
    ),
    fc.oneof(raw, fc.constantFrom(...PROBLEM_CODES)).map((c) => `/api/public/v1/problems/${c}`),
    fc.array(raw, { minLength: 1, maxLength: 4 }).map((segs) => `/api/public/v1/${segs.join('/')}`),
    fc.tuple(raw, raw).map(([k, v]) => `/api/public/v1/search?${k}=${v}`),
  ),
});

const jsonRpcId = fc.oneof(
  fc.integer(),
  fc.string({ maxLength: 10 }),
  fc.constant(null),
  fc.double(),
  fc.object({ maxDepth: 1 }),
);
const method = fc.oneof(
  fc.constantFrom(
    'initialize',
    'ping',
    'tools/list',
    'tools/call',
    'resources/list',
    'notifications/initialized',
    ...PROTOTYPE_KEYS,
  ),
  fc.string({ maxLength: 20 }),
);
const toolCall = fc.record({
  name: fc.oneof(
    fc.constantFrom('search_companies', 'get_company', 'list_registers', 'get_register_status', ...PROTOTYPE_KEYS),
    fc.string({ maxLength: 20 }),
  ),
  arguments: fc.oneof(
    fc.record(
      { q: fc.oneof(hostile, fc.jsonValue()), country: fc.oneof(hostile, fc.jsonValue()) },
      { requiredKeys: [] },
    ),
    fc.record({ country: hostile, registrationNumber: hostile }, { requiredKeys: [] }),
    fc.record({ provides: hostile, status: hostile }, { requiredKeys: [] }),
    fc.jsonValue(),
  ),
});
const mcpBody: fc.Arbitrary<string> = fc.oneof(
  fc
    .record(
      {
        jsonrpc: fc.constantFrom('2.0', '2.0', '1.0'),
        id: jsonRpcId,
        method: fc.constant('tools/call'),
        params: toolCall,
      },
      { requiredKeys: ['jsonrpc', 'method'] },
    )
    .map((m) => JSON.stringify(m)),
  fc
    .record(
      { jsonrpc: fc.constant('2.0'), id: jsonRpcId, method, params: fc.oneof(fc.jsonValue(), fc.object()) },
      { requiredKeys: ['jsonrpc', 'method'] },
    )
    .map((m) => JSON.stringify(m)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc
    .array(fc.record({ jsonrpc: fc.constant('2.0'), id: fc.integer(), method }), { maxLength: 3 })
    .map((b) => JSON.stringify(b)),
  fc.string({ unit: 'binary', maxLength: 60 }),
);
const mcpRequest: fc.Arbitrary<Generated> = fc.record({
  method: fc.constantFrom('POST', 'POST', 'POST', 'POST', 'POST', 'POST', 'GET', 'DELETE'),
  path: fc.constant('/api/public/v1/mcp'),
  body: mcpBody,
  headers: fc.oneof(
    fc.constant({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' }),
    fc.constant({
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-11-25',
    }),
    fc.record({
      'Content-Type': fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8'),
      Accept: fc.constantFrom('application/json, text/event-stream', '*/*', 'text/html'),
    }),
  ),
});

// The audit's cases: a NUL anywhere in text, instants no engine stores, cursors that decode to them.
const nasty = fc.oneof(
  hostile,
  fc.constantFrom('\u0000', 'a\u0000b', 'tail\u0000', '\u0000'.repeat(3)),
  fc.string({ maxLength: 30 }).map((s) => `${s}\u0000${s}`),
);
const instant = fc.oneof(
  fc.constantFrom(
    '0000-01-01T00:00:00Z',
    '1969-12-31T23:59:59Z',
    '9999-12-31T23:59:59Z',
    '+010000-01-01T00:00:00Z',
    '-271821-04-20T00:00:00Z',
    '-100000-01-01T00:00:00.000Z',
    '2026-02-30T00:00:00Z',
    '2026-11-23T10:00:00+25:00',
    '2026-11-23',
    'now',
  ),
  fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15), noInvalidDate: true }).map((d) => d.toISOString()),
  hostile,
);
const cursor = fc.oneof(
  fc
    .tuple(instant, fc.constantFrom('evt_0123456789012345678901', 'dlv_0123456789012345678901', 'x'))
    .map(([t, id]) => Buffer.from(JSON.stringify([t, id])).toString('base64url')),
  raw,
);
// An id in a path, as a hostile client sends it.
const pathId = fc.oneof(
  nasty.map(percentEncoded),
  fc.constantFrom('wch_0123456789012345678901', 'evt_0123456789012345678901', 'we_0123456789012345678901', 'wch_%00'),
);
const accountRequest: fc.Arbitrary<Generated> = fc.oneof(
  fc
    .tuple(
      fc.constantFrom('GET', 'DELETE', 'PATCH', 'POST'),
      fc.constantFrom(
        '/api/v1/watches/ID',
        '/api/v1/events/ID',
        '/api/v1/webhook-endpoints/ID',
        '/api/v1/webhook-endpoints/ID/rotate-secret',
        '/api/v1/webhook-endpoints/ENDPOINT/deliveries/ID',
        '/api/v1/webhook-endpoints/ENDPOINT/deliveries/ID/retry',
        '/api/v1/account/keys/ID',
      ),
      pathId,
    )
    .map(([method, path, id]) => ({ method, path: path.replace('ID', id), body: '{}' })),
  fc
    .record({
      url: fc.constantFrom('https://example.com/hook', 'http://127.0.0.1/x'),
      description: nasty,
      events: fc.oneof(fc.constant(undefined), fc.array(nasty, { maxLength: 2 })),
    })
    .map((b) => ({ method: 'POST', path: '/api/v1/webhook-endpoints', body: JSON.stringify(b) })),
  fc.record({ name: nasty }).map((b) => ({ method: 'POST', path: '/api/v1/account/keys', body: JSON.stringify(b) })),
  fc
    .record({ useCase: nasty, countries: fc.array(nasty, { maxLength: 2 }), events: fc.array(nasty, { maxLength: 2 }) })
    .map((b) => ({ method: 'POST', path: '/api/v1/access-requests', body: JSON.stringify(b) })),
  fc
    .record({ country: nasty, registrationNumber: nasty })
    .map((b) => ({ method: 'POST', path: '/api/v1/watches', body: JSON.stringify(b) })),
  fc
    .tuple(
      fc.constantFrom('/api/v1/events', '/api/v1/watches', '/api/v1/webhook-endpoints/ENDPOINT/deliveries'),
      instant,
      instant,
      cursor,
    )
    .map(([path, since, until, c]) => ({
      method: 'GET',
      path: `${path}?since=${encodeURIComponent(since)}&until=${encodeURIComponent(until)}&cursor=${encodeURIComponent(c)}`,
    })),
  fc
    .record({ since: instant, until: fc.oneof(fc.constant(undefined), instant) })
    .map((b) => ({ method: 'POST', path: '/api/v1/webhook-endpoints/ENDPOINT/replay', body: JSON.stringify(b) })),
  fc
    .record({ description: nasty })
    .map((b) => ({ method: 'PATCH', path: '/api/v1/webhook-endpoints/ENDPOINT', body: JSON.stringify(b) })),
);

async function send(app: TestApp, r: Generated): Promise<{ status: number; type: string; text: string }> {
  const withBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD';
  const res = await fetch(app.url + r.path, {
    method: r.method,
    headers: r.headers,
    body: withBody ? r.body : undefined,
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  return { status: res.status, type: res.headers.get('content-type') ?? '', text: await res.text() };
}

/** Sends every request, `width` at a time; returns the failures (described). */
async function run(
  app: TestApp,
  requests: Generated[],
  check: (r: Generated, a: { status: number; type: string; text: string }) => string | null,
  width = 8,
): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < requests.length) {
        const r = requests[next++];
        try {
          const problem = check(r, await send(app, r));
          if (problem) failures.push(`${r.method} ${r.path} ${r.body?.slice(0, 200) ?? ''}: ${problem}`);
        } catch (err) {
          failures.push(`${r.method} ${r.path}: ${(err as Error).name} ${(err as Error).message}`);
        }
      }
    }),
  );
  return failures;
}

function parse(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function signUpKey(app: TestApp): Promise<string> {
  const res = await fetch(`${app.url}/api/v1/accounts`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'fuzz@example.com' }),
  });
  return ((await res.json()) as { apiKey: string }).apiKey;
}

function checkProblem(a: { status: number; type: string; text: string }): string | null {
  if (!a.type.startsWith('application/problem+json')) return `status ${a.status} with ${a.type || 'no content type'}`;
  const body = parse(a.text);
  if (!body || body.status !== a.status || !PROBLEM_CODES.includes(body.code) || typeof body.detail !== 'string')
    return `not a problem document: ${a.text.slice(0, 200)}`;
  return null;
}

describe(`fuzz (seed ${SEED}): no 500, no hang, always a problem document or a JSON-RPC answer`, () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        DATASET_SEED: 'true',
        RATE_LIMIT_ALLOWLIST: '127.0.0.1, ::1',
        ACCOUNT_RATE_LIMIT_PER_HOUR: '100000',
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.0/8',
      },
    });
  });
  afterAll(() => app.close());

  it(`${REST_RUNS} generated REST requests`, async () => {
    const requests = fc.sample(restRequest, { seed: SEED, numRuns: REST_RUNS });
    const failures = await run(app, requests, (r, a) => {
      if (a.status >= 500 && a.status !== 502) return `status ${a.status}: ${a.text.slice(0, 200)}`;
      if (r.method === 'OPTIONS' && a.status === 204) return null;
      if (r.method === 'HEAD') return a.text === '' ? null : 'HEAD with a body';
      if (a.status >= 400) return checkProblem(a);
      if (!a.type.startsWith('application/json') || parse(a.text) === undefined) return `${a.status} that is not JSON`;
      return null;
    });
    expect(failures).toEqual([]);
  });

  it(`${ACCOUNT_RUNS} generated account API requests: NUL characters, unstorable instants, forged cursors`, async () => {
    const key = await signUpKey(app);
    const endpoint = await fetch(`${app.url}/api/v1/webhook-endpoints`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/hook' }),
    });
    const endpointId = ((await endpoint.json()) as { id: string }).id;
    const requests = fc.sample(accountRequest, { seed: SEED, numRuns: ACCOUNT_RUNS }).map((r) => ({
      ...r,
      path: r.path.replace('ENDPOINT', endpointId),
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    }));
    const failures = await run(app, requests, (_r, a) => {
      if (a.status >= 500) return `status ${a.status}: ${a.text.slice(0, 200)}`;
      if (a.status >= 400) return checkProblem(a);
      if (a.status !== 204 && parse(a.text) === undefined) return `${a.status} that is not JSON`;
      return null;
    });
    expect(failures).toEqual([]);
  });

  it(`${MCP_RUNS} generated MCP messages`, async () => {
    const requests = fc.sample(mcpRequest, { seed: SEED, numRuns: MCP_RUNS });
    const failures = await run(app, requests, (_r, a) => {
      if (a.status >= 500) return `status ${a.status}: ${a.text.slice(0, 200)}`;
      if (a.status === 202) return a.text === '' ? null : '202 with a body';
      if (a.status === 429) return checkProblem(a);
      const body = parse(a.text);
      if (!a.type.startsWith('application/json') || !body) return `${a.status} ${a.type}: ${a.text.slice(0, 200)}`;
      if (body.jsonrpc !== '2.0' || !('result' in body || 'error' in body))
        return `not a JSON-RPC answer: ${a.text.slice(0, 200)}`;
      if ('error' in body && (typeof body.error.code !== 'number' || body.error.code === -32603))
        return `internal error: ${a.text.slice(0, 200)}`;
      return null;
    });
    expect(failures).toEqual([]);
  });
});
