import { raw } from '../support/raw-http';
import { MODE, startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

/** Sends n GETs one after another (the count must be exact, so no concurrency). */
async function hit(app: TestApp, path: string, n: number, headers: Record<string, string> = {}): Promise<Response[]> {
  const out: Response[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(app.url + path, { headers });
    await res.arrayBuffer();
    out.push(res);
  }
  return out;
}

describe('rate limit: 120 requests per hour per client IP across /api/public/v1', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({
      env: { TRUST_PROXY: 'loopback', RATE_LIMIT_ALLOWLIST: '198.51.100.0/24, 203.0.113.9=3' },
    });
  });
  afterAll(() => app.close());

  it('counts every endpoint, known or not, and answers the 121st request with 429 rate_limited', async () => {
    const ip = { 'X-Forwarded-For': '192.0.2.10' };
    const paths = [
      '/api/public/v1/registers',
      '/api/public/v1/no-such-path',
      '/api/public/v1/problems',
      '/api/public/v1/registers?status=bogus',
    ];
    const first = await hit(app, paths[0], 1, ip);
    expect(first[0].status).toBe(200);
    expect(first[0].headers.get('x-ratelimit-remaining')).toBe('119');
    const reset = Number(first[0].headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThan(3590);
    expect(reset).toBeLessThanOrEqual(3600);

    for (let i = 1; i < 120; i++) {
      const res = (await hit(app, paths[i % paths.length], 1, ip))[0];
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(119 - i));
      expect(res.headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
      expect(res.status).not.toBe(429);
    }
    const blocked = (await hit(app, paths[0], 1, ip))[0];
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('content-type')).toContain('application/problem+json');
    expect(blocked.headers.get('x-ratelimit-remaining')).toBe('0');
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(blocked.headers.get('x-ratelimit-reset')).toBe(String(retryAfter));
    const body = (await (await fetch(app.url + paths[0], { headers: ip })).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ status: 429, code: 'rate_limited', type: '/api/public/v1/problems/rate_limited' });
    const resetAt = Date.parse(body.resetAt as string);
    expect(resetAt - app.clock.now().getTime()).toBeGreaterThan(3_500_000);
    expect(body.resetAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(body.detail).toContain(body.resetAt as string);
  });

  it('ends a 429 when the last 200 said the window resets, not a window after the first 429', async () => {
    const ip = { 'X-Forwarded-For': '192.0.2.44' };
    const answers = await hit(app, '/api/public/v1/problems', 120, ip);
    const lastReset = Number(answers[119].headers.get('x-ratelimit-reset'));
    expect(answers[119].status).toBe(200);
    if (MODE === 'embedded') app.clock.advance(4_000); // the in-process count runs on the app's clock
    const blocked = (await hit(app, '/api/public/v1/problems', 1, ip))[0];
    expect(blocked.status).toBe(429);
    const retryAfter = Number(blocked.headers.get('retry-after'));
    expect(blocked.headers.get('x-ratelimit-reset')).toBe(String(retryAfter));
    if (MODE === 'services') {
      // Redis counts on its own clock: the 429 ends no later than the 200 said.
      expect(retryAfter).toBeLessThanOrEqual(lastReset);
      return;
    }
    expect(retryAfter).toBe(lastReset - 4);
    app.clock.advance((retryAfter - 1) * 1000);
    const stillBlocked = (await hit(app, '/api/public/v1/problems', 1, ip))[0];
    expect({ status: stillBlocked.status, retryAfter: stillBlocked.headers.get('retry-after') }).toEqual({
      status: 429,
      retryAfter: '1',
    });
    app.clock.advance(1_000);
    const again = (await hit(app, '/api/public/v1/problems', 1, ip))[0];
    expect({ status: again.status, remaining: again.headers.get('x-ratelimit-remaining') }).toEqual({
      status: 200,
      remaining: '119',
    });
    expect(Number(again.headers.get('x-ratelimit-reset'))).toBe(3600);
  });

  it('counts a path however it is spelt for the router: another case, a trailing slash, an absolute-form target', async () => {
    const ip = '192.0.2.20';
    const spellings = ['/API/Public/V1/registers', '/api/public/v1/registers/', '/api/public/v1//registers'];
    for (const [i, path] of spellings.entries()) {
      const res = (await hit(app, path, 1, { 'X-Forwarded-For': ip }))[0];
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(119 - i));
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    }
    // An absolute-form request target (what a proxy is sent) is routed by its path, so counted too.
    const { text } = await raw(app, [
      `GET ${app.url}/api/public/v1/registers HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: ${ip}\r\nConnection: close\r\n\r\n`,
    ]);
    expect(text).toMatch(/^HTTP\/1\.1 200 /);
    expect(text).toMatch(/\r\nX-RateLimit-Remaining: 116\r\n/i);
    // Outside the read API nothing is counted: a prefix is whole segments.
    const beside = (await hit(app, '/api/publicity', 1, { 'X-Forwarded-For': ip }))[0];
    expect(beside.headers.get('x-ratelimit-remaining')).toBeNull();
  });

  it('counts another IP apart, and an IPv6 /64 as one client', async () => {
    const other = await hit(app, '/api/public/v1/registers', 1, { 'X-Forwarded-For': '192.0.2.11' });
    expect(other[0].status).toBe(200);
    expect(other[0].headers.get('x-ratelimit-remaining')).toBe('119');

    const a = await hit(app, '/api/public/v1/registers', 1, { 'X-Forwarded-For': '2001:db8:1:2::1' });
    const b = await hit(app, '/api/public/v1/registers', 1, { 'X-Forwarded-For': '2001:db8:1:2:ffff::7' });
    const c = await hit(app, '/api/public/v1/registers', 1, { 'X-Forwarded-For': '2001:db8:1:3::1' });
    expect(a[0].headers.get('x-ratelimit-remaining')).toBe('119');
    expect(b[0].headers.get('x-ratelimit-remaining')).toBe('118');
    expect(c[0].headers.get('x-ratelimit-remaining')).toBe('119');
  });

  it('lifts or raises the limit for allowlisted ranges', async () => {
    const free = await hit(app, '/api/public/v1/registers', 130, { 'X-Forwarded-For': '198.51.100.77' });
    expect(free.every((r) => r.status === 200)).toBe(true);
    expect(free[129].headers.get('x-ratelimit-reset')).toMatch(/^\d+$/);
    const small = await hit(app, '/api/public/v1/registers', 4, { 'X-Forwarded-For': '203.0.113.9' });
    expect(small.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    expect(small[0].headers.get('x-ratelimit-limit')).toBe('3');
  });

  it('leaves health and docs outside the count', async () => {
    const ip = { 'X-Forwarded-For': '192.0.2.12' };
    await hit(app, '/health/live', 3, ip);
    const res = await hit(app, '/api/public/v1/registers', 1, ip);
    expect(res[0].headers.get('x-ratelimit-remaining')).toBe('119');
  });
});

describe('client IP without a trusted proxy', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { RATE_LIMIT_PER_HOUR: '5' } });
  });
  afterAll(() => app.close());

  it('ignores X-Forwarded-For (a client cannot pick its own count)', async () => {
    const res = [];
    for (let i = 0; i < 6; i++)
      res.push(await fetch(`${app.url}/api/public/v1/registers`, { headers: { 'X-Forwarded-For': `192.0.2.${i}` } }));
    expect(res.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
