import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { randomId } from '../../../platform/ids';
import { DeliveryQueue } from '../delivery/delivery-queue.service';
import { buildEnvelope, EventData } from './envelope';
import type { EventKind } from '../../event-kinds';

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
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async publish(manager: EntityManager, input: PublishInput): Promise<PublishedEvent> {
    const now = this.clock.now();
    const accounts: Array<{ live_delivery_since: Date | null }> = await manager.query(
      `SELECT live_delivery_since FROM account WHERE id = $1`,
      [input.accountId],
    );
    if (accounts.length === 0) throw new Error(`no account ${input.accountId}`);
    const endpoints: Array<{ id: string }> = input.endpointIds
      ? await manager.query(
          `SELECT id FROM webhook_endpoint WHERE account_id = $1 AND enabled AND id = ANY($2::text[]) ORDER BY created_at, id`,
          [input.accountId, input.endpointIds],
        )
      : await manager.query(
          `SELECT id FROM webhook_endpoint WHERE account_id = $1 AND enabled AND $2 = ANY(events) ORDER BY created_at, id`,
          [input.accountId, input.kind],
        );

    const eventId = randomId('evt');
    const body = JSON.stringify(buildEnvelope(input.kind, input.isTest, now, input.data));
    await manager.query(
      `INSERT INTO event (id, account_id, kind, is_test, body, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [eventId, input.accountId, input.kind, input.isTest, body, now],
    );

    const state = input.isTest || accounts[0].live_delivery_since ? 'pending' : 'held';
    const deliveries = endpoints.map(
      (e) => ({ id: randomId('dlv'), endpointId: e.id, messageId: randomId('msg'), state }) as const,
    );
    if (deliveries.length) {
      await manager.query(
        `INSERT INTO delivery (id, event_id, endpoint_id, account_id, message_id, is_test, state, max_attempts, next_attempt_at, created_at)
         SELECT d.id, $4, d.endpoint_id, $5, d.message_id, $6, $7, $8, $9, $10
         FROM unnest($1::text[], $2::text[], $3::text[]) AS d(id, endpoint_id, message_id)`,
        [
          deliveries.map((d) => d.id),
          deliveries.map((d) => d.endpointId),
          deliveries.map((d) => d.messageId),
          eventId,
          input.accountId,
          input.isTest,
          state,
          this.config.webhooks.retrySchedule.length + 1,
          state === 'pending' ? now : null,
          now,
        ],
      );
    }
    return { eventId, deliveries };
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
