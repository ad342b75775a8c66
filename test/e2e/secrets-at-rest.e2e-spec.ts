import { DataSource } from 'typeorm';
import { signUp } from '../support/event-side';
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
    app = await startTestApp({ realClock: true, env: { WEBHOOK_TARGET_ALLOWLIST: '127.0.0.0/8' } });
  });
  afterAll(async () => {
    await app?.close();
    await receiver.stop();
  });

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
});
