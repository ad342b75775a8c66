import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { SearchModule } from '../../search/search.module';
import { MonitoringModule } from '../monitoring/monitoring.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { SampleEvents } from './sample-events';
import { SimulatorController } from './simulator.controller';
import { SimulatorService } from './simulator.service';

/** The webhook simulator's API: test events from real company data, sent now. */
@Module({
  imports: [AccountsModule, WebhooksModule, SearchModule, MonitoringModule],
  controllers: [SimulatorController],
  providers: [SampleEvents, SimulatorService],
})
export class SimulatorModule {}
