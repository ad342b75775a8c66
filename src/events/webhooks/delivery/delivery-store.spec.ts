import { testSecretBox } from '../../../../test/support/secrets';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { testPublisher } from '../../../../test/support/publisher';
import { createTestDataSource, TestBackend } from '../../../../test/support/database';
import type { AppConfig } from '../../../platform/config/app-config';
import { randomId } from '../../../platform/ids';
import { EventPublisher } from '../events/event-publisher.service';
import { newWebhookSecret } from '../signing/standard-webhooks';
import { ClaimedDelivery, DeliveryStore } from './delivery-store';

const BACKENDS: TestBackend[] = process.env.DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
jest.setTimeout(60_000);

function change(i: number) {
  const now = new Date().toISOString();
  return {
    entity_id: `ent_no_${900000000 + i}`,
    country: 'NO' as const,
    company_name: `STORE TEST ${i} AS`,
    registration_number: String(900000000 + i),
    register: { name: 'Enhetsregisteret', official_url: 'https://www.brreg.no' },
    change: { field: 'name', previous: `OLD ${i} AS`, current: `STORE TEST ${i} AS`, observed_at: now },
    provenance: {
      source_mode: 'live' as const,
      source_url: `https://virksomhet.brreg.no/nb/oppslag/enheter/${900000000 + i}`,
      retrieved_at: now,
    },
  };
}

/** Headers the way the deliverer signs them, enough to see them logged. */
const prepare = (c: Omit<ClaimedDelivery, 'headers'>) => ({
  'webhook-id': c.messageId,
  'webhook-timestamp': String(Math.floor(c.startedAt.getTime() / 1000)),
});

