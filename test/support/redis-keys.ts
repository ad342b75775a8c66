import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';

/** A Redis key prefix of a test's own, and the call that deletes its keys afterwards. */
export interface TestRedisPrefix {
  prefix: string;
  drop: () => Promise<void>;
}

/**
 * A random key prefix for a test's processes (Bull queues, counts, locks), named by `tag`;
 * `drop` deletes every key under it, as the test's database is dropped: a long-lived Redis
 * would otherwise keep every run's, with no TTL.
 */
export function testRedisPrefix(tag: string): TestRedisPrefix {
  const prefix = `${tag}-${randomBytes(4).toString('hex')}`;
  return { prefix, drop: () => deleteRedisKeys(process.env.REDIS_URL, prefix) };
}

/**
 * Deletes the keys of a prefix a test made up. Best effort, after the processes using it
 * have stopped: a test never fails on it, and a gone or stalled Redis is given 2 s.
 */
async function deleteRedisKeys(url: string | undefined, prefix: string): Promise<void> {
  if (!url) return;
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: `${prefix}:*`, count: 1_000 }) as AsyncIterable<string[]>)
      if (keys.length > 0) await redis.unlink(...keys);
  } catch {
    /* the Redis is gone or stalled: nothing to tidy */
  } finally {
    redis.disconnect();
  }
}
