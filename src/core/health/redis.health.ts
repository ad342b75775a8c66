import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import Redis from 'ioredis';
import { AppConfig } from '../config/app-config';

/** Pings Redis (when REDIS_URL is set) on a connection of its own. */
@Injectable()
export class RedisHealthIndicator implements OnApplicationShutdown {
  private client?: Redis;

  constructor(
    private readonly config: AppConfig,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async pingCheck(key: string, timeoutMs = 1_000) {
    const check = this.indicators.check(key);
    if (!this.config.redisUrl) return check.up({ mode: 'not used (in-process jobs, in-memory rate limits)' });
    this.client ??= new Redis(this.config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false, connectTimeout: timeoutMs });
    try {
      if (this.client.status === 'wait' || this.client.status === 'end') await this.client.connect();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        this.client.ping(),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`timeout of ${timeoutMs}ms exceeded`)), timeoutMs))),
      ]).finally(() => clearTimeout(timer));
      return check.up();
    } catch (err) {
      return check.down({ message: (err as Error).message });
    }
  }

  onApplicationShutdown(): void {
    this.client?.disconnect();
  }
}
