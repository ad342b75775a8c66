import { DnsResolver, ResolvedAddress } from '../../src/events/webhooks/outbound/dns-resolver';
import { Customer, signUp } from '../support/event-side';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(90_000);

/** Names the app resolves in this spec (no test reaches a real DNS server). */
class TestDns extends DnsResolver {
  override async resolve(host: string): Promise<ResolvedAddress[]> {
    const table: Record<string, string[]> = {
      'hooks.example.test': ['93.184.215.14'],
      'internal.example.test': ['10.20.30.40'],
      'metadata.example.test': ['169.254.169.254'],
      'sneaky.example.test': ['93.184.215.14', '127.0.0.9'],
      'v6only.example.test': ['fd00::5'],
    };
    const found = table[host];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return found.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  }
}

describe('webhook endpoints (/api/v1/webhook-endpoints)', () => {
  let app: TestApp;
  let a: Customer;
  let b: Customer;
  beforeAll(async () => {
    app = await startTestApp({
      env: { WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32' },
      overrides: [{ provide: DnsResolver, useValue: new TestDns() }],
    });
    [a, b] = [await signUp(app.url), await signUp(app.url)];
  });
  afterAll(() => app?.close());

  it('creates an endpoint with every kind but no_change by default, and a whsec_ secret shown once', async () => {
    const res = await a.call('POST', '/api/v1/webhook-endpoints', {
      url: 'https://hooks.example.test/registry',
      description: 'prod',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^we_[0-9A-Za-z]{22}$/),
      url: 'https://hooks.example.test/registry',
      description: 'prod',
      events: [
        'company.status_changed',
        'company.name_changed',
        'company.address_changed',
        'company.legal_form_changed',
        'company.officers_changed',
        'company.filing_published',
        'register.unavailable',
        'register.available',
      ],
      enabled: true,
      disabledAt: null,
      disabledReason: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const read = await a.call('GET', `/api/v1/webhook-endpoints/${res.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body.secret).toBeUndefined();
    expect(read.text).not.toContain(res.body.secret.slice(6));
    const list = await a.call('GET', '/api/v1/webhook-endpoints');
    expect(list.body.data.map((e: any) => e.id)).toContain(res.body.id);
    expect(list.text).not.toContain(res.body.secret.slice(6));
  });

  it('updates the URL, events, description and enabled flag; deletes', async () => {
    const { body: ep } = await a.call('POST', '/api/v1/webhook-endpoints', {
      url: 'http://127.0.0.1:9/x',
      events: ['company.no_change', 'company.no_change'],
    });
    expect(ep.events).toEqual(['company.no_change']);
    const patched = await a.call('PATCH', `/api/v1/webhook-endpoints/${ep.id}`, {
      url: 'https://hooks.example.test:8443/y',
      events: ['register.unavailable'],
      description: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      url: 'https://hooks.example.test:8443/y',
      events: ['register.unavailable'],
      description: null,
      enabled: true,
    });
    const off = await a.call('PATCH', `/api/v1/webhook-endpoints/${ep.id}`, { enabled: false });
    expect(off.body).toMatchObject({
      enabled: false,
      disabledAt: expect.any(String),
      disabledReason: 'Disabled through the API.',
    });
    const on = await a.call('PATCH', `/api/v1/webhook-endpoints/${ep.id}`, { enabled: true });
    expect(on.body).toMatchObject({ enabled: true, disabledAt: null, disabledReason: null });
    expect((await a.call('PATCH', `/api/v1/webhook-endpoints/${ep.id}`, {})).status).toBe(400);
    expect((await a.call('DELETE', `/api/v1/webhook-endpoints/${ep.id}`)).status).toBe(204);
    expect((await a.call('GET', `/api/v1/webhook-endpoints/${ep.id}`)).status).toBe(404);
    expect((await a.call('DELETE', `/api/v1/webhook-endpoints/${ep.id}`)).status).toBe(404);
  });

  it('rotates the secret: a new one, and until when the previous one still signs', async () => {
    const { body: ep } = await a.call('POST', '/api/v1/webhook-endpoints', { url: 'https://hooks.example.test/r' });
    const rotated = await a.call('POST', `/api/v1/webhook-endpoints/${ep.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(ep.secret);
    const overlap =
      new Date(rotated.body.previousSecretExpiresAt).getTime() - new Date(rotated.body.updatedAt).getTime();
    expect(overlap).toBe(24 * 3_600_000);
    // It takes no fields: one sent (an overlap of the client's choosing, say) is refused, not ignored.
    const asked = await a.call('POST', `/api/v1/webhook-endpoints/${ep.id}/rotate-secret`, { overlapSeconds: 60 });
    expect(asked).toMatchObject({ status: 400, body: { code: 'invalid_body', errors: [{ field: 'overlapSeconds' }] } });
    expect((await a.call('POST', `/api/v1/webhook-endpoints/${ep.id}/rotate-secret`, {})).status).toBe(200);
  });

  it('refuses an unknown event kind listing the allowed ones; the officer and filing kinds are built', async () => {
    const res = await a.call('POST', '/api/v1/webhook-endpoints', {
      url: 'https://hooks.example.test/',
      events: ['company.name_changed', 'company.deleted', 'company.filing_published', 7],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_body');
    expect(res.body.errors).toEqual([
      {
        field: 'events[1]',
        code: 'unknown_event',
        message: expect.stringContaining(
          'allowed: company.status_changed, company.name_changed, company.address_changed, company.legal_form_changed, company.officers_changed, company.filing_published, company.no_change, register.unavailable, register.available',
        ),
      },
      { field: 'events[3]', code: 'invalid_type', message: expect.any(String) },
    ]);
    const { body: ep } = await a.call('POST', '/api/v1/webhook-endpoints', { url: 'https://hooks.example.test/k' });
    expect(ep.events).toEqual(
      expect.arrayContaining(['company.officers_changed', 'company.filing_published', 'register.available']),
    );
    expect(ep.events).not.toContain('company.no_change');
    const officers = await a.call('PATCH', `/api/v1/webhook-endpoints/${ep.id}`, {
      events: ['company.officers_changed'],
    });
    expect(officers.status).toBe(200);
    expect(officers.body.events).toEqual(['company.officers_changed']);
  });

  it.each([
    ['http://10.0.0.1/hook', /10.0.0.1 is a private address/],
    ['http://0x0a.0.0.1/', /10.0.0.1 is a private address/],
    ['http://169.254.169.254/latest/meta-data/', /169.254.169.254 is a link-local address/],
    ['http://2130706433:8080/', /127.0.0.1/], // decimal 127.0.0.1 — allowlisted; port irrelevant
    ['http://127.0.0.2/', /127.0.0.2 is a loopback address/],
    ['http://[::1]/', /::1 is a loopback address/],
    ['http://[::ffff:192.168.1.1]/', /private/],
    ['http://100.64.1.1/', /carrier-grade NAT/],
    ['http://[fd00::1]/', /unique local/],
    ['http://224.0.0.251/', /multicast/],
    ['http://0.0.0.0/', /unspecified/],
    ['http://192.0.2.10/', /reserved/],
    ['http://internal.example.test/', /resolves to 10.20.30.40, a private address/],
    ['http://metadata.example.test./', /resolves to 169.254.169.254/],
    ['http://sneaky.example.test/', /resolves to 127.0.0.9, a loopback address/],
    ['https://v6only.example.test/', /resolves to fd00::5/],
    ['http://user:secret@hooks.example.test/', /credentials/],
    ['http://hooks.example.test@10.0.0.1/', /credentials/],
    ['ftp://hooks.example.test/', /only http and https/],
    ['file:///etc/passwd', /only http and https/],
  ])('refuses %s: 422 target_not_allowed (or allowlisted)', async (url, why) => {
    const res = await a.call('POST', '/api/v1/webhook-endpoints', { url });
    if (url.startsWith('http://2130706433')) {
      // 127.0.0.1 is what WEBHOOK_TARGET_ALLOWLIST lets through in this app: allowed, stored normalised.
      expect(res.status).toBe(201);
      expect(res.body.url).toBe('http://127.0.0.1:8080/');
      return;
    }
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: 'target_not_allowed',
      errors: [{ field: 'url', code: 'target_not_allowed', message: expect.stringMatching(why) }],
    });
    // The same on update.
    const { body: ep } = await a.call('POST', '/api/v1/webhook-endpoints', { url: 'https://hooks.example.test/ok' });
    const patched = await a.call('PATCH', `/api/v1/webhook-endpoints/${ep.id}`, { url });
    expect(patched.status).toBe(422);
    await a.call('DELETE', `/api/v1/webhook-endpoints/${ep.id}`);
  });

  it.each([
    [{ url: 'not a url' }, 'url', 'invalid_url'],
    [{ url: 'https://exa mple.com/' }, 'url', 'invalid_url'],
    [{ url: 'https://hooks.example.test/in#fragment' }, 'url', 'invalid_url'],
    [{ url: 'https://hooks.example.test:65536/' }, 'url', 'invalid_url'],
    [{ url: 'https://hooks.example.test:0/' }, 'url', 'invalid_url'],
    [{ url: `https://hooks.example.test/${'a'.repeat(2100)}` }, 'url', 'out_of_range'],
    [{ url: 42 }, 'url', 'invalid_type'],
    [{}, 'url', 'invalid_type'],
    [{ url: 'https://hooks.example.test/', events: 'company.name_changed' }, 'events', 'invalid_type'],
    [{ url: 'https://hooks.example.test/', events: [] }, 'events', 'out_of_range'],
    [{ url: 'https://hooks.example.test/', description: 'x'.repeat(501) }, 'description', 'out_of_range'],
    [{ url: 'https://hooks.example.test/', secret: 'whsec_mine' }, 'secret', 'unknown_field'],
  ])('refuses %j: 400 naming %s', async (body, field, code) => {
    const res = await a.call('POST', '/api/v1/webhook-endpoints', body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_body');
    expect(res.body.errors).toEqual(expect.arrayContaining([expect.objectContaining({ field, code })]));
  });

  it('answers 404 for another account’s endpoint on every route, never 403', async () => {
    const { body: ep } = await b.call('POST', '/api/v1/webhook-endpoints', { url: 'https://hooks.example.test/b' });
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/v1/webhook-endpoints/${ep.id}`],
      ['PATCH', `/api/v1/webhook-endpoints/${ep.id}`, { enabled: false }],
      ['DELETE', `/api/v1/webhook-endpoints/${ep.id}`],
      ['POST', `/api/v1/webhook-endpoints/${ep.id}/rotate-secret`],
      ['GET', `/api/v1/webhook-endpoints/${ep.id}/deliveries`],
      ['POST', `/api/v1/webhook-endpoints/${ep.id}/replay`, { since: '2026-01-01T00:00:00Z' }],
      ['POST', '/api/v1/simulator/events', { event: 'company.name_changed', endpointId: ep.id }],
      ['GET', '/api/v1/webhook-endpoints/we_%00'],
    ];
    for (const [method, path, body] of routes) {
      const res = await a.call(method, path, body);
      expect({ method, path, status: res.status, code: res.body?.code }).toEqual({
        method,
        path,
        status: 404,
        code: 'resource_not_found',
      });
    }
    // Untouched.
    expect((await b.call('GET', `/api/v1/webhook-endpoints/${ep.id}`)).body).toMatchObject({ enabled: true });
  });

  it('allows at most 20 endpoints per account', async () => {
    const c = await signUp(app.url);
    for (let i = 0; i < 20; i++)
      expect(
        (await c.call('POST', '/api/v1/webhook-endpoints', { url: `https://hooks.example.test/${i}` })).status,
      ).toBe(201);
    const over = await c.call('POST', '/api/v1/webhook-endpoints', { url: 'https://hooks.example.test/21' });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('conflict');
  });
});
