import { Module } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { Deliverer } from './delivery/deliverer.service';
import { DeliveryLogService } from './delivery/delivery-log.service';
import { DeliveryQueue } from './delivery/delivery-queue.service';
import { DeliveryOutcomes } from './delivery/delivery-outcomes';
import { DeliveryStore } from './delivery/delivery-store';
import { WebhookEndpointsService } from './endpoints/webhook-endpoints.service';
import { EventPublisher } from './events/event-publisher.service';
import { EventsService } from './events/events.service';
import { DnsResolver } from './outbound/dns-resolver';
import { TargetGuard } from './outbound/target-guard.service';

/**
 * Webhook endpoints, the event publisher (the outbox), the delivery log, and one attempt of
 * a delivery (Deliverer: used by the worker's processor and by the simulator in the api).
 * Other modules emit events through EventPublisher only.
 */
@Module({
  imports: [AccountsModule],
  providers: [
    DnsResolver,
    TargetGuard,
    DeliveryQueue,
    DeliveryStore,
    DeliveryOutcomes,
    Deliverer,
    EventPublisher,
    EventsService,
    WebhookEndpointsService,
    DeliveryLogService,
  ],
  exports: [
    EventPublisher,
    Deliverer,
    DeliveryQueue,
    DeliveryStore,
    WebhookEndpointsService,
    EventsService,
    DeliveryLogService,
    AccountsModule,
    DnsResolver,
  ],
})
export class WebhooksModule {}
