import { AccessRequestAdmin } from '../../src/events/accounts/admin/access-request-admin.service';
import { runAccessRequestCommand as runAdminCommand } from '../../src/events/accounts/admin/admin-commands';
import { COUNTRY_CODES } from '../../src/registers/registers';
import { call, signUp } from '../support/event-side';
import { runProcess } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(90_000);

/** Accounts, API keys, authentication, access requests: /api/v1 as a customer and an operator use it. */
describe('accounts and API keys (/api/v1)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ env: { SIGNUPS_PER_HOUR_PER_IP: '30', ACCOUNT_RATE_LIMIT_PER_HOUR: '1000' } });
  });
  afterAll(() => app?.close());

  const url = () => app.url;

  function expectProblem(res: { status: number; headers: Headers; body: any }, status: number, code: string) {
    expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({
      status,
      type: `/api/public/v1/problems/${code}`,
      instance: `urn:request:${res.headers.get('x-request-id')}`,
    });
  }

  it('signs up with an email: 201, the account, and a key shown once (rl_ + 32 random bytes)', async () => {
    const res = await call(url(), 'POST', '/api/v1/accounts', { body: { email: 'ada@example.com' } });
    expect(res.status).toBe(201);
    expect(res.body.apiKey).toMatch(/^rl_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(res.body.apiKey.slice(3), 'base64url')).toHaveLength(32);
    expect(res.body.account).toMatchObject({
      id: expect.stringMatching(/^acct_[0-9A-Za-z]{22}$/),
      email: 'ada@example.com',
      liveDelivery: { enabled: false, since: null },
    });
    expect(res.body.key).toMatchObject({
      id: expect.stringMatching(/^key_/),
      prefix: res.body.apiKey.slice(0, 12),
      revokedAt: null,
    });
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);

    const me = await call(url(), 'GET', '/api/v1/account', { key: res.body.apiKey });
    expect(me.status).toBe(200);
    expect(me.body).toEqual(res.body.account);
    // The key is never shown again.
    const keys = await call(url(), 'GET', '/api/v1/account/keys', { key: res.body.apiKey });
    expect(keys.body.data).toHaveLength(1);
    expect(keys.text).not.toContain(res.body.apiKey);
  });

  it.each([
    ['no email', {}, 'email', 'invalid_type'],
    ['not an email', { email: 'not-an-email' }, 'email', 'invalid_value'],
    ['a number', { email: 42 }, 'email', 'invalid_type'],
    ['too long', { email: `${'a'.repeat(250)}@example.com` }, 'email', 'out_of_range'],
    ['an unknown field', { email: 'x@example.com', admin: true }, 'admin', 'unknown_field'],
    ['__proto__', JSON.parse('{"email":"x@example.com","__proto__":{"admin":true}}'), '__proto__', 'unknown_field'],
  ])('refuses a sign-up with %s: 400 naming the field', async (_label, body, field, code) => {
    const res = await call(url(), 'POST', '/api/v1/accounts', { body });
    expectProblem(res, 400, 'invalid_body');
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, code })]));
  });

  it('refuses bodies that are not a JSON object: invalid JSON, an array, another media type, too large', async () => {
    expectProblem(
      await call(url(), 'POST', '/api/v1/accounts', {
        rawBody: '{"email":',
        headers: { 'content-type': 'application/json' },
      }),
      400,
      'invalid_body',
    );
    expectProblem(await call(url(), 'POST', '/api/v1/accounts', { body: ['a@example.com'] }), 400, 'invalid_body');
    expectProblem(
      await call(url(), 'POST', '/api/v1/accounts', {
        rawBody: 'email=a@example.com',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      415,
      'unsupported_media_type',
    );
    expectProblem(
      await call(url(), 'POST', '/api/v1/accounts', { body: { email: 'a@example.com', pad: 'x'.repeat(100_000) } }),
      413,
      'payload_too_large',
    );
    expectProblem(await call(url(), 'POST', '/api/v1/accounts'), 400, 'invalid_body');
    // JSON, but not an object: said so, not "not valid JSON".
    for (const rawBody of ['null', '"a@example.com"', '42']) {
      const res = await call(url(), 'POST', '/api/v1/accounts', {
        rawBody,
        headers: { 'content-type': 'application/json' },
      });
      expectProblem(res, 400, 'invalid_body');
      expect(res.body.errors).toEqual([{ field: '(body)', code: 'invalid_type', message: 'expected a JSON object' }]);
    }
    // A body its Content-Encoding does not decode: which header is wrong, in a sentence.
    const undecodable = await call(url(), 'POST', '/api/v1/accounts', {
      rawBody: '{"email":"a@example.com"}',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expectProblem(undecodable, 400, 'invalid_body');
    expect(undecodable.body.detail).toBe('The request body could not be read as its Content-Encoding (gzip) says.');
    // A watch without a body, in the same words as every other body.
    const a = await signUp(url());
    const bare = await call(url(), 'POST', '/api/v1/watches', { key: a.key });
    expectProblem(bare, 400, 'invalid_body');
    expect(bare.body.errors).toEqual([{ field: '(body)', code: 'invalid_type', message: 'expected a JSON object' }]);
  });

  it('answers 401 without a key, with a malformed, unknown or revoked key, or another scheme', async () => {
    const a = await signUp(url());
    const extra = await a.call('POST', '/api/v1/account/keys', { name: 'ci' });
    expect(extra.status).toBe(201);
    expect(extra.body.key).toMatchObject({ name: 'ci' });
    expect((await call(url(), 'GET', '/api/v1/account', { key: extra.body.apiKey })).status).toBe(200);
    const revoked = await a.call('DELETE', `/api/v1/account/keys/${extra.body.key.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revokedAt).toEqual(expect.any(String));

    const cases: Array<[string, Record<string, string>, RegExp]> = [
      ['none', {}, /needs an API key/],
      ['basic', { authorization: `Basic ${Buffer.from('u:p').toString('base64')}` }, /must be "Bearer <api key>"/],
      ['malformed', { authorization: 'Bearer rl_short' }, /malformed/],
      ['unknown', { authorization: `Bearer rl_${Buffer.alloc(32, 7).toString('base64url')}` }, /not known/],
      ['same prefix, other key', { authorization: `Bearer ${a.key.slice(0, 12)}${'A'.repeat(34)}` }, /not known/],
      ['revoked', { authorization: `Bearer ${extra.body.apiKey}` }, /revoked/],
    ];
    for (const [label, headers, detail] of cases) {
      for (const [method, path] of [
        ['GET', '/api/v1/account'],
        ['GET', '/api/v1/webhook-endpoints'],
        ['POST', '/api/v1/simulator/events'],
        ['GET', '/api/v1/events'],
      ]) {
        const res = await call(url(), method, path, { headers, body: method === 'POST' ? {} : undefined });
        expectProblem(res, 401, 'unauthorized');
        expect({ label, detail: res.body.detail }).toEqual({ label, detail: expect.stringMatching(detail) });
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="registry-lookup"/);
      }
    }
    // The first key still works; the last active key cannot be revoked.
    const keys = await a.call('GET', '/api/v1/account/keys');
    const active = keys.body.data.filter((k: any) => !k.revokedAt);
    expect(active).toHaveLength(1);
    expectProblem(await a.call('DELETE', `/api/v1/account/keys/${active[0].id}`), 409, 'conflict');
  });

  it('keeps accounts apart: another account’s key is 404, never 403', async () => {
    const [a, b] = [await signUp(url()), await signUp(url())];
    const bKeys = await b.call('GET', '/api/v1/account/keys');
    expectProblem(await a.call('DELETE', `/api/v1/account/keys/${bKeys.body.data[0].id}`), 404, 'resource_not_found');
    expectProblem(await a.call('DELETE', '/api/v1/account/keys/not-an-id'), 404, 'resource_not_found');
    expect((await b.call('GET', '/api/v1/account')).status).toBe(200);
  });

  it('counts /api/v1 per account, not in the public per-IP limit', async () => {
    const a = await signUp(url());
    const before = Number((await fetch(`${url()}/api/public/v1/registers`)).headers.get('x-ratelimit-remaining'));
    const first = await a.call('GET', '/api/v1/account');
    const second = await a.call('GET', '/api/v1/account');
    expect(first.headers.get('x-ratelimit-limit')).toBe('1000');
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
      Number(first.headers.get('x-ratelimit-remaining')) - 1,
    );
    const after = Number((await fetch(`${url()}/api/public/v1/registers`)).headers.get('x-ratelimit-remaining'));
    expect(after).toBe(before - 1);
  });

  it('answers with Cache-Control: no-store (keys and secrets are shown once) and nosniff; public reads with nosniff', async () => {
    const created = await call(url(), 'POST', '/api/v1/accounts', { body: { email: 'cache@example.com' } });
    const key = created.body.apiKey as string;
    const answers = [
      created,
      await call(url(), 'POST', '/api/v1/account/keys', { key, body: {} }),
      await call(url(), 'GET', '/api/v1/account', { key }),
      await call(url(), 'GET', '/api/v1/account'),
      await call(url(), 'GET', '/api/v1/nowhere', { key }),
    ];
    for (const res of answers)
      expect([res.status, res.headers.get('cache-control'), res.headers.get('x-content-type-options')]).toEqual([
        res.status,
        'no-store',
        'nosniff',
      ]);
    for (const path of ['/api/public/v1/search?q=%3Cscript%3E&country=NO', '/api/public/v1/registers'])
      expect((await fetch(url() + path)).headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('is CORS-open with the key in a header, never with cookies', async () => {
    const res = await fetch(`${url()}/api/v1/webhook-endpoints`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://app.example.org',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization,content-type',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    const a = await signUp(url());
    const get = await fetch(`${url()}/api/v1/account`, {
      headers: { Origin: 'https://app.example.org', Authorization: `Bearer ${a.key}` },
    });
    expect(get.headers.get('access-control-allow-origin')).toBe('*');
    expect(get.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
  });

  it('files an access request, shows its state, and an operator approves or rejects it', async () => {
    const a = await signUp(url());
    const bad = await a.call('POST', '/api/v1/access-requests', {
      countries: ['SE', 'NO'],
      monthlyVolume: '1000',
      events: ['company.officers_changed', 'company.nope'],
      useCase: 'short',
      extra: 1,
    });
    expectProblem(bad, 400, 'invalid_body');
    const byField = Object.fromEntries(bad.body.errors.map((e: any) => [e.field, e]));
    expect(byField['countries[0]'].message).toContain(COUNTRY_CODES.join(', '));
    expect(byField.monthlyVolume.code).toBe('invalid_type');
    // Built since issue 27: asking for officer events is fine.
    expect(byField['events[0]']).toBeUndefined();
    expect(byField['events[1]']).toMatchObject({
      code: 'unknown_event',
      message: expect.stringMatching(/allowed: company.status_changed/),
    });
    expect(byField.useCase.code).toBe('out_of_range');
    expect(byField.extra.code).toBe('unknown_field');

    const filed = await a.call('POST', '/api/v1/access-requests', {
      countries: ['NO', 'GB', 'NO'],
      monthlyVolume: 5000,
      events: ['company.status_changed'],
      useCase: 'KYC refresh of our Norwegian suppliers.',
    });
    expect(filed.status).toBe(201);
    expect(filed.body).toMatchObject({
      id: expect.stringMatching(/^ar_/),
      state: 'pending',
      countries: ['NO', 'GB'],
      monthlyVolume: 5000,
      decidedAt: null,
    });
    expectProblem(
      await a.call('POST', '/api/v1/access-requests', {
        countries: ['NO'],
        monthlyVolume: 1,
        events: ['company.status_changed'],
        useCase: 'A second request meanwhile.',
      }),
      409,
      'conflict',
    );

    const admin = app.get(AccessRequestAdmin);
    const listed = await runAdminCommand(['access-requests', 'list'], admin);
    expect(listed.code).toBe(0);
    expect(listed.output).toContain(filed.body.id);
    expect(listed.output).toContain('KYC refresh');
    const approved = await runAdminCommand(['access-requests', 'approve', filed.body.id], admin);
    expect(approved).toMatchObject({ code: 0, output: expect.stringContaining(`approved ${filed.body.id}`) });
    expect(await runAdminCommand(['access-requests', 'approve', filed.body.id], admin)).toMatchObject({
      code: 1,
      output: expect.stringMatching(/already approved/),
    });
    expect((await a.call('GET', '/api/v1/access-requests')).body.data[0]).toMatchObject({
      state: 'approved',
      decidedAt: expect.any(String),
    });
    expect((await a.call('GET', '/api/v1/account')).body.liveDelivery).toMatchObject({
      enabled: true,
      since: expect.any(String),
    });
    expectProblem(
      await a.call('POST', '/api/v1/access-requests', {
        countries: ['NO'],
        monthlyVolume: 1,
        events: ['company.status_changed'],
        useCase: 'Already live, asking again.',
      }),
      409,
      'conflict',
    );

    const b = await signUp(url());
    const other = await b.call('POST', '/api/v1/access-requests', {
      countries: ['FR'],
      monthlyVolume: 10,
      events: ['register.unavailable'],
      useCase: 'Testing the rejection path.',
    });
    expect(await runAdminCommand(['access-requests', 'reject', other.body.id], admin)).toMatchObject({ code: 2 });
    // A flag without its value is a usage error, never its default or an empty reason.
    for (const args of [
      ['reject', other.body.id, '--reason'],
      ['reject', other.body.id, '--reason', '  '],
      ['list', '--state'],
      ['list', '--state', '--reason', 'x'],
    ])
      expect([args, await runAdminCommand(['access-requests', ...args], admin)]).toMatchObject([args, { code: 2 }]);
    expect(
      await runAdminCommand(
        ['access-requests', 'reject', other.body.id, '--reason', 'Volumes not stated clearly.'],
        admin,
      ),
    ).toMatchObject({ code: 0 });
    expect((await b.call('GET', '/api/v1/access-requests')).body.data[0]).toMatchObject({
      state: 'rejected',
      decisionReason: 'Volumes not stated clearly.',
    });
    expect((await b.call('GET', '/api/v1/account')).body.liveDelivery.enabled).toBe(false);
    expect(await runAdminCommand(['access-requests', 'approve', 'ar_nope'], admin)).toMatchObject({
      code: 1,
      output: 'no access request ar_nope',
    });
  });

  it('has an admin command with usage (its runs through the embedded service are in data-dir-lock.e2e-spec)', async () => {
    const usage = await runProcess('cli/admin.js', [], {});
    expect(usage).toMatchObject({ code: 2, output: expect.stringContaining('access-requests approve <id>') });
  });

  it('documents the bearer scheme on /api/v1 and no security on the open endpoints', async () => {
    const doc = (await (await fetch(`${url()}/api/public/v1/openapi.json`)).json()) as any;
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.paths['/api/v1/webhook-endpoints'].post.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/api/v1/simulator/events'].post.security).toEqual([{ apiKey: [] }]);
    expect(doc.paths['/api/v1/accounts'].post.security).toEqual([]);
    expect(doc.paths['/api/public/v1/search'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/webhook-endpoints'].post.requestBody.content['application/json'].schema).toMatchObject({
      required: ['url'],
      additionalProperties: false,
    });
  });

  it('refuses on every /api/v1 operation a query parameter its OpenAPI operation does not list', async () => {
    const doc = (await (await fetch(`${url()}/api/public/v1/openapi.json`)).json()) as any;
    const { key } = await signUp(url());
    const operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => [method.toUpperCase(), path] as const));
    expect(operations.length).toBeGreaterThan(20);
    const answers: Record<string, unknown> = {};
    for (const [method, path] of operations) {
      const concrete = path.replace(/\{[^}]+\}/g, 'x_0000000000000000000000');
      const res = await call(url(), method, `${concrete}?limit=1&bogus=2`, {
        key,
        ...(method === 'POST' || method === 'PATCH' ? { body: {} } : {}),
      });
      answers[`${method} ${path}`] = [res.status, res.body?.code, res.body?.errors?.map((e: any) => e.field)];
    }
    const listsLimit = new Set([
      'GET /api/v1/events',
      'GET /api/v1/watches',
      'GET /api/v1/webhook-endpoints/{endpointId}/deliveries',
    ]);
    for (const [operation, answer] of Object.entries(answers))
      expect([operation, answer]).toEqual([
        operation,
        [400, 'invalid_parameter', listsLimit.has(operation) ? ['bogus'] : ['limit', 'bogus']],
      ]);

    // Refused before it acts: a key deleted with a parameter the DELETE does not take is still valid.
    const keys = await call(url(), 'GET', '/api/v1/account/keys', { key });
    const refused = await call(url(), 'DELETE', `/api/v1/account/keys/${keys.body.data[0].id}?force=true`, { key });
    expectProblem(refused, 400, 'invalid_parameter');
    expect(refused.body.errors).toEqual([
      { field: 'force', code: 'unknown_parameter', message: 'not a parameter of this endpoint' },
    ]);
    expect((await call(url(), 'GET', '/api/v1/account', { key })).status).toBe(200);
  });

  it('refuses a URL that is not percent-encoded UTF-8, naming the parameter, before it acts', async () => {
    const { key } = await signUp(url());
    const since = await call(url(), 'GET', '/api/v1/events?since=2026-01-01T00%3A00%3A00Z%E2%82', { key });
    expectProblem(since, 400, 'invalid_parameter');
    expect(since.body.errors).toEqual([{ field: 'since', code: 'invalid_parameter', message: expect.any(String) }]);
    expect(since.body.detail).toMatch(/is not valid percent-encoded UTF-8/);
    const keys = await call(url(), 'GET', '/api/v1/account/keys', { key });
    const path = await call(url(), 'DELETE', `/api/v1/account/keys/${keys.body.data[0].id}%C0`, { key });
    expectProblem(path, 400, 'invalid_parameter');
    expect(path.body.errors[0].field).toBe('path');
    expect((await call(url(), 'GET', '/api/v1/account', { key })).status).toBe(200);
  });

  it('limits sign-ups per client IP, with truthful headers', async () => {
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 40; i++) {
      last = await call(url(), 'POST', '/api/v1/accounts', { body: { email: `n${i}@example.com` } });
      statuses.push(last.status);
      if (last.status === 429) break;
    }
    expect(statuses.at(-1)).toBe(429);
    expect(statuses.slice(0, -1).every((s) => s === 201)).toBe(true);
    expectProblem(last!, 429, 'rate_limited');
    expect(last!.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last!.headers.get('x-ratelimit-limit')).toBe('30');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(last!.body.detail).toMatch(/sign-ups from this address/);
  });
});
