import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, DiscoveryModule } from '@nestjs/core';
import { Clock } from './clock';
import { AppConfig } from './config/app-config';
import { ProblemDetailsFilter } from './errors/problem-details.filter';
import { RouteIndex } from './errors/route-index';
import { HttpClientFactory } from '../registers/client/http-client.factory';
import { RegisterBreaker } from '../registers/client/register-breaker';
import { RedisHealth } from './redis/redis-health.service';

/** What every module of both processes shares: typed config, the clock, the register HTTP client factory, the Redis breaker, the error filter. */
@Global()
@Module({})
export class CoreModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: CoreModule,
      imports: [DiscoveryModule],
      providers: [
        { provide: AppConfig, useValue: config },
        Clock,
        HttpClientFactory,
        RegisterBreaker,
        RedisHealth,
        RouteIndex,
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
      ],
      exports: [AppConfig, Clock, HttpClientFactory, RegisterBreaker, RedisHealth, RouteIndex],
    };
  }
}
