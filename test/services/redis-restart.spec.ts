import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Redis from 'ioredis';
import { freePort, OwnRedis, startProcess, Started, waitForHttp } from '../support/processes';
import { unreachableRegisters } from '../support/test-app';

jest.setTimeout(120_000);

const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;
const suite = HAS_REDIS_SERVER ? describe : describe.skip;

interface Sample {
  at: number;
  status: number | 'error';
  ms: number;
}

/** `workers` loops of GETs until stop() is called. */
function load(url: string, workers: number): { samples: Sample[]; stop: () => Promise<void> } {
  const samples: Sample[] = [];
  let running = true;
  const loops = Array.from({ length: workers }, async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        samples.push({ at: Date.now(), status: res.status, ms: performance.now() - t0 });
      } catch {
        samples.push({ at: Date.now(), status: 'error', ms: performance.now() - t0 });
      }
    }
  });
  return {
    samples,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

async function readyStatus(url: string, service: Started): Promise<number> {
  try {
    return (await fetch(`${url}/health/ready`)).status;
  } catch (err) {
    // The service stopped listening: say why, from its own output.
    const exit = service.child.exitCode ?? service.child.signalCode ?? 'still running';
    throw new Error(`${(err as Error).message} (service: ${exit}):\n${service.output().slice(-4000)}`, { cause: err });
  }
}

async function until(check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('condition not met in time');
}

/** A Redis of the test's own, killed and started again while the service is under load. */
suite('Redis stopped and restarted under load', () => {
  let redis: OwnRedis;
  let service: Started;
  let url: string;
  let dir: string;
  const prefix = 'rlrestart';

  beforeAll(async () => {
    redis = await OwnRedis.start();
    dir = mkdtempSync(join(tmpdir(), 'rl-redis-restart-'));
    const port = await freePort();
    service = startProcess('main.js', [], {
      ...unreachableRegisters(),
      DATA_DIR: join(dir, 'data'),
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: prefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_HOUR: '1000000',
      PROBE_INTERVAL_SECONDS: '2',
    });
    url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/health/ready`, service, 60_000);
  });
  afterAll(async () => {
    await service?.stop();
    await redis?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves every request fast throughout, says so once each way, and counts and probes in Redis again once it is back', async () => {
    const traffic = load(`${url}/api/public/v1/registers`, 4);
    await new Promise((r) => setTimeout(r, 1_500));
    await redis.kill();
    const killedAt = Date.now();
    await until(async () => (await readyStatus(url, service)) === 503, 5_000);
    await new Promise((r) => setTimeout(r, 3_000));
    await redis.restart();
    const restartedAt = Date.now();
    await until(async () => (await readyStatus(url, service)) === 200, 10_000);
    await new Promise((r) => setTimeout(r, 1_500));
    await traffic.stop();

    const { samples } = traffic;
    expect(samples.filter((s) => s.status !== 200)).toEqual([]);
    const during = samples.filter((s) => s.at > killedAt && s.at < restartedAt);
    expect(during.length).toBeGreaterThan(50);
    const ms = samples.map((s) => s.ms).sort((a, b) => a - b);
    expect(ms[Math.floor(ms.length * 0.99)]).toBeLessThan(500);

    const lines = service
      .output()
      .split('\n')
      .filter((l) => /"context":"Redis"/.test(l));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/Redis went away/);
    expect(lines[1]).toMatch(/Redis is back after \d+ s/);

    // The new Redis started empty: counts and probe jobs found in it were written after the restart.
    // Each look sends a request first: a connection may still be in its reconnect backoff (up to
    // 2 s) when the health connection has found Redis back, and meanwhile counts stay local.
    const client = new Redis(redis.url);
    try {
      await until(async () => {
        await (await fetch(`${url}/api/public/v1/registers`)).arrayBuffer();
        return (await client.keys(`${prefix}:rl:*`)).length > 0;
      }, 5_000);
      await until(async () => (await client.keys(`${prefix}:probe:*`)).length > 0, 10_000);
    } finally {
      client.disconnect();
    }
    // And the probes ran again on their schedule.
    await until(async () => {
      const status = (await (await fetch(`${url}/api/public/v1/status`)).json()) as any;
      return status.registers.some((r: any) => r.lastProbe && Date.parse(r.lastProbe.at) > restartedAt);
    }, 15_000);
  });
});
