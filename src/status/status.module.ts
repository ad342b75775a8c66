import { Module } from '@nestjs/common';
import { GleifModule } from '../registers/lei/gleif.module';
import { ProbeStore } from './probe-store';
import { ProbeService } from './probe/probe.service';
import { RegisterListResponse } from './register-list-response';
import { RegisterStateStore } from './register-state-store';
import { RegisterStatusService } from './register-status.service';
import { RegistersController } from './registers.controller';
import { RegistersService } from './registers.service';
import { StatusReportService } from './status-report.service';
import { StatusController } from './status.controller';
import { StatusMetrics } from './status-metrics';

/**
 * Each register's health (and the LEI index's): the status probes and configuration leave it
 * in, the probe itself (run by the probe worker), uptime (GET /status), and the register list
 * with health (GET /registers, the MCP tool).
 */
@Module({
  imports: [GleifModule],
  controllers: [StatusController, RegistersController],
  providers: [
    ProbeStore,
    RegisterStateStore,
    RegisterStatusService,
    ProbeService,
    StatusReportService,
    RegistersService,
    RegisterListResponse,
    StatusMetrics,
  ],
  exports: [RegisterStatusService, ProbeService, StatusReportService, RegistersService, RegisterListResponse],
})
export class StatusModule {}
