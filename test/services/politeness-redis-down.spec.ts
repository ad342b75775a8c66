import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadConfig } from '../../src/app/config';
import { RedisHealth } from '../../src/platform/redis/redis-health.service';
import { HttpClientFactory } from '../../src/registers/client/http-client.factory';
import { FakeRegister } from '../support/fake-register';
import { OwnRedis } from '../support/processes';

jest.setTimeout(60_000);

const HAS_REDIS_SERVER = spawnSync('redis-server', ['--version']).status === 0;
const suite = HAS_REDIS_SERVER ? describe : describe.skip;

/**
 * Redis killed while register reads wait their turn in the shared politeness queue: the reads
 * go on in this process's own queue, and nothing the shared limiter leaves behind rejects
 * unhandled (which ends a Node process: the service died so, once in a CI run of
 * redis-restart.spec).
 */
suite('register reads waiting in the shared politeness queue when Redis dies', () => {
  const fake = new FakeRegister();
  let redis: OwnRedis;
  let health: RedisHealth;
  let http: HttpClientFactory;
  const unhandled: unknown[] = [];
  const record = (reason: unknown) => unhandled.push(reason);

  beforeAll(async () => {
    process.on('unhandledRejection', record);
    redis = await OwnRedis.start();
    await fake.start();
    // Slow answers: with GB WEB's two at a time, the other reads wait in the queue.
    fake.get(() => true, { body: '<html></html>', headers: { 'Content-Type': 'text/html' }, delayMs: 1_500 });
    const { app: config, registers } = loadConfig({
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: `rldown-${randomBytes(4).toString('hex')}`,
      REGISTER_GB_WEB_URL: fake.url,
    });
    health = new RedisHealth(config);
    http = new HttpClientFactory(config, registers, undefined, health);
    const deadline = Date.now() + 5_000;
    while (!health.isUp() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(health.isUp()).toBe(true);
  });
  afterAll(async () => {
    http?.onApplicationShutdown();
    health?.onApplicationShutdown();
    await redis?.kill();
    await fake.stop();
    process.off('unhandledRejection', record);
  });

  it('finishes every read in this process’s own queue, and nothing rejects unhandled', async () => {
    const client = http.forRegister('GB', 'WEB', { retries: 0 });
    const reads = Array.from({ length: 6 }, (_, i) => client.get(`/company/${i}`));
    // Two are at the register, four wait for their turn in Redis.
    const deadline = Date.now() + 5_000;
    while (fake.requests.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(fake.requests).toHaveLength(2);
    await redis.kill();
    const answers = await Promise.allSettled(reads);
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill('fulfilled'));
    expect(fake.requests).toHaveLength(6);
    expect(health.isUp()).toBe(false);
    // The limiter's connections retry and give up on their commands after Redis is gone.
    await new Promise((r) => setTimeout(r, 4_000));
    expect(unhandled).toEqual([]);
  });
});