describe.each(BACKENDS)('DeliveryStore claims on %s', (backend) => {
  let dataSource: DataSource;
  let config: AppConfig;
  let close: () => Promise<void>;
  let store: DeliveryStore;
  let publisher: EventPublisher;
  let endpoints: string[];
  const accountId = randomId('acct');

  beforeAll(async () => {
    ({ dataSource, config, close } = await createTestDataSource(backend));
    store = new DeliveryStore(dataSource, config, testSecretBox());
    publisher = testPublisher(dataSource, config);
    await dataSource.query(
      `INSERT INTO account (id, email, created_at, live_delivery_since) VALUES ($1, 'store@example.com', now(), now())`,
      [accountId],
    );
    endpoints = [];
    for (let i = 0; i < 3; i++) {
      const id = randomId('we');
      endpoints.push(id);
      await dataSource.query(
        `INSERT INTO webhook_endpoint (id, account_id, url, events, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, now(), now())`,
        [id, accountId, `http://127.0.0.1:9/hook/${i}`, ['company.name_changed'], newWebhookSecret()],
      );
    }
    // Six events, each a delivery to each of the three endpoints.
    for (let i = 0; i < 6; i++)
      await dataSource.transaction((m) =>
        publisher.publish(m, { accountId, kind: 'company.name_changed', isTest: false, data: change(i) }),
      );
  });

  afterAll(() => close());

  /** A new endpoint of the account with `n` due deliveries (events numbered from `from`), oldest first. */
  async function endpointWithDeliveries(n: number, from: number): Promise<{ endpointId: string; due: string[] }> {
    const endpointId = randomId('we');
    await dataSource.query(
      `INSERT INTO webhook_endpoint (id, account_id, url, events, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, now(), now())`,
      [endpointId, accountId, `http://127.0.0.1:9/hook/${from}`, ['company.name_changed'], newWebhookSecret()],
    );
    for (let i = 0; i < n; i++)
      await dataSource.transaction((m) =>
        publisher.publish(m, {
          accountId,
          kind: 'company.name_changed',
          isTest: false,
          data: change(from + i),
          endpointIds: [endpointId],
        }),
      );
    const due: string[] = (
      await dataSource.query(`SELECT id FROM delivery WHERE endpoint_id = $1 ORDER BY next_attempt_at, id`, [
        endpointId,
      ])
    ).map((r: { id: string }) => r.id);
    return { endpointId, due };
  }

  it('claims for several endpoints at once: the oldest due, never more than an endpoint’s free slots, each attempt logged as started', async () => {
    const limit = config.webhooks.endpointConcurrency;
    const now = new Date();
    // Asked in the same turn: one batch.
    const [a, b] = await Promise.all([
      store.claim({ endpointId: endpoints[0], max: limit }, now, prepare),
      store.claim({ endpointId: endpoints[1], max: 2 }, now, prepare),
    ]);
    expect(a).toHaveLength(limit);
    expect(b).toHaveLength(2);
    const oldest = async (endpointId: string, n: number) =>
      (
        await dataSource.query(`SELECT id FROM delivery WHERE endpoint_id = $1 ORDER BY next_attempt_at, id LIMIT $2`, [
          endpointId,
          n,
        ])
      ).map((r: { id: string }) => r.id);
    expect(a.map((c) => c.deliveryId)).toEqual(await oldest(endpoints[0], limit));
    expect(b.map((c) => c.deliveryId)).toEqual(await oldest(endpoints[1], 2));
    expect([...a, ...b].every((c) => c.attempt === 1)).toBe(true);

    // Signed with the claim's time; in the log as started, the headers to come with the outcome.
    for (const c of [...a, ...b]) expect(c.headers['webhook-id']).toBe(c.messageId);
    const logged: Array<{
      delivery_id: string;
      url: string;
      request_headers: string | null;
      finished_at: Date | null;
    }> = await dataSource.query(
      `SELECT delivery_id, url, request_headers, finished_at FROM delivery_attempt WHERE delivery_id = ANY($1) AND attempt_number = 1`,
      [[...a, ...b].map((c) => c.deliveryId)],
    );
    expect(logged).toHaveLength(limit + 2);
    expect(logged.every((l) => l.request_headers === null && l.finished_at === null)).toBe(true);
    expect(logged.find((l) => l.delivery_id === a[0].deliveryId)!.url).toBe('http://127.0.0.1:9/hook/0');

    // The first endpoint is at its limit; the second has slots left for two more.
    expect(await store.claim({ endpointId: endpoints[0], max: limit }, now, prepare)).toEqual([]);
    expect(await store.claim({ endpointId: endpoints[1], max: limit }, now, prepare)).toHaveLength(limit - 2);
  });

  it('frees an endpoint’s slot when this process’s request is answered, before its outcome is written; the answered delivery stays leased', async () => {
    // The second endpoint is at its limit after the first test, with two deliveries still due.
    const endpointId = endpoints[1];
    const now = new Date();
    expect(await store.claim({ endpointId, max: 4 }, now, prepare)).toEqual([]);
    const [leased] = await dataSource.query(
      `SELECT id FROM delivery WHERE endpoint_id = $1 AND locked_until > now() ORDER BY id LIMIT 1`,
      [endpointId],
    );
    const done = store.answeredAttempt(leased.id, endpointId);
    const next = await store.claim({ endpointId, max: 4 }, now, prepare);
    expect(next).toHaveLength(1);
    expect(next[0].deliveryId).not.toBe(leased.id);
    // Until its outcome is written it counts again once the mark is gone: the endpoint is full.
    done();
    expect(await store.claim({ endpointId, max: 4 }, now, prepare)).toEqual([]);
  });

  it('claims an endpoint’s oldest due deliveries in one round trip, whatever another worker took meanwhile', async () => {
    const { endpointId, due } = await endpointWithDeliveries(8, 200);
    // Statements this store sends, whichever way the engine runs them.
    let statements = 0;
    const master = (dataSource.driver as unknown as { master: { query: (...a: unknown[]) => unknown } }).master;
    const query = dataSource.query.bind(dataSource);
    jest
      .spyOn(dataSource, 'query')
      .mockImplementation(
        ((sql: string, params?: unknown[]) => (statements++, query(sql, params))) as typeof dataSource.query,
      );
    if (backend === 'postgres') {
      const q = master.query.bind(master);
      jest.spyOn(master, 'query').mockImplementation((...args: unknown[]) => (statements++, q(...args)));
    }
    try {
      const worker = new DeliveryStore(dataSource, config, testSecretBox());
      const now = new Date();
      const first = await store.claim({ endpointId, max: 2 }, now, prepare);
      expect(first.map((c) => c.deliveryId)).toEqual(due.slice(0, 2));
      expect(statements).toBe(1);
      // Another worker takes the next one meanwhile; this one's next claim gets the oldest still due.
      const other = await worker.claim({ endpointId, max: 1 }, now, prepare);
      expect(other.map((c) => c.deliveryId)).toEqual([due[2]]);
      await dataSource.query(`UPDATE delivery SET state = 'succeeded', next_attempt_at = NULL WHERE id = ANY($1)`, [
        due.slice(3, 5),
      ]);
      statements = 0;
      const next = await store.claim({ endpointId, max: 1 }, now, prepare);
      expect(next.map((c) => c.deliveryId)).toEqual([due[5]]);
      expect(statements).toBe(1);
    } finally {
      jest.restoreAllMocks();
    }
  });

  it('claims one named delivery, once', async () => {
    const [row] = await dataSource.query(
      `SELECT id FROM delivery WHERE endpoint_id = $1 ORDER BY next_attempt_at, id LIMIT 1`,
      [endpoints[2]],
    );
    const now = new Date();
    const [first, second] = await Promise.all([
      store.claim({ deliveryId: row.id }, now, prepare),
      store.claim({ deliveryId: row.id }, now, prepare),
    ]);
    expect([first.length, second.length].sort()).toEqual([0, 1]);
  });

  it('holds an endpoint whose circuit is open (no claim, not stranded); one probe at a time when half-open; the simulator’s claim goes through', async () => {
    const { endpointId, due } = await endpointWithDeliveries(4, 300);
    const now = new Date();
    const setCircuit = (opened: number, until: Date | null) =>
      dataSource.query(
        `UPDATE webhook_endpoint SET circuit_opened = $2, circuit_open_until = $3, circuit_failures = $2 * 5 WHERE id = $1`,
        [endpointId, opened, until],
      );
    await setCircuit(1, new Date(now.getTime() + 60_000));
    expect(await store.claim({ endpointId, max: 4 }, now, prepare)).toEqual([]);
    expect(await store.claim({ deliveryId: due[0] }, now, prepare)).toEqual([]);
    expect(await store.peek(due[0], now)).toEqual({ endpointId, claimable: false });
    const stranded = await store.stranded(new Date(now.getTime() + 10_000), new Date(now.getTime() + 10_000));
    expect(stranded.filter((d) => d.endpointId === endpointId)).toEqual([]);
    // The customer's own test (the simulator) is not held.
    const tested = await store.claim({ deliveryId: due[0], circuit: false }, now, prepare);
    expect(tested.map((c) => c.deliveryId)).toEqual([due[0]]);

    // Half-open: one attempt in flight at most, the probe.
    await setCircuit(1, new Date(now.getTime() - 1));
    const later = new Date(now.getTime() + 1);
    expect(await store.peek(due[1], later)).toEqual({ endpointId, claimable: false }); // the test send is in flight
    await dataSource.query(`UPDATE delivery SET locked_until = NULL WHERE id = $1`, [due[0]]);
    expect(await store.peek(due[1], later)).toEqual({ endpointId, claimable: true });
    const probe = await store.claim({ endpointId, max: 4 }, later, prepare);
    expect(probe).toHaveLength(1);
    expect(await store.claim({ endpointId, max: 4 }, later, prepare)).toEqual([]);
    // Closed: the endpoint's limit again.
    await setCircuit(0, null);
    expect(await store.claim({ endpointId, max: 4 }, later, prepare)).toHaveLength(3);
  });

  it('signs with the secret the claim read under the endpoint’s lock: a rotation committed before it is the one used', async () => {
    const { endpointId } = await endpointWithDeliveries(1, 400);
    const rotated = newWebhookSecret();
    await dataSource.query(`UPDATE webhook_endpoint SET secret = $2 WHERE id = $1`, [endpointId, rotated]);
    const [claim] = await store.claim({ endpointId, max: 4 }, new Date(), prepare);
    expect(claim.secrets).toEqual([rotated]);
  });

  it('still answers the previous version’s claim (a rolling upgrade: its workers run beside the new ones)', async () => {
    // The previous worker read candidates, signed them, and passed the endpoint's url and secret with the headers.
    const { endpointId, due } = await endpointWithDeliveries(2, 600);
    const [endpoint] = await dataSource.query(`SELECT url, secret FROM webhook_endpoint WHERE id = $1`, [endpointId]);
    const claimed: Array<{ claimed_id: string; claimed_attempt: number }> = await dataSource.query(
      `SELECT claimed_id, claimed_attempt FROM claim_deliveries(now(), now() + interval '20 s', 4, ARRAY[$1], ARRAY[4], ARRAY[false], ARRAY[$2], ARRAY[$3], $4::text[], $5::text[], ARRAY[]::text[], false, ARRAY[true])`,
      [endpointId, endpoint.url, endpoint.secret, due, due.map((id) => JSON.stringify({ 'webhook-id': id }))],
    );
    expect(claimed.map((c) => [c.claimed_id, c.claimed_attempt])).toEqual(due.map((id) => [id, 1]));
    const logged: Array<{ request_headers: string }> = await dataSource.query(
      `SELECT request_headers FROM delivery_attempt WHERE delivery_id = $1`,
      [due[0]],
    );
    expect(logged.map((l) => JSON.parse(l.request_headers))).toEqual([{ 'webhook-id': due[0] }]);
    // And the new claim respects its leases: the endpoint's two due deliveries are in flight.
    expect(await store.claim({ endpointId, max: 4 }, new Date(), prepare)).toEqual([]);
  });

  it('fails the due deliveries of a disabled endpoint instead of claiming them', async () => {
    const { endpointId, due } = await endpointWithDeliveries(2, 500);
    await dataSource.query(`UPDATE webhook_endpoint SET enabled = false WHERE id = $1`, [endpointId]);
    expect(await store.claim({ endpointId, max: 4 }, new Date(), prepare)).toEqual([]);
    const rows: Array<{ state: string; last_error: string }> = await dataSource.query(
      `SELECT state, last_error FROM delivery WHERE id = ANY($1)`,
      [due],
    );
    expect(rows).toEqual(due.map(() => ({ state: 'failed', last_error: 'the endpoint is disabled' })));
  });

  if (backend === 'postgres') {
    it('claims side by side from many connections over overlapping endpoints: no deadlock, no attempt twice, no endpoint over its limit', async () => {
      const targets: Array<{ endpointId: string; due: string[] }> = [];
      for (let i = 0; i < 10; i++) targets.push(await endpointWithDeliveries(6, 700 + i * 10));
      const url = (dataSource.options as { url: string }).url;
      const clients = await Promise.all(
        Array.from({ length: 6 }, async () => {
          const c = new Client({ connectionString: url });
          await c.connect();
          return c;
        }),
      );
      // A fixed pseudo-random sequence, so that a failure can be replayed.
      let seed = 7;
      const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      const claimed: string[] = [];
      try {
        await Promise.all(
          clients.map(async (c) => {
            for (let round = 0; round < 25; round++) {
              // Some endpoints, sorted as a worker sends them, each waiting for its lock or skipping it.
              const ids = targets
                .map((t) => t.endpointId)
                .filter(() => random() < 0.6)
                .sort();
              const rows: Array<{ c_id: string }> = await c
                .query(
                  `SELECT c_id FROM claim_deliveries(now(), now() + interval '60 s', 4, $1, $2, $3, ARRAY[]::text[], false, $4, NULL)`,
                  [
                    ids,
                    ids.map(() => 1 + Math.floor(random() * 3)),
                    ids.map(() => random() < 0.5),
                    ids.map(() => true),
                  ],
                )
                .then((r) => r.rows);
              claimed.push(...rows.map((r) => r.c_id));
            }
          }),
        );
      } finally {
        await Promise.all(clients.map((c) => c.end()));
      }
      expect(new Set(claimed).size).toBe(claimed.length);
      // Nothing finished and no lease expired: each endpoint has its four oldest in flight, once each.
      for (const { due } of targets) {
        const mine = claimed.filter((id) => due.includes(id)).sort();
        expect(mine).toEqual(due.slice(0, 4).sort());
      }
      const logged: Array<{ n: number }> = await dataSource.query(
        `SELECT count(*)::int AS n FROM delivery_attempt WHERE delivery_id = ANY($1)`,
        [claimed],
      );
      expect(logged[0].n).toBe(claimed.length);
    });

    it('does not hold up a publish to the endpoints it is claiming for (no lock the foreign key waits on)', async () => {
      // A claim's transaction left open with two endpoints locked, as in the middle of a call.
      const claimer = new Client({ connectionString: (dataSource.options as { url: string }).url });
      await claimer.connect();
      try {
        await claimer.query('BEGIN');
        // Called on the open transaction (claiming nothing), the function holds its lock on both endpoints' rows.
        await claimer.query(
          `SELECT * FROM claim_deliveries(now(), now() + interval '20 s', 4, $1, ARRAY[0, 0], ARRAY[false, false], ARRAY[]::text[], false, ARRAY[true, true], NULL)`,
          [[...endpoints.slice(0, 2)].sort()],
        );
        // A publish inserts deliveries for both endpoints (each insert's foreign key takes a KEY SHARE lock on its endpoint).
        const published = await dataSource.transaction(async (m) => {
          await m.query(`SET LOCAL lock_timeout = '2s'`);
          return publisher.publish(m, {
            accountId,
            kind: 'company.name_changed',
            isTest: false,
            data: change(100),
            endpointIds: endpoints,
          });
        });
        expect(published.deliveries).toHaveLength(3);
      } finally {
        await claimer.query('ROLLBACK').catch(() => undefined);
        await claimer.end();
      }
    });
  }
});
