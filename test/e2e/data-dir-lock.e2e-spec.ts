import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureText } from '../support/dataset-fixtures';
import { freePort, runProcess, startProcess, Started, waitForHttp } from '../support/processes';
import { MODE, unreachableRegisters } from '../support/test-app';

jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..');
const LOCK = 'registry-lookup.lock';

/** A process that takes the data directory's lock as a CLI command would, and holds it until killed. */
function holdLock(
  dataDir: string,
  command: string,
): Promise<{ pid: number; kill: (signal: NodeJS.Signals) => Promise<void> }> {
  const script = `const { DataDirLock } = require(${JSON.stringify(join(ROOT, 'dist/platform/database/data-dir-lock.js'))});
    try { DataDirLock.acquire(process.argv[1], process.argv[2]); console.log('held'); } catch (e) { console.log('refused: ' + e.message); process.exit(3); }
    setInterval(() => undefined, 1000);`;
  const child = spawn(process.execPath, ['-e', script, dataDir, command], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => {
      if (!d.toString().startsWith('held')) return reject(new Error(d.toString()));
      resolve({
        pid: child.pid!,
        kill: (signal) =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.kill(signal);
          }),
      });
    });
  });
}

/**
 * Starts n processes at once, each trying to take the lock; resolves with how many got it.
 * A process that gets it holds it until every process has answered (then it is killed): on a
 * loaded machine the n starts may spread over seconds, and a winner that let go early would
 * hand the directory on to a later one, which is no race.
 */
