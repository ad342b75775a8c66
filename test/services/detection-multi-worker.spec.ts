import { Client } from 'pg';
// The benchmark's fake registers: any number answers, from recorded templates.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Fakes, NUMBERS } = require('../../bench/detection-fakes') as {
  Fakes: new () => any;
  NUMBERS: Record<string, (i: number) => string>;
};
import { createTestPostgresDatabase, HAS_SERVICES } from '../support/database';
import { call, eventually } from '../support/event-side';
import { runProcess, startProcess, Started, waitForHttp } from '../support/processes';
import { unreachableRegisters } from '../support/test-app';
import { testRedisPrefix } from '../support/redis-keys';

jest.setTimeout(180_000);

const suite = HAS_SERVICES ? describe : describe.skip;
const INTERVAL_S = 8;
const PORT = 3431;

/** Detection with the api and two workers as separate OS processes on one Postgres and one Redis. */
suite('change detection with two workers on Bull', () => {
  let db: { url: string; drop: () => Promise<void> };
  /** The processes' Bull queues and locks, deleted with the database. */
  const redis = testRedisPrefix('rldetect');
  let fakes: any;
  let sql: Client;
  const started: Started[] = [];

  beforeAll(async () => {
    db = await createTestPostgresDatabase('rl_detect');
    fakes = await new Fakes().start();
    fakes.trackReads = true;
  });

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await sql?.end();
    await fakes?.stop();
    await db?.drop();
    await redis.drop();
  });

  it('checks each company once per cycle, never twice at once, and emits each change once', async () => {
    const env = {
      ...unreachableRegisters(),
      ...fakes.env,
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: redis.prefix,
      MIGRATE_ON_BOOT: 'false',
      DATASET_SEED: 'false',
      REGISTER_AU_GUID: 'guid',
      DETECTION_INTERVAL_SECONDS: String(INTERVAL_S),
      FEED_POLL_INTERVAL_SECONDS: '2',
    };
    expect((await runProcess('cli/migrate.js', [], env)).code).toBe(0);
    const api = startProcess('main.js', ['--role=api'], { ...env, PORT: String(PORT), HOST: '127.0.0.1' });
    started.push(api);
    await waitForHttp(`http://127.0.0.1:${PORT}/health/ready`, api);
    started.push(startProcess('worker.js', [], env), startProcess('worker.js', [], env));
    sql = new Client({ connectionString: db.url });
    await sql.connect();
    await eventually(
      () =>
        sql.query(`SELECT count(*)::int AS n FROM register_state WHERE country IN ('AU', 'CA') AND status = 'live'`),
      (r) => r.rows[0].n === 2,
      30_000,
    );

    const base = `http://127.0.0.1:${PORT}`;
    const signedUp = await call(base, 'POST', '/api/v1/accounts', { body: { email: 'multi@example.com' } });
    const key = signedUp.body.apiKey as string;
    const au = Array.from({ length: 40 }, (_, i) => NUMBERS.AU(i));
    const ca = Array.from({ length: 30 }, (_, i) => NUMBERS.CA(i));
    const bulk = await call(base, 'POST', '/api/v1/watches/bulk', {
      key,
      body: {
        watches: [
          ...au.map((n) => ({ country: 'AU', registrationNumber: n })),
          ...ca.map((n) => ({ country: 'CA', registrationNumber: n })),
        ],
      },
    });
    expect(bulk.status).toBe(200);
    expect(bulk.body).toMatchObject({ created: 70, failed: 0 });
    await eventually(
      () => sql.query(`SELECT count(*)::int AS n FROM company_snapshot WHERE baseline_at IS NOT NULL`),
      (r) => r.rows[0].n === 70,
      60_000,
    );

    // Two cycles with nothing changed.
    const from = Date.now();
    await new Promise((r) => setTimeout(r, 2 * INTERVAL_S * 1000 + 1_000));
    for (const [cc, numbers] of [
      ['AU', au],
      ['CA', ca],
    ] as const) {
      for (const n of numbers) {
        const reads: number[] = fakes.reads[cc][n];
        // The baseline read, then one read per interval at the company's place in it: never two
        // close together (two workers checking at once read within milliseconds of each other),
        // never a cycle skipped (that leaves two intervals between reads). The bounds leave room
        // for a check run late on a loaded machine: on CI, with the other lane's tests beside
        // it, two reads of one company once came 3.8 s apart (half an interval was the bound).
        for (let i = 2; i < reads.length; i++) {
          expect(reads[i] - reads[i - 1]).toBeGreaterThan(1_000);
          expect(reads[i] - reads[i - 1]).toBeLessThan(INTERVAL_S * 1000 * 1.75);
        }
        const inWindow = reads.filter((t) => t >= from).length;
        expect(inWindow).toBeGreaterThanOrEqual(1);
        expect(inWindow).toBeLessThanOrEqual(3);
      }
    }
    // Every company's last check found nothing.
    const byWorker = await sql.query(
      `SELECT count(*)::int AS n FROM company_snapshot WHERE check_outcome = 'no_change'`,
    );
    expect(byWorker.rows[0].n).toBe(70);

    // 10 companies change: each change is emitted once, whichever worker sees it.
    for (const n of [...au.slice(0, 6), ...ca.slice(0, 4)]) fakes.changed[n.length === 11 ? 'AU' : 'CA'].add(n);
    fakes.flip();
    const events = await eventually(
      () =>
        sql.query(
          `SELECT (body::jsonb)->'data'->>'entity_id' AS entity, count(*)::int AS n FROM event WHERE kind = 'company.name_changed' GROUP BY 1`,
        ),
      (r) => r.rows.length === 10,
      60_000,
    );
    await new Promise((r) => setTimeout(r, INTERVAL_S * 1000 + 1_000));
    const after = await sql.query(
      `SELECT (body::jsonb)->'data'->>'entity_id' AS entity, count(*)::int AS n FROM event WHERE kind = 'company.name_changed' GROUP BY 1`,
    );
    expect(after.rows).toHaveLength(10);
    expect(after.rows.every((r) => r.n === 1)).toBe(true);
    expect(events.rows.map((r) => r.entity).sort()).toEqual(
      [...au.slice(0, 6).map((n) => `ent_au_${n}`), ...ca.slice(0, 4).map((n) => `ent_ca_${n}`)].sort(),
    );
  });
});
