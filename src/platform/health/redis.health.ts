import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { AppConfig } from '../config/app-config';
import { RedisHealth } from '../redis/redis-health.service';

/** Redis in readiness (when REDIS_URL is set): what the Redis breaker knows, then one PING. */
@Injectable()
export class RedisHealthIndicator {
  constructor(
    private readonly config: AppConfig,
    private readonly redis: RedisHealth,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async pingCheck(key: string, timeoutMs = 1_000) {
    const check = this.indicators.check(key);
    if (!this.config.redisUrl) return check.up({ mode: 'not used (in-process jobs, in-memory rate limits)' });
    if (!this.redis.isUp()) {
      const since = this.redis.since;
      return check.down({ message: since ? `not answering since ${since.toISOString()}` : 'not connected yet' });
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.redis.ping(),
        new Promise(
          (_, reject) => (timer = setTimeout(() => reject(new Error(`timeout of ${timeoutMs}ms exceeded`)), timeoutMs)),
        ),
      ]);
      return check.up();
    } catch (err) {
      this.redis.reportFailure(err as Error);
      return check.down({ message: (err as Error).message });
    } finally {
      clearTimeout(timer);
    }
  }
}
