import { Client } from 'pg';
import { COUNTRY_CODES } from '../../src/registers/registers';
import { createTestPostgresDatabase, HAS_SERVICES } from '../support/database';
import { FakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { runProcess, startProcess, Started, waitForHttp } from '../support/processes';
import { unreachableRegisters } from '../support/test-app';
import { testRedisPrefix } from '../support/redis-keys';

jest.setTimeout(120_000);

const suite = HAS_SERVICES ? describe : describe.skip;

/** The api and the worker as separate OS processes on one Postgres and one Redis. */
suite('several processes on real Postgres and Redis', () => {
  let db: { url: string; drop: () => Promise<void> };
  /** The processes' Bull queues and locks, deleted with the database. */
  const redis = testRedisPrefix('rlmulti');
  let fakes: FakeRegisters;
  const started: Started[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    db = await createTestPostgresDatabase('rl_multi');
    fakes = await startFakeRegisters();
    env = {
      ...unreachableRegisters(),
      ...fakes.env,
      DATABASE_URL: db.url,
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: redis.prefix,
      MIGRATE_ON_BOOT: 'false',
      REGISTER_DK_USERNAME: 'u',
      REGISTER_DK_PASSWORD: 'p',
      REGISTER_AU_GUID: 'g',
    };
  });

  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    await fakes?.stop();
    await db?.drop();
    await redis.drop();
  });

  it('applies migrations from two processes started at once (advisory lock), then finds none pending', async () => {
    const [a, b] = await Promise.all([runProcess('cli/migrate.js', [], env), runProcess('cli/migrate.js', [], env)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    const outputs = [a.output, b.output].join('\n');
    expect(outputs).toMatch(/Applied \d+ migration\(s\)/);
    expect(outputs).toMatch(/No pending migrations/);
    const again = await runProcess('cli/migrate.js', [], env);
    expect(again.output).toMatch(/No pending migrations/);
  });

  it('two api processes share one count of 120 requests per hour', async () => {
    const apis = [3411, 3412].map((port) =>
      startProcess('main.js', ['--role=api'], { ...env, PORT: String(port), HOST: '127.0.0.1' }),
    );
    started.push(...apis);
    await Promise.all(apis.map((api, i) => waitForHttp(`http://127.0.0.1:${3411 + i}/health/ready`, api)));
    const statuses: number[] = [];
    let lastRemaining: string;
    for (let i = 0; i < 121; i++) {
      const res = await fetch(`http://127.0.0.1:${3411 + (i % 2)}/api/public/v1/registers`);
      await res.arrayBuffer();
      statuses.push(res.status);
      lastRemaining = res.headers.get('x-ratelimit-remaining') ?? '';
      if (i === 119) expect(lastRemaining).toBe('0');
    }
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses[120]).toBe(429);
    // The api runs no probe: nothing reached any register, nothing was written.
    expect(fakes.all().every((f) => f.requests.length === 0)).toBe(true);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query('SELECT count(*)::int AS n FROM probe');
    await client.end();
    expect(rows[0].n).toBe(0);
    await Promise.all(apis.map((a) => a.stop()));
  });

  it('two worker processes probe each register exactly once per slot', async () => {
    const workerEnv = { ...env, PROBE_INTERVAL_SECONDS: '2' };
    const workers = [startProcess('worker.js', [], workerEnv), startProcess('worker.js', [], workerEnv)];
    started.push(...workers);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    const perRegister = () =>
      client.query<{ country: string; slots: number; probes: number; maxPerSlot: number }>(
        `SELECT country, count(DISTINCT slot_start)::int AS slots, count(*)::int AS probes,
                max(c)::int AS "maxPerSlot"
         FROM (SELECT country, slot_start, count(*) OVER (PARTITION BY country, slot_start) AS c FROM probe) p
         GROUP BY country ORDER BY country`,
      );
    // Until every register has three slots: two workers booting on a loaded machine take a while.
    const registers = COUNTRY_CODES.length + 1;
    const deadline = Date.now() + 60_000;
    for (;;) {
      const { rows } = await perRegister();
      if (rows.length === registers && rows.every((r) => r.slots >= 3)) break;
      if (Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 500));
    }
    await Promise.all(workers.map((w) => w.stop()));
    for (const w of workers) expect(w.output()).not.toMatch(/listening|EADDRINUSE/i);
    const { rows } = await perRegister();
    await client.end();
    // The registers, and GLEIF's LEI index (probed the same way; on a closed port here).
    expect(rows.map((r) => r.country.trim())).toEqual([...COUNTRY_CODES, 'LEI'].sort());
    for (const r of rows) {
      expect(r.slots).toBeGreaterThanOrEqual(3);
      expect(r.maxPerSlot).toBe(1);
      expect(r.probes).toBe(r.slots);
    }
    // And the registers themselves saw one request per slot.
    const no = rows.find((r) => r.country.trim() === 'NO')!;
    expect(fakes.NO_API.requestsTo('/enheter/923609016')).toHaveLength(no.slots);
    const au = rows.find((r) => r.country.trim() === 'AU')!;
    expect(fakes.AU_API.requestsTo('/json/AbnDetails.aspx')).toHaveLength(au.slots);
  });
});
