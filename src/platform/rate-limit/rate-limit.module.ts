import { Global, Module } from '@nestjs/common';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { RedisHealth } from '../redis/redis-health.service';
import { FailoverThrottlerStorage } from './failover-throttler-storage';
import { RATE_LIMIT_STORAGE, RateLimitMiddleware } from './rate-limit.middleware';

/**
 * Rate-limit storage: in memory on the embedded default; with REDIS_URL, Redis (shared by
 * replicas), falling back to memory while Redis does not answer.
 */
@Global()
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [AppConfig, RedisHealth],
      useFactory: (config: AppConfig, health: RedisHealth) => {
        if (!config.redisUrl) return new ThrottlerStorageService();
        const client = health.createClient('rate-limit', {
          keyPrefix: `${config.redisKeyPrefix}:`,
          commandTimeout: 500,
        });
        return new FailoverThrottlerStorage(
          new ThrottlerStorageRedisService(client),
          new ThrottlerStorageService(),
          health,
        );
      },
    },
    RateLimitMiddleware,
  ],
  exports: [RATE_LIMIT_STORAGE, RateLimitMiddleware],
})
export class RateLimitModule {}
