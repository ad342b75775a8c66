import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { RedisHealthIndicator } from './redis.health';

/** Liveness and readiness checks (HealthController, in the api). */
@Module({
  imports: [TerminusModule.forRoot({ logger: false })],
  providers: [RedisHealthIndicator],
  exports: [TerminusModule, RedisHealthIndicator],
})
export class HealthModule {}