async function race(dataDir: string, n: number): Promise<number> {
  const script = `const { DataDirLock } = require(${JSON.stringify(join(ROOT, 'dist/platform/database/data-dir-lock.js'))});
    try { DataDirLock.acquire(process.argv[1], 'race'); console.log('held'); setInterval(() => undefined, 1000); } catch (e) { console.log('refused'); }`;
  const children = Array.from({ length: n }, () =>
    spawn(process.execPath, ['-e', script, dataDir], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  try {
    const outcomes = await Promise.all(
      children.map(
        (child) =>
          new Promise<string>((resolve) => {
            let out = '';
            child.stdout!.on('data', (d: Buffer) => {
              out += d.toString();
              if (out.includes('\n')) resolve(out.trim());
            });
            child.once('exit', () => resolve(out.trim()));
          }),
      ),
    );
    return outcomes.filter((o) => o === 'held').length;
  } finally {
    await Promise.all(
      children.map((child) =>
        child.exitCode !== null || child.signalCode !== null
          ? Promise.resolve()
          : new Promise((r) => {
              child.once('exit', r);
              child.kill('SIGTERM');
            }),
      ),
    );
  }
}

// The lock guards the embedded database only; the suite runs once, with the embedded suite.
const suite = MODE === 'embedded' ? describe : describe.skip;

suite('one process per data directory (embedded default)', () => {
  let dir: string;
  const started: Started[] = [];
  const env = (dataDir: string, extra: Record<string, string> = {}) => ({
    ...unreachableRegisters(),
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    REDIS_URL: '',
    HOST: '127.0.0.1',
    ...extra,
  });

  async function startService(dataDir: string): Promise<{ url: string; service: Started }> {
    const port = await freePort();
    const service = startProcess('main.js', [], env(dataDir, { PORT: String(port) }));
    started.push(service);
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/health/ready`, service, 60_000);
    return { url, service };
  }

  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'rl-lock-'))));
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs dataset:import and migration:run through the running service; the database boots afterwards with all its data', async () => {
    const dataDir = join(dir, 'a');
    const file = join(dir, 'BasicCompanyDataAsOneFile-2024-05-01.csv');
    const csv = fixtureText('registers/gb/ch-bulk-basiccompanydata-sample.csv');
    writeFileSync(file, csv);
    const numbers = csv
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(',')[1].replace(/"/g, '').trim());
    expect(numbers).toHaveLength(3);

    const first = await startService(dataDir);
    const lock = JSON.parse(readFileSync(join(dataDir, LOCK), 'utf8'));
    expect(lock).toMatchObject({
      pid: first.service.child.pid,
      command: 'service',
      socket: join(dataDir, 'admin.sock'),
    });

    const imported = await runProcess('cli/dataset-import.js', ['--country', 'GB', '--file', file], env(dataDir));
    expect(imported.output).toMatch(
      new RegExp(
        `The service \\(pid ${first.service.child.pid}, started [^)]+\\) is running on .*: running dataset:import through it`,
      ),
    );
    expect(imported.output).toContain('upserted       3 (inserted 3, updated 0; 0 unchanged)');
    expect(imported.code).toBe(0);

    const migrated = await runProcess('cli/migrate.js', [], env(dataDir));
    expect(migrated.output).toMatch(/running migration:run through it[\s\S]*No pending migrations/);
    expect(migrated.code).toBe(0);

    // An operator decides an access request while the service runs: through the service.
    const signup = await fetch(`${first.url}/api/v1/accounts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'ops-test@example.com' }),
    });
    const { apiKey } = (await signup.json()) as { apiKey: string };
    const auth = { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' };
    const filed = await fetch(`${first.url}/api/v1/access-requests`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({
        countries: ['NO'],
        monthlyVolume: 100,
        events: ['company.status_changed'],
        useCase: 'Watching our Norwegian suppliers.',
      }),
    });
    const { id } = (await filed.json()) as { id: string };
    const listed = await runProcess('cli/admin.js', ['access-requests', 'list'], env(dataDir));
    expect(listed.output).toMatch(/running admin through it/);
    expect(listed.output).toContain(id);
    expect(listed.code).toBe(0);
    const approved = await runProcess('cli/admin.js', ['access-requests', 'approve', id], env(dataDir));
    expect(approved.output).toContain(`approved ${id}`);
    expect(approved.code).toBe(0);
    const account = (await (await fetch(`${first.url}/api/v1/account`, { headers: auth })).json()) as {
      liveDelivery: { enabled: boolean };
    };
    expect(account.liveDelivery.enabled).toBe(true);

    // The service answers from the rows the import wrote, while it runs…
    const live = await fetch(`${first.url}/api/public/v1/companies/GB/${numbers[0]}`);
    expect(live.status).toBe(200);
    await first.service.stop();
    expect(existsSync(join(dataDir, LOCK))).toBe(false);
    expect(existsSync(join(dataDir, 'admin.sock'))).toBe(false);

    // With the service stopped, the admin command opens the directory itself (and lets go of it).
    const offline = await runProcess('cli/admin.js', ['access-requests', 'list', '--state', 'approved'], env(dataDir));
    expect(offline.output).not.toMatch(/through it/);
    expect(offline.output).toContain(id);
    expect(offline.code).toBe(0);
    expect(existsSync(join(dataDir, LOCK))).toBe(false);

    // …and after a normal stop, the database boots again with every row.
    const second = await startService(dataDir);
    for (const n of numbers) {
      const res = await fetch(`${second.url}/api/public/v1/companies/GB/${n}`);
      const body = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(body.company).toMatchObject({
        registrationNumber: n,
        source: { kind: 'dataset:companies-house-basiccompanydata', official: false },
      });
    }

    // A second service on the same directory stops at once with a sentence.
    const port = await freePort();
    const other = await runProcess('main.js', [], env(dataDir, { PORT: String(port) }));
    expect(other.code).toBe(1);
    expect(other.output).toMatch(
      new RegExp(
        `^Not started: The service \\(pid ${second.service.child.pid}, started [^)]+\\) is running on \\S+\\. Only one process may open the embedded database at a time\\. Stop it`,
        'm',
      ),
    );
    expect(other.output).not.toMatch(/\n\s+at /);

    // kill -9 leaves a lock file behind; the next start recognises it as stale and boots.
    second.service.child.kill('SIGKILL');
    await new Promise((r) => second.service.child.once('exit', r));
    expect(existsSync(join(dataDir, LOCK))).toBe(true);
    const third = await startService(dataDir);
    const res = await fetch(`${third.url}/api/public/v1/companies/GB/${numbers[2]}`);
    expect(res.status).toBe(200);
    await third.service.stop();
  });

  it('refuses at once, with who holds the directory and what to do, while another command holds it', async () => {
    const dataDir = join(dir, 'b');
    const holder = await holdLock(dataDir, 'dataset:import');
    try {
      const t0 = Date.now();
      const migrated = await runProcess('cli/migrate.js', [], env(dataDir));
      expect(migrated.code).toBe(1);
      expect(migrated.output.trim()).toMatch(
        new RegExp(
          `^migration:run: npm run dataset:import \\(pid ${holder.pid}, started [^)]+\\) is using \\S+\\. Only one process may open the embedded database at a time: wait until it has finished, then run npm run migration:run again\\.$`,
        ),
      );
      const file = join(dir, 'x.csv');
      writeFileSync(file, fixtureText('registers/gb/ch-bulk-basiccompanydata-sample.csv'));
      const imported = await runProcess('cli/dataset-import.js', ['--country', 'GB', '--file', file], env(dataDir));
      expect(imported.code).toBe(1);
      expect(imported.output).toMatch(/^dataset:import: npm run dataset:import \(pid \d+/);
      const service = await runProcess('main.js', [], env(dataDir, { PORT: String(await freePort()) }));
      expect(service.code).toBe(1);
      expect(service.output).toMatch(
        /Not started: npm run dataset:import \(pid \d+, started [^)]+\) is using \S+\. .*Wait until npm run dataset:import has finished/,
      );
      expect(Date.now() - t0).toBeLessThan(20_000);
    } finally {
      await holder.kill('SIGKILL');
    }
    // Its holder killed with -9, the directory is usable again.
    // (A new directory starts from the prepared template, migrated already.)
    const migrated = await runProcess('cli/migrate.js', [], env(dataDir));
    expect(migrated.output).toMatch(/Applied \d+ migration\(s\)|No pending migrations \(PGlite in /);
    expect(migrated.code).toBe(0);
    expect(existsSync(join(dataDir, LOCK))).toBe(false);
  });

  it('lets one of three services started at once on a fresh directory run; the others stop with one sentence', async () => {
    const dataDir = join(dir, 'd');
    const ports = await Promise.all([freePort(), freePort(), freePort()]);
    const services = ports.map((port) => startProcess('main.js', [], env(dataDir, { PORT: String(port) })));
    started.push(...services);
    // Two stop; the third serves. Waited for as it happens: the losers' exits (45 s at most),
    // then the one left running must answer ready.
    const exits: Array<number | null> = services.map(() => null);
    await new Promise<void>((resolve) => {
      let stopped = 0;
      services.forEach((s, i) =>
        s.child.once('exit', (code) => {
          exits[i] = code;
          if (++stopped === 2) resolve();
        }),
      );
      setTimeout(resolve, 45_000).unref();
    });
    const losers = services.filter((_, i) => exits[i] !== null);
    expect(losers).toHaveLength(2);
    for (const loser of losers) {
      expect(loser.child.exitCode).toBe(1);
      const lines = loser
        .output()
        .trim()
        .split('\n')
        .filter((l) => l.trim());
      expect(lines).toEqual([expect.stringMatching(/^Not started: .*(is running on|is taking) .*DATA_DIR/)]);
    }
    const winner = exits.indexOf(null);
    await waitForHttp(`http://127.0.0.1:${ports[winner]}/health/ready`, services[winner], 60_000);
    expect(services[winner].child.exitCode).toBeNull();
  });

  it('gives the directory to exactly one of several processes starting at once, also over a stale lock', async () => {
    const dataDir = join(dir, 'c');
    expect(await race(dataDir, 4)).toBe(1);
    const stale = await holdLock(dataDir, 'dataset:import');
    await stale.kill('SIGKILL');
    expect(existsSync(join(dataDir, LOCK))).toBe(true);
    expect(await race(dataDir, 4)).toBe(1);
  });
});
