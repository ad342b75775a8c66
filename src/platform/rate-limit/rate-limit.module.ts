import { Global, Module } from '@nestjs/common';
import { Clock } from '../clock';
import { AppConfig } from '../config/app-config';
import { RedisHealth } from '../redis/redis-health.service';
import { RATE_LIMIT_STORAGE, RateLimitMiddleware } from './rate-limit.middleware';
import { FailoverThrottlerStorage, MemoryFixedWindowStorage, RedisFixedWindowStorage } from './fixed-window-storage';

/**
 * Rate-limit counts: in memory on the embedded default; with REDIS_URL, in Redis (shared by
 * replicas), falling back to memory while Redis does not answer.
 */
@Global()
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [AppConfig, RedisHealth, Clock],
      useFactory: (config: AppConfig, health: RedisHealth, clock: Clock) => {
        const local = new MemoryFixedWindowStorage(clock);
        if (!config.redisUrl) return local;
        const client = health.createClient('rate-limit', {
          keyPrefix: `${config.redisKeyPrefix}:`,
          commandTimeout: 500,
        });
        return new FailoverThrottlerStorage(new RedisFixedWindowStorage(client), local, health);
      },
    },
    RateLimitMiddleware,
  ],
  exports: [RATE_LIMIT_STORAGE, RateLimitMiddleware],
})
export class RateLimitModule {}
