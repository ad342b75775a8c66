import { loadConfig } from '../../src/app/config';
import { randomBytes } from 'node:crypto';
import { HttpClientFactory } from '../../src/registers/client/http-client.factory';
import { RedisHealth } from '../../src/platform/redis/redis-health.service';
import { findRegister } from '../../src/registers/registers';
import { HAS_SERVICES } from '../support/database';
import { FakeRegister } from '../support/fake-register';

jest.setTimeout(60_000);

const suite = HAS_SERVICES ? describe : describe.skip;

/** Two processes' HTTP client factories (each with its own Redis connections) reading one register. */
suite('register politeness shared by every process through Redis', () => {
  const fake = new FakeRegister();
  const parts: Array<{ health: RedisHealth; http: HttpClientFactory }> = [];

  beforeAll(async () => {
    await fake.start();
    fake.get(() => true, { body: '<html></html>', headers: { 'Content-Type': 'text/html' } });
    const env = {
      REDIS_URL: process.env.REDIS_URL!,
      REDIS_KEY_PREFIX: `rlpolite-${randomBytes(4).toString('hex')}`,
      REGISTER_GB_WEB_URL: fake.url,
      REGISTER_FI_API_URL: fake.url,
    };
    for (let i = 0; i < 2; i++) {
      const { app: config, registers } = loadConfig(env);
      const health = new RedisHealth(config);
      parts.push({ health, http: new HttpClientFactory(config, registers, undefined, health) });
    }
    const deadline = Date.now() + 5_000;
    while (!parts.every((p) => p.health.isUp()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(parts.every((p) => p.health.isUp())).toBe(true);
  });
  afterAll(async () => {
    for (const p of parts) {
      p.http.onApplicationShutdown();
      p.health.onApplicationShutdown();
    }
    await fake.stop();
  });

  beforeEach(() => fake.requests.splice(0));

  it.each([
    ['GB', 'WEB'],
    ['FI', 'API'],
  ] as const)('two processes together keep %s %s’s spacing, not twice its rate', async (cc, purpose) => {
    const { minTimeMs } = findRegister(cc)!.endpoints[purpose].politeness;
    expect(minTimeMs).toBeGreaterThanOrEqual(200);
    const clients = parts.map((p) => p.http.forRegister(cc, purpose, { retries: 0 }));
    await Promise.all(clients.flatMap((c, i) => Array.from({ length: 4 }, (_, j) => c.get(`/company/${i}${j}`))));
    const starts = fake.requests.map((r) => r.at).sort((a, b) => a - b);
    expect(starts).toHaveLength(8);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]);
    // Bottleneck spaces starts by minTime across the cluster. Arrival times carry event-loop jitter
    // on a loaded machine (one late arrival shortens one gap), so judge the median gap and the span:
    // without sharing, the two processes' requests arrive in pairs (median gap near 0, span 3 × minTime).
    const median = [...gaps].sort((a, b) => a - b)[3];
    expect(median).toBeGreaterThanOrEqual(minTimeMs * 0.8);
    expect(starts[starts.length - 1] - starts[0]).toBeGreaterThanOrEqual(5 * minTimeMs);
  });
});
