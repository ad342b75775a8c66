import { DynamicModule, MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { AppConfig, Role } from './core/config/app-config';
import { CoreModule } from './core/core.module';
import { ProblemsController } from './core/errors/problems.controller';
import { HealthModule } from './core/health/health.module';
import { JobsModule } from './core/jobs/jobs.module';
import { LoggingModule } from './core/logging/logging.module';
import { OpenApiController, OpenApiDocument } from './core/openapi/openapi.controller';
import { RateLimitMiddleware } from './core/rate-limit/rate-limit.middleware';
import { RateLimitModule } from './core/rate-limit/rate-limit.module';
import { DatabaseModule } from './database/database.module';
import { McpModule } from './mcp/mcp.module';
import { RegistersModule } from './registers/registers.module';
import { SearchModule } from './search/search.module';
import { StatusModule } from './status/status.module';

/** Everything that answers HTTP: rate limit on /api/public/v1, docs, health. */
@Module({
  imports: [RateLimitModule, HealthModule, McpModule],
  controllers: [OpenApiController, ProblemsController],
  providers: [OpenApiDocument],
  exports: [OpenApiDocument],
})
export class HttpModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(RateLimitMiddleware).forRoutes({ path: 'api/public/v1/*path', method: RequestMethod.ALL }, { path: 'api/public/v1', method: RequestMethod.ALL });
  }
}

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
