import { DynamicModule, Module, Type } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { AdminModule } from '../platform/admin/admin.module';
import { AccessRequestsController } from '../events/accounts/access-requests.controller';
import { AccountsController } from '../events/accounts/accounts.controller';
import { AccountsModule } from '../events/accounts/accounts.module';
import { AppConfig, Role } from '../platform/config/app-config';
import { CoreModule } from '../platform/platform.module';
import { ProblemsController } from '../platform/errors/problems.controller';
import { HealthController } from '../platform/health/health.controller';
import { HealthModule } from '../platform/health/health.module';
import { JobsModule } from '../platform/jobs/jobs.module';
import { LoggingModule } from '../platform/logging/logging.module';
import { OpenApiController, OpenApiDocument } from '../platform/openapi/openapi.controller';
import { RateLimitModule } from '../platform/rate-limit/rate-limit.module';
import { DatabaseModule } from '../platform/database/database.module';
import { DatasetModule } from '../dataset/dataset.module';
import { McpController } from '../mcp/mcp.controller';
import { McpModule } from '../mcp/mcp.module';
import { DetectionWorkerModule } from '../events/monitoring/detection-worker.module';
import { MonitoringModule } from '../events/monitoring/monitoring.module';
import { WatchesController } from '../events/monitoring/watches/watches.controller';
import { RegisterListResponse } from '../status/register-list-response';
import { RegistersController } from '../status/registers.controller';
import { RegistersModule } from '../registers/registers.module';
import { SearchController } from '../search/search.controller';
import { SearchModule } from '../search/search.module';
import { SimulatorController } from '../events/simulator/simulator.controller';
import { SimulatorModule } from '../events/simulator/simulator.module';
import { ProbeWorkerModule } from '../status/probe/probe-worker.module';
import { StatusController } from '../status/status.controller';
import { StatusModule } from '../status/status.module';
import { WebController } from '../web/web.controller';
import { DeliveriesController } from '../events/webhooks/delivery/deliveries.controller';
import { DeliveryWorkerModule } from '../events/webhooks/delivery/delivery-worker.module';
import { WebhookEndpointsController } from '../events/webhooks/endpoints/webhook-endpoints.controller';
import { EventsController } from '../events/webhooks/events/events.controller';
import { WebhooksModule } from '../events/webhooks/webhooks.module';

/**
 * What every process shares: configuration, logs, the database, the job queues and the
 * feature modules with their services (immich's `commonImports`). Feature modules are static;
 * only the core ones take the configuration.
 */
function commonImports(config: AppConfig): Array<Type | DynamicModule> {
  return [
    CoreModule.forConfig(config),
    LoggingModule.forConfig(config),
    DatabaseModule.forConfig(config),
    AdminModule.forConfig(config),
    JobsModule.forConfig(config),
    RegistersModule,
    StatusModule,
    DatasetModule,
    SearchModule,
    AccountsModule,
    WebhooksModule,
    SimulatorModule,
    MonitoringModule,
  ];
}

/** HTTP: the modules only the api needs, and every controller. */
const API_IMPORTS = [RateLimitModule, HealthModule, McpModule];
const API_CONTROLLERS = [
  RegistersController,
  StatusController,
  SearchController,
  McpController,
  AccountsController,
  AccessRequestsController,
  WebhookEndpointsController,
  DeliveriesController,
  EventsController,
  SimulatorController,
  WatchesController,
  OpenApiController,
  ProblemsController,
  HealthController,
  WebController,
];
/** RegisterListResponse: also the answer to the plain GET /registers ahead of the router (http-app.ts). */
const API_PROVIDERS = [OpenApiDocument, RegisterListResponse];

/** Jobs: the schedules (they only enqueue) and the processors, one worker module per queue. */
const WORKER_IMPORTS = [ScheduleModule.forRoot(), ProbeWorkerModule, DeliveryWorkerModule, DetectionWorkerModule];

/** `npm run start:api`: serves HTTP, runs no processor and no schedule. */
@Module({})
export class ApiModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: ApiModule,
      imports: [...commonImports(config), ...API_IMPORTS],
      controllers: API_CONTROLLERS,
      providers: API_PROVIDERS,
    };
  }
}

/** `npm run start:worker`: processors and schedules; opens no port. */
@Module({})
export class WorkerModule {
  static forConfig(config: AppConfig): DynamicModule {
    return { module: WorkerModule, imports: [...commonImports(config), ...WORKER_IMPORTS] };
  }
}

/** `npm start`: both in one process (the embedded default). */
@Module({})
export class AppModule {
  static forConfig(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [...commonImports(config), ...API_IMPORTS, ...WORKER_IMPORTS],
      controllers: API_CONTROLLERS,
      providers: API_PROVIDERS,
    };
  }
}

/** The root module of a role. */
export function rootModuleFor(role: Role, config: AppConfig): DynamicModule {
  switch (role) {
    case 'api':
      return ApiModule.forConfig(config);
    case 'worker':
      return WorkerModule.forConfig(config);
    case 'all':
      return AppModule.forConfig(config);
  }
}
