import { Module } from '@nestjs/common';
import { SearchModule } from '../../search/search.module';
import { WebhooksModule } from '../webhooks/webhooks.module';
import { SampleEvents } from './sample-events';
import { SimulatorService } from './simulator.service';

/** The webhook simulator's API: test events from real company data, sent now. */
@Module({
  imports: [WebhooksModule, SearchModule],
  providers: [SampleEvents, SimulatorService],
  exports: [SimulatorService],
})
export class SimulatorModule {}
