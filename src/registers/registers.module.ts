import { Module } from '@nestjs/common';
import { StatusCoreModule } from '../status/status-core.module';
import { ConnectorsModule } from './connectors.module';
import { RegistersService } from '../status/registers.service';

/** The registers list (GET /registers, the MCP tool), from the register table. */
@Module({
  imports: [ConnectorsModule, StatusCoreModule],
  providers: [RegistersService],
  exports: [RegistersService],
})
export class RegistersModule {}
