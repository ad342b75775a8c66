import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FakeRegister } from '../support/fake-register';
import { importSample } from '../support/datasets';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(60_000);

const packageVersion = (
  JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version: string }
).version;

/**
 * The links the service gives out name an address somebody listens on: without PUBLIC_BASE_URL,
 * the one each request was made to (the audit found http://localhost:3000 on every port).
 */
describe('the public address', () => {
  const fake = new FakeRegister();
  beforeAll(() => fake.start());
  afterAll(() => fake.stop());

  describe('without PUBLIC_BASE_URL', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({ env: { REGISTER_NO_API_URL: fake.url } });
      await importSample(app, 'NO');
    });
    afterAll(() => app?.close());

    it('serves an OpenAPI document whose server is relative, so /docs tries requests where it was loaded', async () => {
      const document = (await (await fetch(`${app.url}/api/public/v1/openapi.json`)).json()) as {
        servers: Array<{ url: string }>;
      };
      expect(document.servers).toEqual([{ url: '/' }]);
      const docs = await fetch(`${app.url}/docs`);
      expect(docs.status).toBe(200);
    });

    it('attributes results to the address the request was made to', async () => {
      fake.reset();
      fake.on('GET', () => true, { status: 503, body: 'down' });
      const res = await fetch(`${app.url}/api/public/v1/search?q=sesam&country=NO`);
      const body = (await res.json()) as { attribution: string };
      expect(res.status).toBe(200);
      expect(body.attribution).toContain(`provided by Registry Lookup (${app.url}/)`);
      expect(body.attribution).not.toContain('localhost:3000');
    });

    it('names no address in the User-Agent of its register reads', async () => {
      fake.reset();
      fake.on('GET', () => true, { status: 503, body: 'down' });
      await fetch(`${app.url}/api/public/v1/search?q=equinor&country=NO`);
      const agents = new Set(fake.requests.map((r) => r.headers['user-agent']));
      expect([...agents]).toEqual([`RegistryLookup/${packageVersion}`]);
    });
  });

  describe('with PUBLIC_BASE_URL', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp({
        env: { REGISTER_NO_API_URL: fake.url, PUBLIC_BASE_URL: 'https://registry.example.org/' },
      });
      await importSample(app, 'NO');
    });
    afterAll(() => app?.close());

    it('uses it for the document, the attribution and the User-Agent', async () => {
      fake.reset();
      fake.on('GET', () => true, { status: 503, body: 'down' });
      const document = (await (await fetch(`${app.url}/api/public/v1/openapi.json`)).json()) as {
        servers: Array<{ url: string }>;
      };
      expect(document.servers).toEqual([{ url: 'https://registry.example.org' }]);
      const body = (await (await fetch(`${app.url}/api/public/v1/search?q=sesam&country=NO`)).json()) as {
        attribution: string;
      };
      expect(body.attribution).toContain('provided by Registry Lookup (https://registry.example.org/)');
      expect(fake.requests[0]?.headers['user-agent']).toBe(
        `RegistryLookup/${packageVersion} (+https://registry.example.org)`,
      );
    });
  });
});
