import type { ThrottlerStorage } from '@nestjs/throttler';

type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;
import type Redis from 'ioredis';
import type { Clock } from '../clock';
import type { RedisHealth } from '../redis/redis-health.service';

/**
 * Throttler storages with fixed windows: a window opens at a key's first hit and lasts `ttl`;
 * every hit in it counts, refused ones included; a key over its limit is blocked exactly until
 * its window ends. So what a 200 says (`X-RateLimit-Reset`) is when a 429 ends. (The storages
 * that come with @nestjs/throttler start a block of its own duration at the first refusal, which
 * made a 429 last up to an hour longer than the last 200 had said.) `blockDuration` is ignored.
 */
function record(totalHits: number, limit: number, ttlMs: number): ThrottlerStorageRecord {
  const seconds = Math.max(1, Math.ceil(ttlMs / 1000));
  const isBlocked = totalHits > limit;
  return { totalHits, timeToExpire: seconds, isBlocked, timeToBlockExpire: isBlocked ? seconds : 0 };
}

/** In this process, on the injected clock (the embedded default; tests move the clock). */
export class MemoryFixedWindowStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, { hits: number; endsAt: number }>();

  constructor(
    private readonly clock: Pick<Clock, 'now'>,
    private readonly maxKeys = 100_000,
  ) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const now = this.clock.now().getTime();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      if (this.windows.size >= this.maxKeys) this.sweep(now);
      window = { hits: 0, endsAt: now + ttl };
      this.windows.set(key, window);
    }
    window.hits++;
    return record(window.hits, limit, window.endsAt - now);
  }

  /** Forgets ended windows; if every window is live (a flood of keys), the older half. */
  private sweep(now: number): void {
    for (const [key, w] of this.windows) if (w.endsAt <= now) this.windows.delete(key);
    let surplus = this.windows.size - Math.floor(this.maxKeys / 2);
    for (const key of this.windows.keys()) {
      if (surplus-- <= 0) break;
      this.windows.delete(key);
    }
  }
}

/** INCR and PEXPIRE in one step: one count shared by every api replica, on Redis's own clock. */
const HIT_SCRIPT = `
local hits = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {hits, ttl}`;

export class RedisFixedWindowStorage implements ThrottlerStorage {
  constructor(private readonly redis: Redis) {}

  async increment(key: string, ttl: number, limit: number): Promise<ThrottlerStorageRecord> {
    const [hits, ttlMs] = (await this.redis.eval(HIT_SCRIPT, 1, key, ttl)) as [number, number];
    return record(hits, limit, ttlMs);
  }
}

/**
 * Counts in Redis while it answers, and in this process while it does not: each replica then
 * enforces the limit on its own and the headers say what this replica counted. A dead Redis
 * never slows a request: the breaker (RedisHealth) sends every count to memory at once, and a
 * Redis call that fails opens it.
 */
export class FailoverThrottlerStorage implements ThrottlerStorage {
  constructor(
    private readonly shared: ThrottlerStorage,
    private readonly local: ThrottlerStorage,
    private readonly health: RedisHealth,
  ) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<ThrottlerStorageRecord> {
    if (this.health.isUp()) {
      try {
        return await this.shared.increment(key, ttl, limit, blockDuration, name);
      } catch (err) {
        this.health.reportFailure(err as Error);
      }
    }
    return this.local.increment(key, ttl, limit, blockDuration, name);
  }
}
