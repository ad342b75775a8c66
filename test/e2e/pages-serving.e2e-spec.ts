import { get as httpGet, IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { COUNTRY_CODES, countryList } from '../../src/registers/registers';
import { PAGE_CSP } from '../../src/web/security-headers';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

/** How the pages are served: headers, assets, errors, and what they leave alone (/api, /docs, /health). */
describe('pages: serving', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  const get = (path: string, init?: RequestInit) => fetch(app.url + path, init);

  it.each(['/', '/status', '/simulator'])(
    'serves %s as HTML with the CSP and the other security headers',
    async (path) => {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      const html = await res.text();
      // Nothing inline, nothing from elsewhere: scripts and styles are files of this origin.
      expect(html).not.toMatch(/<script(?![^>]*\ssrc="\/assets\/)/);
      expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
      expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
      expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/styles\.css">/);
    },
  );

  it('sends what the client takes: gzip or br when asked, the bytes as they are when not', async () => {
    /** Status, Content-Encoding, Vary and the body as it came over the wire (node:http decodes nothing). */
    const raw = (path: string, encoding?: string) =>
      new Promise<{ status: number; encoding?: string; vary?: string; body: Buffer }>((resolve, reject) =>
        httpGet(`${app.url}${path}`, { headers: encoding ? { 'Accept-Encoding': encoding } : {} }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              encoding: res.headers['content-encoding'],
              vary: res.headers.vary,
              body: Buffer.concat(chunks),
            }),
          );
        }).on('error', reject),
      );
    for (const path of ['/docs/swagger-ui-bundle.js', '/api/public/v1/openapi.json', '/assets/simulator.js', '/']) {
      const plain = await raw(path);
      expect({ path, status: plain.status, encoding: plain.encoding }).toEqual({
        path,
        status: 200,
        encoding: undefined,
      });
      const gzip = await raw(path, 'gzip, deflate');
      expect({ path, encoding: gzip.encoding }).toEqual({ path, encoding: 'gzip' });
      expect(gzip.vary).toMatch(/Accept-Encoding/i);
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
      const br = await raw(path, 'br');
      expect(br.encoding).toBe('br');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      if (plain.body.length > 100_000) expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
    }
    // API answers from 16 KiB (the status answer); below, compressing costs the api more than it saves.
    const status = await raw('/api/public/v1/status', 'gzip');
    expect(status.encoding).toBe('gzip');
    expect(JSON.parse(gunzipSync(status.body).toString()).registers.length).toBeGreaterThan(5);
    for (const small of ['/api/public/v1/registers', '/api/public/v1/search?q=sesam&country=NO'])
      expect([small, (await raw(small, 'gzip')).encoding]).toEqual([small, undefined]);
    const tiny = await raw('/health/live', 'gzip');
    expect(tiny.encoding).toBeUndefined();
  });

  it('names every covered country, from the service’s own list', async () => {
    const all = countryList('and');
    for (const path of ['/', '/status', '/simulator']) {
      const html = await (await get(path)).text();
      expect(html).toContain(
        `<meta name="description" content="Open, keyless lookups in the official company registers of ${all},`,
      );
      expect(html).not.toContain('{{');
    }
    const search = await (await get('/')).text();
    const words = ['', '', '', '', '', '', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
    expect(search).toContain(`Search the company registers of ${words[COUNTRY_CODES.length]} countries`);
  });

  it('serves the bundles and the stylesheet with their types and the same headers', async () => {
    for (const [path, type] of [
      ['/assets/search.js', 'text/javascript; charset=utf-8'],
      ['/assets/status.js', 'text/javascript; charset=utf-8'],
      ['/assets/simulator.js', 'text/javascript; charset=utf-8'],
      ['/assets/styles.css', 'text/css; charset=utf-8'],
    ]) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe(type);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe(PAGE_CSP);
      expect((await res.text()).length).toBeGreaterThan(1000);
    }
  });

  it('answers an unchanged file with 304 (revalidated every time, never stale after a deploy)', async () => {
    const first = await get('/assets/search.js');
    expect(first.headers.get('cache-control')).toBe('no-cache');
    const etag = first.headers.get('etag')!;
    expect(etag).toBeTruthy();
    // node:http, not fetch: fetch turns a request with If-None-Match into Cache-Control: no-cache.
    const status = await new Promise<number | undefined>((resolve, reject) =>
      httpGet(`${app.url}/assets/search.js`, { headers: { 'If-None-Match': etag } }, (res) =>
        resolve(res.resume().statusCode),
      ).on('error', reject),
    );
    expect(status).toBe(304);
  });

  it('answers a range past the end with 416 and an unmet If-Match with 412, as problems (not 404)', async () => {
    // node:http, not fetch: the request goes out with exactly these headers.
    const raw = (path: string, headers: Record<string, string>) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: string }>((resolve, reject) =>
        httpGet(`${app.url}${path}`, { headers }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        }).on('error', reject),
      );
    const part = await raw('/assets/search.js', { Range: 'bytes=0-10' });
    expect(part.status).toBe(206);
    expect(part.body).toHaveLength(11);
    const size = Number(/^bytes 0-10\/(\d+)$/.exec(part.headers['content-range'] ?? '')?.[1]);
    expect(size).toBeGreaterThan(11);

    const past = await raw('/assets/search.js', { Range: `bytes=${size}-` });
    expect(past.status).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${size}`);
    expect(past.headers['content-type']).toContain('application/problem+json');
    expect(JSON.parse(past.body)).toMatchObject({ status: 416, code: 'range_not_satisfiable' });

    const etag = (await raw('/', {})).headers.etag!;
    expect((await raw('/', { 'If-Match': etag })).status).toBe(200);
    const unmet = await raw('/', { 'If-Match': '"not-this-version"' });
    expect(unmet.status).toBe(412);
    expect(JSON.parse(unmet.body)).toMatchObject({ status: 412, code: 'precondition_failed' });
  });

  it('answers unknown assets and other methods as the API does (problem+json 404, 405)', async () => {
    for (const path of ['/assets/nope.js', '/assets/..%2Fsearch.html', '/assets/.env', '/search.html', '/assets/']) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const post = await get('/', { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('counts nothing against the rate limit: pages and assets are not under /api/public/v1', async () => {
    const remaining = async () => Number((await get('/api/public/v1/registers')).headers.get('x-ratelimit-remaining'));
    const before = await remaining();
    for (const path of [
      '/',
      '/status',
      '/simulator',
      '/assets/search.js',
      '/assets/status.js',
      '/assets/simulator.js',
      '/assets/styles.css',
    ]) {
      const res = await get(path);
      expect(res.headers.get('x-ratelimit-remaining')).toBeNull();
    }
    expect(await remaining()).toBe(before - 1);
  });

  it('leaves the API, /docs and /health without the pages’ CSP', async () => {
    const docs = await get('/docs');
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-security-policy')).not.toBe(PAGE_CSP);
    // One document, built at boot: the pages' copy and the API's route are the same one.
    const rendered = (await (await get('/docs/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    const served = (await (await get('/api/public/v1/openapi.json')).json()) as {
      openapi: string;
      paths: Record<string, unknown>;
    };
    expect(rendered.openapi).toMatch(/^3\./);
    expect(Object.keys(rendered.paths)).toContain('/api/public/v1/registers');
    expect(served).toEqual(rendered);
    for (const path of ['/api/public/v1/registers', '/health/live']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toBeNull();
    }
  });
});
