import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startProcess, Started, waitForHttp } from '../support/processes';
import { MODE, unreachableRegisters } from '../support/test-app';

jest.setTimeout(120_000);

/** Log lines about Redis (not request logs). */
function redisLines(output: string): string[] {
  return output.split('\n').filter((l) => /redis|ioredis|ECONNREFUSED/i.test(l) && !l.includes('"req"'));
}

// Runs once (the embedded database underneath; Redis is what this is about), as its own OS process.
const suite = MODE === 'embedded' ? describe : describe.skip;

suite('an api whose REDIS_URL does not answer', () => {
  let dir: string;
  let api: Started;
  let url: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rl-redis-down-'));
    const closed = await freePort();
    const port = await freePort();
    api = startProcess('main.js', ['--role=api'], {
      ...unreachableRegisters(),
      DATA_DIR: join(dir, 'data'),
      REDIS_URL: `redis://127.0.0.1:${closed}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      RATE_LIMIT_PER_HOUR: '120',
    });
    url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/health/live`, api, 60_000);
  });
  afterAll(async () => {
    await api?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers fast, counts the limit in the process with truthful headers, logs one line and stays not ready', async () => {
    const started = Date.now();
    const latencies: number[] = [];
    const remaining: string[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 130; i++) {
      const t0 = performance.now();
      const res = await fetch(`${url}/api/public/v1/registers`);
      await res.arrayBuffer();
      latencies.push(performance.now() - t0);
      statuses.push(res.status);
      remaining.push(res.headers.get('x-ratelimit-remaining') ?? '');
    }
    latencies.sort((a, b) => a - b);
    const p99 = latencies[Math.floor(latencies.length * 0.99) - 1];
    expect(p99).toBeLessThan(250);
    expect(statuses.slice(0, 120).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(120).every((s) => s === 429)).toBe(true);
    expect(remaining.slice(0, 120)).toEqual(Array.from({ length: 120 }, (_, i) => String(119 - i)));

    const ready = await fetch(`${url}/health/ready`);
    expect(ready.status).toBe(503);
    expect(((await ready.json()) as any).checks.redis).toMatchObject({
      status: 'down',
      message: expect.stringMatching(/^not answering since /),
    });

    // Several seconds of reconnection attempts later, still the one line.
    await new Promise((r) => setTimeout(r, Math.max(0, 6_000 - (Date.now() - started))));
    const lines = redisLines(api.output());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/Redis does not answer \(ECONNREFUSED.*rate limits are counted in this process/);
  });
});
