import { Module } from '@nestjs/common';
import { ThrottlerStorageRedisService } from '@nest-lab/throttler-storage-redis';
import { ThrottlerStorageService } from '@nestjs/throttler';
import { AppConfig } from '../config/app-config';
import { RATE_LIMIT_STORAGE, RateLimitMiddleware } from './rate-limit.middleware';

/** Rate-limit storage: in memory on the embedded default, Redis (shared by replicas) with REDIS_URL. */
@Module({
  providers: [
    {
      provide: RATE_LIMIT_STORAGE,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        config.redisUrl
          ? new ThrottlerStorageRedisService(config.redisUrl, { keyPrefix: `${config.redisKeyPrefix}:`, maxRetriesPerRequest: 2 })
          : new ThrottlerStorageService(),
    },
    RateLimitMiddleware,
  ],
  exports: [RATE_LIMIT_STORAGE, RateLimitMiddleware],
})
export class RateLimitModule {}
