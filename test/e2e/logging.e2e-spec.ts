import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeRegister } from '../support/fake-register';
import { startProcess, Started, waitForHttp } from '../support/processes';
import { MODE, unreachableRegisters } from '../support/test-app';

jest.setTimeout(60_000);

// The process as an operator runs it (dist/main.js, embedded): one run is enough for both suites.
const suite = MODE === 'embedded' ? describe : describe.skip;

suite('logs: structured JSON, a request id on every request line, no secret anywhere', () => {
  const API_KEY = 'sk-live-do-not-log-4242';
  const BEARER = 'caller-token-do-not-log';
  let dir: string;
  let fake: FakeRegister;
  let app: Started;
  const port = 3000 + Math.floor(Math.random() * 1000) + 20_000;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rl-logs-'));
    fake = await new FakeRegister().start();
    fake.get(/.*/, { status: 500, body: '{"error":"boom"}' });
    app = startProcess('main.js', [], {
      ...unreachableRegisters(),
      REGISTER_GB_API_URL: fake.url,
      REGISTER_GB_API_KEY: API_KEY,
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      PROBE_INTERVAL_SECONDS: '300',
    });
    await waitForHttp(`http://127.0.0.1:${port}/health/live`, app);
  });
  afterAll(async () => {
    await app?.stop();
    await fake?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs each request as one JSON line with its id, and never a credential', async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/public/v1/search?q=tesco&country=GB`, {
      headers: { Authorization: `Bearer ${BEARER}`, 'X-Request-Id': 'trace-abc-123', Cookie: `session=${BEARER}` },
    });
    expect(res.headers.get('x-request-id')).toBe('trace-abc-123');
    const body = (await res.json()) as { instance: string };
    expect(body.instance).toBe('urn:request:trace-abc-123');
    // The register was asked, with the key, and failed: there is something to log about it.
    expect(fake.requests.some((r) => (r.headers.authorization ?? '').startsWith('Basic '))).toBe(true);
    await new Promise((r) => setTimeout(r, 500));

    const lines = app
      .output()
      .split('\n')
      .filter((l) => l.trim());
    const parsed = lines.map((l) => JSON.parse(l) as Record<string, any>);
    const request = parsed.find((l) => l.req?.id === 'trace-abc-123' && l.res);
    expect(request).toMatchObject({
      req: { method: 'GET', path: '/api/public/v1/search' },
      res: { statusCode: res.status },
    });
    expect(typeof request!.responseTime).toBe('number');
    // The warning logged while serving it carries the same request id.
    expect(parsed.some((l) => /GB live read failed/.test(l.msg ?? '') && l.req?.id === 'trace-abc-123')).toBe(true);
    const all = app.output();
    for (const secret of [API_KEY, BEARER, Buffer.from(`${API_KEY}:`).toString('base64')])
      expect(all).not.toContain(secret);
  });
});
