import { Module } from '@nestjs/common';
import { ConnectorsModule } from '../registers/connectors.module';
import { RegisterStatusService } from './register-status.service';

/** The register status as probes and configuration leave it; read by /registers, /status and search. */
@Module({
  imports: [ConnectorsModule],
  providers: [RegisterStatusService],
  exports: [RegisterStatusService],
})
export class StatusCoreModule {}
