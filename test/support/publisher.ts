import type { DataSource } from 'typeorm';
import { AccountGate } from '../../src/events/accounts/account-gate.service';
import { AccountStore } from '../../src/events/accounts/account-store';
import { DeliveryLogStore } from '../../src/events/webhooks/delivery/delivery-log-store';
import type { DeliveryQueue } from '../../src/events/webhooks/delivery/delivery-queue.service';
import { EndpointStore } from '../../src/events/webhooks/endpoints/endpoint-store';
import { EventPublisher } from '../../src/events/webhooks/events/event-publisher.service';
import { EventStore } from '../../src/events/webhooks/events/event-store';
import { Clock } from '../../src/platform/clock';
import type { AppConfig } from '../../src/platform/config/app-config';
import { testSecretBox } from './secrets';

/** The publisher on a test database, for `publish(manager, …)` only: it wakes no queue. */
export function testPublisher(dataSource: DataSource, config: AppConfig): EventPublisher {
  return new EventPublisher(
    dataSource,
    new AccountGate(new AccountStore()),
    new EndpointStore(dataSource, testSecretBox()),
    new EventStore(dataSource),
    new DeliveryLogStore(dataSource),
    {} as DeliveryQueue,
    new Clock(),
    config,
  );
}
