import { DynamicModule, Global, Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { Clock } from './clock';
import { randomBytes } from 'node:crypto';
import { AppConfig, ConfigError } from './config/app-config';
import { ProblemDetailsFilter } from './errors/problem-details.filter';
import { RouteIndex } from './errors/route-index';
import { embeddedSecretsKey, SecretBox } from './crypto/secret-box';
import { PublicAddress } from './http/public-address';
import { MetricsModule } from './metrics/metrics.module';
import { RedisHealth } from './redis/redis-health.service';
import { UndeclaredQueryInterceptor } from './validation/undeclared-query.interceptor';

/**
 * What every module of every process shares: typed config, the clock, the Redis breaker, the
 * error filter, the metrics, and the account API's refusal of a query parameter a route does not take.
 */
@Global()
@Module({})
export class PlatformModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: PlatformModule,
      imports: [DiscoveryModule, MetricsModule.forRoot()],
      providers: [
        { provide: AppConfig, useValue: config },
        Clock,
        RedisHealth,
        RouteIndex,
        PublicAddress,
        { provide: SecretBox, useFactory: () => secretBoxFor(config) },
        { provide: APP_FILTER, useClass: ProblemDetailsFilter },
        { provide: APP_INTERCEPTOR, useClass: UndeclaredQueryInterceptor },
      ],
      exports: [AppConfig, Clock, RedisHealth, RouteIndex, PublicAddress, SecretBox],
    };
  }
}

/**
 * The key of the secrets at rest: WEBHOOK_SECRETS_KEY; on the embedded default without it, the
 * one kept in DATA_DIR (a database in memory gets one for its life).
 */
function secretBoxFor(config: AppConfig): SecretBox {
  const { current, old } = config.secretsKeys;
  if (current) return new SecretBox(current, old);
  if (config.databaseUrl) throw new ConfigError([SECRETS_KEY_REQUIRED]);
  if (config.dataDir === 'memory://') return new SecretBox(randomBytes(32), old);
  return new SecretBox(embeddedSecretsKey(config.dataDir), old);
}

export const SECRETS_KEY_REQUIRED =
  'WEBHOOK_SECRETS_KEY: required with DATABASE_URL, the same in every process (32 random bytes in base64: openssl rand -base64 32)';
