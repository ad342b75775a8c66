import { Module } from '@nestjs/common';
import { WebhooksModule } from '../webhooks.module';
import { DeliveryProcessor } from './delivery.processor';
import { DeliverySweeper } from './delivery.sweeper';

/** The delivery queue in the worker: the processor, and the sweeper that wakes stranded deliveries. */
@Module({
  imports: [WebhooksModule],
  providers: [DeliveryProcessor, DeliverySweeper],
})
export class DeliveryWorkerModule {}
