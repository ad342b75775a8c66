import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from '../support/event-side';
import { startProcess, Started, waitForHttp } from '../support/processes';
import { MODE, unreachableRegisters } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(90_000);

// The process as an operator runs it (dist/main.js, embedded), logging everything down to debug.
const suite = MODE === 'embedded' ? describe : describe.skip;

suite('logs of the event side: no API key and no webhook secret, ever', () => {
  let dir: string;
  let app: Started;
  let receiver: WebhookReceiver;
  const port = 20_000 + Math.floor(Math.random() * 10_000);
  const base = `http://127.0.0.1:${port}`;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rl-event-logs-'));
    receiver = await new WebhookReceiver().start();
    app = startProcess('main.js', [], {
      ...unreachableRegisters(),
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'debug',
      PROBE_INTERVAL_SECONDS: '300',
      WEBHOOK_TARGET_ALLOWLIST: '127.0.0.1/32',
      WEBHOOK_RETRY_SCHEDULE: '1s',
      DELIVERY_SWEEP_INTERVAL_MS: '500',
    });
    await waitForHttp(`${base}/health/live`, app, 60_000);
  });
  afterAll(async () => {
    await app?.stop();
    await receiver?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps keys and secrets out of every log line, through sign-up, keys, endpoints, rotation, deliveries and errors', async () => {
    const secrets: string[] = [];
    const signup = await call(base, 'POST', '/api/v1/accounts', { body: { email: 'logs@example.com' } });
    const key: string = signup.body.apiKey;
    secrets.push(key);
    const extra = await call(base, 'POST', '/api/v1/account/keys', { key, body: { name: 'second' } });
    secrets.push(extra.body.apiKey);
    await call(base, 'DELETE', `/api/v1/account/keys/${extra.body.key.id}`, { key });
    expect((await call(base, 'GET', '/api/v1/account', { key: extra.body.apiKey })).status).toBe(401);
    expect((await call(base, 'GET', '/api/v1/account', { headers: { authorization: `Bearer ${key}x` } })).status).toBe(
      401,
    );
    // A key sent where it does not belong: in a body field and a query string.
    expect((await call(base, 'POST', '/api/v1/accounts', { body: { email: key } })).status).toBe(400);
    expect((await call(base, 'GET', `/api/v1/events?apiKey=${key}`, { key })).status).toBe(400);

    const ep = await call(base, 'POST', '/api/v1/webhook-endpoints', { key, body: { url: `${receiver.url}/hook` } });
    secrets.push(ep.body.secret);
    const rotated = await call(base, 'POST', `/api/v1/webhook-endpoints/${ep.body.id}/rotate-secret`, { key });
    secrets.push(rotated.body.secret);
    receiver.secrets = [rotated.body.secret];
    receiver.answerInTurn([{ status: 500, body: 'nope' }]);
    const sent = await call(base, 'POST', '/api/v1/simulator/events', {
      key,
      body: { event: 'company.name_changed', endpointId: ep.body.id },
    });
    expect(sent.body.state).toBe('pending');
    await receiver.waitFor((r) => r.length === 2);
    expect(receiver.requests.every((r) => r.verified === true)).toBe(true);
    await new Promise((r) => setTimeout(r, 500));

    const output = app.output();
    expect(output).toMatch(/"req":\{"id":"[^"]+","method":"POST","path":"\/api\/v1\/simulator\/events"\}/);
    expect(output).toMatch(/delivery dlv_\w+ attempt 2/); // debug lines of the deliveries are there…
    for (const s of secrets) {
      // …but not the key or secret, whole or as their random part, nor the stored key hash.
      const random = s.startsWith('whsec_') ? s.slice(6) : s.slice(3);
      expect(output).not.toContain(random);
      expect(output).not.toContain(random.slice(0, 20));
      expect(output).not.toContain(createHash('sha256').update(s).digest('hex'));
    }
  });
});
