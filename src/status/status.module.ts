import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../registers/connectors.module';
import { ProbeService } from './probe/probe.service';
import { StatusCoreModule } from './status-core.module';
import { StatusReportService } from './status-report.service';

/** Probes and uptime: the probe itself (run by the probe worker) and the /status report. */
@Module({
  imports: [ConnectorsModule, StatusCoreModule],
  providers: [ProbeService, StatusReportService],
  exports: [ProbeService, StatusReportService, StatusCoreModule],
})
export class StatusModule {}
