import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

describe('one error format everywhere (RFC 9457 problem details)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  async function problem(path: string, init?: RequestInit) {
    const res = await fetch(app.url + path, init);
    const text = await res.text();
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    const body = JSON.parse(text);
    // Never a stack trace or an internal detail.
    expect(text).not.toMatch(/\bat \w+ \(|node_modules|\.ts:\d+|QueryFailedError|TypeError/);
    expect(body.status).toBe(res.status);
    expect(body.type).toBe(`/api/public/v1/problems/${body.code}`);
    expect(body.instance).toBe(`urn:request:${res.headers.get('x-request-id')}`);
    return { res, body };
  }

  it.each(
    (
      [
        ['/api/public/v1/nope', 404, 'not_found'],
        ['/api/public/v1/search', 400, 'missing_parameter'],
        ['/api/public/v1/search?q=Equinor', 400, 'missing_parameter'],
        ['/api/public/v1/search?country=NO', 400, 'missing_parameter'],
        ['/api/public/v1/search?q=&country=NO', 400, 'missing_parameter'],
        ['/api/public/v1/search?q=a&country=NO', 400, 'invalid_query'],
        ['/api/public/v1/search?q=x&q=y&country=NO', 400, 'invalid_query'],
        ['/api/public/v1/search?q=%00%01ab&country=NO', 400, 'invalid_query'],
        ['/api/public/v1/search?q=%E2%80%AEabc&country=NO', 400, 'invalid_query'],
        ['/api/public/v1/search?q=%25%25_%27&country=NO', 400, 'invalid_query'],
        [`/api/public/v1/search?q=${'a'.repeat(10_000)}&country=NO`, 400, 'invalid_query'],
        ['/api/public/v1/search?q=Equinor&country=SE', 404, 'country_not_covered'],
        ['/api/public/v1/search?q=Equinor&country=N0', 404, 'country_not_covered'],
        ['/api/public/v1/search?q=Equinor&country=NOR', 404, 'country_not_covered'],
        ['/api/public/v1/search?q=923609017&country=NO', 400, 'invalid_query'],
        ['/api/public/v1/companies/XX/123', 404, 'country_not_covered'],
        ['/api/public/v1/companies/NO/Equinor', 400, 'invalid_query'],
        ['/api/public/v1/companies/NO/%E0%A4%A', 400, 'invalid_parameter'],
        ['/api/public/v1/search?q=%zz%&country=%zz', 400, 'invalid_query'],
        ['/api/public/v1/search?q=Equinor&country=%zz', 400, 'invalid_parameter'],
        ['/api/public/v1/problems/no_such_code', 404, 'not_found'],
        ['/api/public/v1/search?q=Equinor%0DASA&country=NO', 400, 'invalid_query'],
        ['/api/public/v1/search?q=Equinor%0AASA&country=NO', 400, 'invalid_query'],
        ['/api/public/v1/search?q=Equinor%09ASA&country=NO', 400, 'invalid_query'],
        ['/api/public/v1/search?q=%20%20%20&country=NO', 400, 'invalid_query'],
        ['/api/public/v1/search?q=Equinor&country=%20%20', 404, 'country_not_covered'],
        ['/api/public/v1/companies/NO/9%2F7%2F6%2F030788', 400, 'invalid_query'],
        ['/api/public/v1/companies/NO/976030788%09', 400, 'invalid_query'],
        ['/api/public/v1/companies/NO/976%0A030788', 400, 'invalid_query'],
        ['/api/public/v1/companies/NO/%20%20', 400, 'invalid_query'],
      ] as Array<[string, number, string]>
    ).map(([path, status, code]) => ({
      path,
      status,
      code,
      label: path.length > 120 ? `${path.slice(0, 60)}…(${path.length} chars)` : path,
    })),
  )('GET $label → $status $code, with the rate-limit headers', async ({ path, status, code }) => {
    const { res, body } = await problem(path);
    expect(res.status).toBe(status);
    expect(body.code).toBe(code);
    expect(body.detail).toEqual(expect.any(String));
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
  });

  it.each([
    '/api/public/v1/registers',
    '/api/public/v1/status',
    '/api/public/v1/search?q=equinor&country=NO',
    '/api/public/v1/problems',
    '/api/v1/account',
  ])('answers %s 406 not_acceptable when Accept rules JSON out, and in JSON when it allows it', async (path) => {
    const { res, body } = await problem(path, { headers: { Accept: 'text/csv' } });
    expect({ status: res.status, code: body.code }).toEqual({ status: 406, code: 'not_acceptable' });
    expect(body.detail).toContain('text/csv');
    // Counted like any request of the read API (the account API counts per account, after its key).
    if (path.startsWith('/api/public/')) expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
    // Weights that are not qvalues make the header unreadable, and it is disregarded (it was a 406).
    for (const accept of [
      'application/json',
      '*/*',
      'text/html, application/json;q=0.5',
      'application/*',
      '*/*;q=abc',
      'text/csv, */*;q=1.5',
      'text/csv, application/json;q=',
    ]) {
      const ok = await fetch(app.url + path, { headers: { Accept: accept } });
      await ok.arrayBuffer();
      expect({ accept, status: ok.status }).not.toEqual({ accept, status: 406 });
    }
  });

  it('names every missing parameter at once', async () => {
    const { body } = await problem('/api/public/v1/search');
    expect(body.errors.map((e: any) => e.field)).toEqual(['q', 'country']);
  });

  it('says why a registration number is refused: its check digit', async () => {
    const { body } = await problem('/api/public/v1/search?q=923%20609%20017&country=NO');
    expect(body.detail).toMatch(/check digit/);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('%s on a GET endpoint → 405 with Allow', async (method) => {
    const { res, body } = await problem('/api/public/v1/registers', { method });
    expect(res.status).toBe(405);
    expect(body.code).toBe('method_not_allowed');
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  it('describes every error code at the URI its type names', async () => {
    const res = await fetch(`${app.url}/api/public/v1/problems/rate_limited`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      code: 'rate_limited',
      status: 429,
      type: '/api/public/v1/problems/rate_limited',
    });
  });
});

describe('OpenAPI, docs and health', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('serves an OpenAPI 3 document generated from the code, with the rate-limit headers documented', async () => {
    const res = await fetch(`${app.url}/api/public/v1/openapi.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    const doc = (await res.json()) as any;
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/public/v1/search',
        '/api/public/v1/companies/{country}/{registrationNumber}',
        '/api/public/v1/registers',
        '/api/public/v1/status',
      ]),
    );
    const search = doc.paths['/api/public/v1/search'].get;
    expect(search.responses['200'].content['application/json'].schema.$ref).toContain('SearchResponseDto');
    expect(search.responses['429'].headers['X-RateLimit-Reset'].description).toMatch(/seconds/i);
    expect(Object.keys(search.responses).sort()).toEqual(['200', '400', '404', '406', '429', '500', '502', '503']);
    const result = doc.components.schemas.CompanyResultDto;
    expect(result.properties.statusCategory.enum).toEqual([
      'active',
      'in_liquidation',
      'insolvency',
      'dissolved',
      'struck_off',
      'unknown',
    ]);
    expect(doc.components.schemas.ProblemDetailsDto.properties.code.enum).toContain('upstream_error');
  });

  it('serves the docs page', async () => {
    const res = await fetch(`${app.url}/docs`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('swagger');
  });

  it('answers liveness and readiness (database checked)', async () => {
    expect(await (await fetch(`${app.url}/health/live`)).json()).toEqual({ status: 'ok' });
    const ready = await fetch(`${app.url}/health/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({
      status: 'ok',
      info: { database: { status: 'up' }, redis: { status: 'up' } },
    });
  });
});
