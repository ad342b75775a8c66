import { DataSource } from 'typeorm';
import { EventPublisher } from '../../src/events/webhooks/events/event-publisher.service';
import { eventually, signUp } from '../support/event-side';
import { startTestApp, TestApp } from '../support/test-app';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(60_000);

/** Every row of every table of the database as text: what a dump of it would hold. */
async function dumpText(dataSource: DataSource): Promise<string> {
  const tables: Array<{ name: string }> = await dataSource.query(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`,
  );
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows: Array<{ row: string }> = await dataSource.query(`SELECT row_to_json(t)::text AS row FROM "${name}" t`);
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join('\n');
}

/** Webhook signing secrets are sealed at rest (AES-256-GCM), and still sign every delivery. */
describe('webhook signing secrets at rest', () => {
  let app: TestApp;
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
    app = await startTestApp({
      realClock: true,
      env: {
        WEBHOOK_TARGET_ALLOWLIST: '127.0.0.0/8',
        WEBHOOK_RETRY_SCHEDULE: '1s,1s,1s,1s',
        DELIVERY_SWEEP_INTERVAL_MS: '500',
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await receiver.stop();
    await unopened.stop();
  });
  const unopened = new WebhookReceiver();

  it('keeps no secret in clear in the database, and deliveries still verify', async () => {
    const customer = await signUp(app.url);
    const created = await customer.call('POST', '/api/v1/webhook-endpoints', { url: receiver.url });
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const rotated = await customer.call('POST', `/api/v1/webhook-endpoints/${created.body.id}/rotate-secret`);
    const newSecret = rotated.body.secret as string;
    receiver.secrets.push(newSecret);

    const dump = await dumpText(app.get(DataSource));
    for (const s of [secret, newSecret]) {
      expect(dump).not.toContain(s);
      expect(dump).not.toContain(s.slice('whsec_'.length));
    }
    expect(dump).toMatch(/"secret":"enc:v1:[0-9a-f]{8}:/);

    const sent = await customer.call('POST', '/api/v1/simulator/events', {
      event: 'company.status_changed',
      endpointId: created.body.id,
      country: 'NO',
    });
    expect(sent.status).toBe(201);
    await receiver.waitFor((r) => r.length >= 1);
    expect(receiver.requests[0].verified).toBe(true);
  });

  it('an endpoint whose secret no configured key opens: its attempts are not sent, the others are delivered', async () => {
    await unopened.start();
    const customer = await signUp(app.url);
    const healthy = await customer.call('POST', '/api/v1/webhook-endpoints', { url: `${receiver.url}/healthy` });
    receiver.secrets.push(healthy.body.secret as string);
    const broken = await customer.call('POST', '/api/v1/webhook-endpoints', { url: unopened.url });
    unopened.secrets = [broken.body.secret as string];
    // Sealed with a key this process does not hold, as after an old key is dropped too early.
    const dataSource = app.get(DataSource);
    const [{ secret: sealed }] = await dataSource.query(`SELECT secret FROM webhook_endpoint WHERE id = $1`, [
      broken.body.id,
    ]);
    const foreign = (sealed as string).replace(/^enc:v1:[0-9a-f]{8}:/, 'enc:v1:0badc0de:');
    expect(foreign).not.toBe(sealed);
    await dataSource.query(`UPDATE webhook_endpoint SET secret = $2 WHERE id = $1`, [broken.body.id, foreign]);

    // Each event goes to both endpoints, claimed together.
    const before = receiver.requests.length;
    for (let i = 0; i < 3; i++)
      await app.get(EventPublisher).publishAndWake({
        accountId: customer.accountId,
        kind: 'company.name_changed',
        isTest: true,
        data: { n: i } as never,
      });
    await receiver.waitFor((r) => r.length >= before + 3, 10_000);
    expect(receiver.requests.slice(before).every((r) => r.verified && r.url.endsWith('/healthy'))).toBe(true);

    const failed = await eventually(
      async () =>
        (await customer.call('GET', `/api/v1/webhook-endpoints/${broken.body.id}/deliveries`)).body.data as Array<{
          id: string;
          attemptCount: number;
        }>,
      (list) => list.length === 3 && list.every((d) => d.attemptCount >= 1),
    );
    expect(unopened.requests).toHaveLength(0);
    const detail = (
      await customer.call('GET', `/api/v1/webhook-endpoints/${broken.body.id}/deliveries/${failed[0].id}`)
    ).body;
    expect(detail.state).toBe('pending');
    expect(detail.attempts[0]).toMatchObject({
      errorClass: 'signing_unavailable',
      errorMessage: expect.stringContaining('not sent'),
      responseStatus: null,
      request: { url: `${unopened.url}/`, headers: null },
    });
    // The customer is not told the service's key configuration.
    expect(JSON.stringify(detail)).not.toContain('WEBHOOK_SECRETS');
    // Nothing was sent, so nothing failed on the customer's side: the endpoint's run of
    // failures is not started, its circuit stays closed, and it can never be disabled for this.
    const [endpoint] = await dataSource.query(
      `SELECT enabled, failing_since, circuit_failures, circuit_opened FROM webhook_endpoint WHERE id = $1`,
      [broken.body.id],
    );
    expect(endpoint).toEqual({ enabled: true, failing_since: null, circuit_failures: 0, circuit_opened: 0 });

    // The key is back: the next attempts are sent, signed with the endpoint's own secret.
    await dataSource.query(`UPDATE webhook_endpoint SET secret = $2 WHERE id = $1`, [broken.body.id, sealed]);
    await unopened.waitFor((r) => r.length >= 3, 30_000);
    expect(unopened.requests.every((r) => r.verified)).toBe(true);
  });
});
