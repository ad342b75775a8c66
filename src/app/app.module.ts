import { DynamicModule, Module, Type } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { DatasetModule } from '../dataset/dataset.module';
import { AccountsModule } from '../events/accounts/accounts.module';
import { DetectionWorkerModule } from '../events/monitoring/detection-worker.module';
import { MonitoringModule } from '../events/monitoring/monitoring.module';
import { SimulatorModule } from '../events/simulator/simulator.module';
import { DeliveryWorkerModule } from '../events/webhooks/delivery/delivery-worker.module';
import { WebhooksModule } from '../events/webhooks/webhooks.module';
import { LeiModule } from '../lei/lei.module';
import { McpModule } from '../mcp/mcp.module';
import { AdminModule } from '../platform/admin/admin.module';
import type { Role } from '../platform/config/app-config';
import { DatabaseModule } from '../platform/database/database.module';
import { HealthModule } from '../platform/health/health.module';
import { JobsModule } from '../platform/jobs/jobs.module';
import { LoggingModule } from '../platform/logging/logging.module';
import { ApiDocsModule } from '../platform/openapi/api-docs.module';
import { PlatformModule } from '../platform/platform.module';
import { RateLimitModule } from '../platform/rate-limit/rate-limit.module';
import { RegistersModule } from '../registers/registers.module';
import { SearchModule } from '../search/search.module';
import { StatusModule } from '../status/status.module';
import { ProbeWorkerModule } from '../status/probe/probe-worker.module';
import { WebModule } from '../web/web.module';
import { ADMIN_COMMAND_LIST } from './admin-commands';
import type { Configs } from './config';
import { DATABASE_SCHEMA } from './database-schema';
import { QUEUES } from './queues';

/**
 * What every process shares: configuration, logs, the database, the job queues, the rate-limit
 * counts and the registers (immich's `commonImports`).
 */
function platformImports({ app, registers }: Configs): Array<Type | DynamicModule> {
  return [
    PlatformModule.forConfig(app),
    LoggingModule.forConfig(app),
    DatabaseModule.forConfig(app, DATABASE_SCHEMA),
    AdminModule.forConfig(app, ADMIN_COMMAND_LIST),
    JobsModule.forConfig(app, QUEUES),
    RateLimitModule,
    RegistersModule.forConfig(registers),
  ];
}

/** HTTP: the features with their routes. */
const API_FEATURES = [
  StatusModule,
  SearchModule,
  LeiModule,
  McpModule,
  AccountsModule,
  WebhooksModule,
  MonitoringModule,
  SimulatorModule,
  WebModule,
  HealthModule,
  ApiDocsModule,
];

/** Jobs: the schedules (they only enqueue) and the processors, one worker module per queue. */
const WORKER_FEATURES = [
  ScheduleModule.forRoot(),
  DatasetModule,
  ProbeWorkerModule,
  DeliveryWorkerModule,
  DetectionWorkerModule,
];

/** `npm run start:api`: serves HTTP, runs no processor and no schedule. */
@Module({})
export class ApiModule {
  static forConfig(configs: Configs): DynamicModule {
    return { module: ApiModule, imports: [...platformImports(configs), ...API_FEATURES] };
  }
}

/** `npm run start:worker`: processors and schedules; opens no port. */
@Module({})
export class WorkerModule {
  static forConfig(configs: Configs): DynamicModule {
    return { module: WorkerModule, imports: [...platformImports(configs), ...WORKER_FEATURES] };
  }
}

/** `npm start`: both in one process (the embedded default). */
@Module({})
export class AppModule {
  static forConfig(configs: Configs): DynamicModule {
    return { module: AppModule, imports: [...platformImports(configs), ...API_FEATURES, ...WORKER_FEATURES] };
  }
}

/** The root module of a role. */
export function rootModuleFor(role: Role, configs: Configs): DynamicModule {
  switch (role) {
    case 'api':
      return ApiModule.forConfig(configs);
    case 'worker':
      return WorkerModule.forConfig(configs);
    case 'all':
      return AppModule.forConfig(configs);
  }
}
