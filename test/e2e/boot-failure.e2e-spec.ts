import { createServer, Server } from 'node:net';
import { freePort, runProcess } from '../support/processes';

jest.setTimeout(60_000);

/**
 * A process whose DATABASE_URL cannot be used stops at once with exit code 1 and one sentence
 * saying what to fix (after the driver's own retries), as the api and as the worker.
 */
describe('a process that cannot reach its database', () => {
  let closedRedis: string;
  beforeAll(async () => {
    closedRedis = `redis://127.0.0.1:${await freePort()}`;
  });

  it.each(['main.js', 'worker.js'])(
    '%s: Postgres not running at the address: names it and DATABASE_URL',
    async (entry) => {
      const port = await freePort();
      const run = await runProcess(entry, [], {
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/registry`,
        REDIS_URL: closedRedis,
        PORT: String(await freePort()),
      });
      expect(run.code).toBe(1);
      expect(run.output).toContain(
        `Not started: no database answers at 127.0.0.1:${port} (ECONNREFUSED). Start Postgres there, or point DATABASE_URL at one that runs.`,
      );
    },
  );

  it('a host that does not resolve: says to check the host', async () => {
    const run = await runProcess('worker.js', [], {
      DATABASE_URL: 'postgres://postgres@registry-db.invalid:5432/registry',
      REDIS_URL: closedRedis,
    });
    expect(run.code).toBe(1);
    expect(run.output).toMatch(
      /Not started: the database host registry-db\.invalid cannot be resolved \((ENOTFOUND|EAI_AGAIN)\)/,
    );
  });

  // A running Postgres is needed to be told "no such database" or "login refused".
  const withPostgres = process.env.DATABASE_URL ? it : it.skip;
  withPostgres('a database that does not exist, a user Postgres refuses: each says which', async () => {
    const url = new URL(process.env.DATABASE_URL!);
    url.pathname = '/registry_lookup_no_such_database';
    const missing = await runProcess('worker.js', [], { DATABASE_URL: url.toString(), REDIS_URL: closedRedis });
    expect(missing.code).toBe(1);
    expect(missing.output).toContain(
      'Not started: database "registry_lookup_no_such_database" does not exist. Create it (createdb), or point DATABASE_URL at one that exists.',
    );
    const stranger = new URL(process.env.DATABASE_URL!);
    stranger.username = 'registry_lookup_no_such_role';
    const refused = await runProcess('worker.js', [], { DATABASE_URL: stranger.toString(), REDIS_URL: closedRedis });
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      /Not started: Postgres refused the login: .*registry_lookup_no_such_role.*DATABASE_URL\./,
    );
  });
});

/**
 * A port another process holds: the process stops at once with exit code 1 and one sentence
 * naming the variable to change, whether it is the public port or the metrics port, and
 * whichever process opens it (the worker opens only the metrics port).
 */
describe('a process whose port another process holds', () => {
  let holder: Server;
  let held: number;
  beforeAll(async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    held = (holder.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  // Embedded and in memory: no data directory to lock. The worker needs a REDIS_URL, which a
  // process starts without (Redis being down never stops a start).
  let embedded: Record<string, string>;
  beforeAll(async () => {
    embedded = { HOST: '127.0.0.1', DATA_DIR: 'memory://', REDIS_URL: `redis://127.0.0.1:${await freePort()}` };
  });

  it('PORT in use: names PORT', async () => {
    const run = await runProcess('main.js', [], { ...embedded, PORT: String(held) });
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      `Not started: PORT ${held} on 127.0.0.1 is already in use by another process (EADDRINUSE). Stop that process, or set PORT to a free port.`,
    );
    expect(run.output).not.toMatch(/\n\s+at /);
  });

  it.each(['main.js', 'worker.js'])('%s: METRICS_PORT in use: names METRICS_PORT', async (entry) => {
    const run = await runProcess(entry, [], {
      ...embedded,
      PORT: String(await freePort()),
      METRICS_PORT: String(held),
    });
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      `Not started: METRICS_PORT ${held} on 127.0.0.1 is already in use by another process (EADDRINUSE). Stop that process, or set METRICS_PORT to a free port.`,
    );
    expect(run.output).not.toMatch(/\n\s+at /);
  });
});

/** The operator's commands say the same sentence as a process that cannot start, after their own prefix. */
describe('a command that cannot reach its database', () => {
  it.each([
    ['cli/migrate.js', [], 'migration failed'],
    ['cli/admin.js', ['access-requests', 'list'], 'admin command failed'],
    ['cli/dataset-import.js', ['--country', 'NO', '--file', __filename], 'dataset:import'],
  ])('%s: names the address and DATABASE_URL', async (entry, args, prefix) => {
    const port = await freePort();
    const run = await runProcess(entry, args, { DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/registry` });
    expect(run.code).toBe(1);
    expect(run.output).toContain(
      `${prefix}: no database answers at 127.0.0.1:${port} (ECONNREFUSED). Start Postgres there, or point DATABASE_URL at one that runs.`,
    );
  });
});

/** Apart, the api and the workers hand jobs over only through Redis: each refuses to start without it. */
describe('the api or a worker on its own without REDIS_URL', () => {
  it.each(['main.js --role=api', 'worker.js'])(
    '%s: says REDIS_URL is required, and npm start for one process',
    async (command) => {
      const [entry, ...args] = command.split(' ');
      const run = await runProcess(entry, args, { DATA_DIR: 'memory://', PORT: String(await freePort()) });
      expect(run.code).toBe(1);
      expect(run.output).toContain(
        'REDIS_URL: required by start:api and start:worker, which run apart and hand their jobs over through Redis (one process without Redis: npm start)',
      );
    },
  );
});
