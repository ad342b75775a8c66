import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { randomId } from '../../../platform/ids';
import { AccountGate } from '../../accounts/account-gate.service';
import type { EventKind } from '../../event-kinds';
import { DeliveryLogStore } from '../delivery/delivery-log-store';
import { DeliveryQueue } from '../delivery/delivery-queue.service';
import { EndpointStore } from '../endpoints/endpoint-store';
import { buildEnvelope, entityOf, EventData, withSequence } from './envelope';
import { EventSequenceStore } from './event-sequence-store';
import { EventStore } from './event-store';

export interface PublishInput {
  accountId: string;
  kind: EventKind;
  /** true for simulator events: always sent, marked `is_test` and `X-Service-Test: true`. */
  isTest: boolean;
  /** The envelope's `data` (see envelope.ts for the shape of each kind). */
  data: EventData;
  /**
   * Deliver to exactly these endpoints of the account (the enabled ones), whatever they are
   * subscribed to — the simulator's "send this to that endpoint". Absent: every enabled
   * endpoint of the account subscribed to the kind.
   */
  endpointIds?: string[];
}

export interface PublishedEvent {
  eventId: string;
  /** `data.sequence`: null for an event about a register. */
  sequence?: number | null;
  deliveries: Array<{ id: string; endpointId: string; messageId: string; state: 'pending' | 'held' }>;
}

/**
 * THE way to emit an event (detection, register status and the simulator all call it).
 *
 *   const published = await dataSource.transaction((m) => { …; return publisher.publish(m, input); });
 *   await publisher.wake(published);   // after the commit; or publishAndWake(input) in one call
 *
 * `publish` writes the `event` row (the envelope, serialised once: every attempt sends the
 * same bytes) and one `delivery` row per endpoint, in the CALLER's transaction — so an event
 * exists exactly when what caused it was committed. Live events of an account without an
 * approved access request are `held` (recorded, never sent); test events are always sent.
 * `wake` only enqueues; if the queue is down, the delivery sweeper finds the rows.
 */
@Injectable()
export class EventPublisher {
  private readonly logger = new Logger(EventPublisher.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountGate,
    private readonly endpoints: EndpointStore,
    private readonly events: EventStore,
    private readonly deliveries: DeliveryLogStore,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly sequences: EventSequenceStore = new EventSequenceStore(),
  ) {}

  async publish(manager: EntityManager, input: PublishInput): Promise<PublishedEvent> {
    const now = this.clock.now();
    const liveDeliverySince = await this.accounts.liveDeliverySince(manager, input.accountId);
    if (liveDeliverySince === undefined) throw new Error(`no account ${input.accountId}`);
    const endpointIds = input.endpointIds
      ? await this.endpoints.enabledAmong(manager, input.accountId, input.endpointIds)
      : await this.endpoints.subscribedTo(manager, input.accountId, input.kind);

    const eventId = randomId('evt');
    // Every event about a company is numbered per account and company, in this transaction:
    // the number is in the body, so every retry and replay sends the same one.
    const entityId = entityOf(input.data);
    const sequence = entityId ? await this.sequences.next(manager, input.accountId, entityId, input.isTest) : null;
    const data = sequence === null ? input.data : withSequence(input.data, sequence);
    const body = JSON.stringify(buildEnvelope(input.kind, input.isTest, now, data));
    await this.events.insert(manager, {
      id: eventId,
      accountId: input.accountId,
      kind: input.kind,
      isTest: input.isTest,
      body,
      createdAt: now,
      entityId,
      sequence,
    });

    const state = input.isTest || liveDeliverySince ? 'pending' : 'held';
    const deliveries = endpointIds.map(
      (endpointId) => ({ id: randomId('dlv'), endpointId, messageId: randomId('msg'), state }) as const,
    );
    await this.deliveries.insert(manager, {
      eventId,
      accountId: input.accountId,
      isTest: input.isTest,
      state,
      maxAttempts: this.config.webhooks.retrySchedule.length + 1,
      nextAttemptAt: state === 'pending' ? now : null,
      createdAt: now,
      deliveries,
    });
    return { eventId, sequence, deliveries };
  }

  /** After the commit: wakes a worker for the pending deliveries (one job for them all). Never throws (the sweeper is the fallback). */
  async wake(published: PublishedEvent): Promise<void> {
    const pending = published.deliveries.filter((d) => d.state === 'pending');
    await this.queue
      .wakeFirst(pending)
      .catch((err: Error) =>
        this.logger.warn(`could not enqueue the deliveries of ${published.eventId} (the sweeper will): ${err.message}`),
      );
  }

  /** publish in a transaction of its own, then wake. */
  async publishAndWake(input: PublishInput): Promise<PublishedEvent> {
    const published = await this.dataSource.transaction((manager) => this.publish(manager, input));
    await this.wake(published);
    return published;
  }
}
