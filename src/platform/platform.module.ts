import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import { Clock } from './clock';
import { AppConfig } from './config/app-config';
import { ProblemDetailsFilter } from './errors/problem-details.filter';
import { RouteIndex } from './errors/route-index';
import { PublicAddress } from './http/public-address';
import { RedisHealth } from './redis/redis-health.service';

/** What every module of every process shares: typed config, the clock, the Redis breaker, the error filter. */
@Global()
@Module({})
export class PlatformModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: PlatformModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: AppConfig, useValue: config },
        Clock,
        RedisHealth,
        RouteIndex,
        PublicAddress,
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
      ],
      exports: [AppConfig, Clock, RedisHealth, RouteIndex, PublicAddress],
    };
  }
}
