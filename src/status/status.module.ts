import { DynamicModule, Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { Role } from '../core/config/app-config';
import { ConnectorsModule } from '../registers/connectors/connectors.module';
import { ProbeProcessor } from './probe.processor';
import { ProbeScheduler } from './probe.scheduler';
import { ProbeService } from './probe.service';
import { StatusCoreModule } from './status-core.module';
import { StatusReportService } from './status-report.service';
import { StatusController } from './status.controller';

/**
 * Probes and uptime. The api serves GET /status and runs no probe; the worker schedules and
 * runs probes; the all-in-one process does both.
 */
@Module({})
export class StatusModule {
  static forRole(role: Role): DynamicModule {
    const runsJobs = role !== 'api';
    return {
      module: StatusModule,
      imports: [ConnectorsModule, StatusCoreModule, ...(runsJobs ? [ScheduleModule.forRoot()] : [])],
      providers: [ProbeService, StatusReportService, ...(runsJobs ? [ProbeScheduler, ProbeProcessor] : [])],
      controllers: role === 'worker' ? [] : [StatusController],
      exports: [ProbeService, StatusReportService],
    };
  }
}
