import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { ApiError } from '../../../platform/errors/api-error';
import { AccountGate } from '../../accounts/account-gate.service';
import { AttemptReport, Deliverer } from '../delivery/deliverer.service';
import { DeliveryQueue } from '../delivery/delivery-queue.service';
import { WebhookEndpointsService } from '../endpoints/webhook-endpoints.service';
import type { EventData } from './envelope';
import { TargetGuard } from '../outbound/target-guard.service';
import { EventPublisher } from './event-publisher.service';
import { EventStore } from './event-store';
import type { EventKind } from '../../event-kinds';

const HOUR_MS = 3_600_000;

/** What one test event sent now did: the attempt's report, or that the endpoint's slots were busy. */
export interface TestSendResult {
  sent: boolean;
  eventId: string;
  deliveryId: string;
  webhookId: string;
  request: AttemptReport['request'] | null;
  response: AttemptReport['response'];
  error: AttemptReport['error'];
  state: AttemptReport['state'];
  nextAttemptAt: string | null;
  remainingThisHour: number;
}

/**
 * Test events sent now (the simulator): a real, signed POST to one of the account's endpoints,
 * marked as test, through the same outbox and the same attempt code as live deliveries — so it
 * is in the delivery log, refused to private targets, and retried on the schedule if it fails.
 * Limited per account per rolling hour (SIMULATOR_SENDS_PER_HOUR), counted in the database.
 */
@Injectable()
export class TestEventSender {
  private readonly logger = new Logger(TestEventSender.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountGate,
    private readonly events: EventStore,
    private readonly endpoints: WebhookEndpointsService,
    private readonly publisher: EventPublisher,
    private readonly deliverer: Deliverer,
    private readonly queue: DeliveryQueue,
    private readonly guard: TargetGuard,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Refuses a send that would fail anyway, before the caller spends anything on it (a register
   * read): an unknown or disabled endpoint, an account that used up its hour, or a URL whose
   * host resolves to an address webhooks may not reach.
   */
  async checkAllowed(accountId: string, endpointId: string): Promise<void> {
    const endpoint = await this.endpoints.get(accountId, endpointId);
    if (!endpoint.enabled)
      throw new ApiError(
        'conflict',
        'The endpoint is disabled: enable it (PATCH enabled: true) to send it test events.',
      );
    const sent = await this.sentInLastHour(this.dataSource.manager, accountId);
    this.refuseOverLimit(sent);
    // Where the URL's host resolves now (it may have changed since the endpoint was saved).
    await this.guard.checkForSave(endpoint.url);
  }

  /** Publishes one test event to the endpoint and makes its first attempt now, when a slot of the endpoint is free. */
  async send(accountId: string, endpointId: string, kind: EventKind, data: EventData): Promise<TestSendResult> {
    const endpoint = await this.endpoints.get(accountId, endpointId);
    const limit = this.config.limits.simulatorSendsPerHour;
    const { published, used } = await this.dataSource.transaction(async (m) => {
      // The account row lock makes the count exact when sends race, on any number of replicas.
      await this.accounts.lock(m, accountId);
      const sent = await this.sentInLastHour(m, accountId);
      this.refuseOverLimit(sent);
      const p = await this.publisher.publish(m, { accountId, kind, isTest: true, data, endpointIds: [endpoint.id] });
      return { published: p, used: sent.count + 1 };
    });
    const delivery = published.deliveries[0];
    const report = await this.deliverer.claimAndRun(delivery.id);
    const base = {
      eventId: published.eventId,
      deliveryId: delivery.id,
      webhookId: delivery.messageId,
      remainingThisHour: Math.max(0, limit - used),
    };
    if (!report) {
      // Every slot of the endpoint is busy: the delivery waits its turn like any other.
      await this.queue
        .wake(delivery.id, 1, { endpointId: delivery.endpointId })
        .catch((err: Error) => this.logger.warn(`could not enqueue ${delivery.id} (the sweeper will): ${err.message}`));
      return {
        ...base,
        sent: false,
        request: null,
        response: null,
        error: null,
        state: 'pending',
        nextAttemptAt: this.clock.now().toISOString(),
      };
    }
    const { request, response, error, state, nextAttemptAt } = report;
    return { ...base, sent: true, request, response, error, state, nextAttemptAt };
  }

  private sentInLastHour(m: EntityManager, accountId: string): Promise<{ count: number; oldest: Date | null }> {
    return this.events.testEventsSince(m, accountId, new Date(this.clock.now().getTime() - HOUR_MS));
  }

  private refuseOverLimit(sent: { count: number; oldest: Date | null }): void {
    const limit = this.config.limits.simulatorSendsPerHour;
    if (sent.count < limit) return;
    const resetAt = new Date((sent.oldest ?? this.clock.now()).getTime() + HOUR_MS);
    const seconds = Math.max(1, Math.ceil((resetAt.getTime() - this.clock.now().getTime()) / 1000));
    throw new ApiError(
      'simulator_limit_reached',
      `This account sent ${limit} test events in the last hour (SIMULATOR_SENDS_PER_HOUR). The next one is accepted at ${resetAt.toISOString()}.`,
      { limit, resetAt: resetAt.toISOString() },
      { 'Retry-After': String(seconds) },
    );
  }
}
