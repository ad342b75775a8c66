import { Logger, Module, OnModuleInit } from '@nestjs/common';
import { AccountsModule } from '../accounts/accounts.module';
import { DeliveriesController } from './delivery/deliveries.controller';
import { Deliverer } from './delivery/deliverer.service';
import { DeliveryLogService } from './delivery/delivery-log.service';
import { DeliveryMetrics } from './delivery/delivery-metrics';
import { DeliveryLogStore } from './delivery/delivery-log-store';
import { DeliveryQueue } from './delivery/delivery-queue.service';
import { DeliveryOutcomes } from './delivery/delivery-outcomes';
import { DeliveryStore } from './delivery/delivery-store';
import { EndpointStore } from './endpoints/endpoint-store';
import { WebhookEndpointsController } from './endpoints/webhook-endpoints.controller';
import { WebhookEndpointsService } from './endpoints/webhook-endpoints.service';
import { EventPublisher } from './events/event-publisher.service';
import { EventsController } from './events/events.controller';
import { EventsService } from './events/events.service';
import { EventStore } from './events/event-store';
import { EventSequenceStore } from './events/event-sequence-store';
import { TestEventSender } from './events/test-event-sender.service';
import { DnsResolver } from './outbound/dns-resolver';
import { TargetGuard } from './outbound/target-guard.service';

/**
 * Webhook endpoints, the event publisher (the outbox), the delivery log, one attempt of a
 * delivery, and test events sent now. Other modules emit events through EventPublisher and
 * send test events through TestEventSender; the MCP server reads an account's events through
 * EventsService; the rest is this module's own.
 */
@Module({
  imports: [AccountsModule],
  controllers: [WebhookEndpointsController, DeliveriesController, EventsController],
  providers: [
    EndpointStore,
    EventStore,
    EventSequenceStore,
    DeliveryLogStore,
    DnsResolver,
    TargetGuard,
    DeliveryQueue,
    DeliveryStore,
    DeliveryOutcomes,
    DeliveryMetrics,
    Deliverer,
    EventPublisher,
    EventsService,
    WebhookEndpointsService,
    DeliveryLogService,
    TestEventSender,
  ],
  exports: [EventPublisher, EventsService, TestEventSender, Deliverer, DeliveryQueue, DeliveryStore],
})
export class WebhooksModule implements OnModuleInit {
  private readonly logger = new Logger(WebhooksModule.name);

  constructor(private readonly endpoints: EndpointStore) {}

  /** Secrets stored in clear (before sealing) or with an older key are sealed with the current one. */
  async onModuleInit(): Promise<void> {
    const { sealed, unreadable } = await this.endpoints.resealSecrets();
    if (sealed > 0) this.logger.log(`sealed ${sealed} webhook signing secret(s) with the current WEBHOOK_SECRETS_KEY`);
    if (unreadable > 0)
      this.logger.error(
        `${unreadable} webhook signing secret(s) are sealed with a key this process does not hold: their endpoints cannot sign until that key is in WEBHOOK_SECRETS_OLD_KEYS`,
      );
  }
}
