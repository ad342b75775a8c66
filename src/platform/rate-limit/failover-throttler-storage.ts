import type { OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { RedisHealth } from '../redis/redis-health.service';

type Hit = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/**
 * Counts in Redis (one count shared by every api replica) while Redis answers, and in this
 * process while it does not: each replica then enforces the limit on its own and the headers
 * say what this replica counted. A dead Redis never slows a request: the breaker (RedisHealth)
 * sends every count to memory at once, and a Redis call that fails opens it.
 */
export class FailoverThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  constructor(
    private readonly shared: ThrottlerStorage,
    private readonly local: ThrottlerStorage & Partial<OnApplicationShutdown>,
    private readonly health: RedisHealth,
  ) {}

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<Hit> {
    if (this.health.isUp()) {
      try {
        return await this.shared.increment(key, ttl, limit, blockDuration, throttlerName);
      } catch (err) {
        this.health.reportFailure(err as Error);
      }
    }
    return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  onApplicationShutdown(): void {
    // The in-memory storage's expiry timers.
    this.local.onApplicationShutdown?.();
  }
}
