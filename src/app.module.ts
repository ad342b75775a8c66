import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, Role } from './core/config/app-config';
import { CoreModule } from './core/core.module';
import { ProblemsController } from './core/errors/problems.controller';
import { HealthModule } from './core/health/health.module';
import { JobsModule } from './core/jobs/jobs.module';
import { LoggingModule } from './core/logging/logging.module';
import { OpenApiController, OpenApiDocument } from './core/openapi/openapi.controller';
import { RateLimitModule } from './core/rate-limit/rate-limit.module';
import { DatabaseModule } from './database/database.module';
import { McpModule } from './mcp/mcp.module';
import { RegistersModule } from './registers/registers.module';
import { SearchModule } from './search/search.module';
import { StatusModule } from './status/status.module';

/** Everything that answers HTTP: docs, health, problems (the rate limit is mounted in http-app.ts). */
@Module({
  imports: [RateLimitModule, HealthModule, McpModule],
  controllers: [OpenApiController, ProblemsController],
  providers: [OpenApiDocument],
  exports: [OpenApiDocument],
})
export class HttpModule {}

/**
 * One application, three roles: `api` serves HTTP and runs no job or schedule; `worker` runs
 * processors and schedules and opens no port; `all` (npm start, the embedded default) does both.
 */
@Module({})
export class AppModule {
  static forRole(role: Role, config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        CoreModule.forConfig(config),
        LoggingModule.forConfig(config),
        DatabaseModule.forConfig(config),
        JobsModule.forConfig(config),
        RegistersModule.forRole(role),
        StatusModule.forRole(role),
        SearchModule.forRole(role),
        ...(role === 'worker' ? [] : [HttpModule]),
      ],
    };
  }
}
