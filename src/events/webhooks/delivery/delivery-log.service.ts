import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { Clock } from '../../../platform/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { ApiError } from '../../../platform/errors/api-error';
import { isIdOf } from '../../../platform/ids';
import { page } from '../../../platform/pagination';
import { AccountGate } from '../../accounts/account-gate.service';
import { WebhookEndpointsService } from '../endpoints/webhook-endpoints.service';
import { EventStore } from '../events/event-store';
import { DeliveryLogStore, DeliveryRecord } from './delivery-log-store';
import { DeliveryQueue } from './delivery-queue.service';
import { deliveriesQuerySchema } from './dto/deliveries-query';
import { DeliveryDetailDto, DeliveryDto, DeliveryListDto, replaySchema, ReplayResultDto } from './dto/delivery.dto';

/** The delivery log of an endpoint: list, read with attempts, retry one now, replay failed ones. */
@Injectable()
export class DeliveryLogService {
  private readonly logger = new Logger(DeliveryLogService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: DeliveryLogStore,
    private readonly events: EventStore,
    private readonly accounts: AccountGate,
    private readonly endpoints: WebhookEndpointsService,
    private readonly queue: DeliveryQueue,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async list(
    accountId: string,
    endpointId: string,
    q: z.infer<typeof deliveriesQuerySchema>,
  ): Promise<DeliveryListDto> {
    await this.endpoints.row(accountId, endpointId);
    const rows = await this.store.listByEndpoint(endpointId, { state: q.state }, q);
    const p = page(rows, q.limit, (r) => ({ createdAt: r.createdAt, id: r.id }));
    return { data: p.rows.map(toDto), nextCursor: p.nextCursor };
  }

  async get(accountId: string, endpointId: string, deliveryId: string): Promise<DeliveryDetailDto> {
    const row = await this.row(accountId, endpointId, deliveryId);
    const body = await this.events.body(row.eventId);
    const attempts = await this.store.attempts(deliveryId);
    return {
      ...toDto(row),
      request: { method: 'POST', body },
      attempts: attempts.map((a) => ({
        attempt: a.attemptNumber,
        startedAt: a.startedAt.toISOString(),
        finishedAt: a.finishedAt?.toISOString() ?? null,
        durationMs: a.durationMs,
        responseStatus: a.responseStatus,
        responseBodyStart: a.responseBody,
        errorClass: a.errorClass,
        errorMessage: a.errorMessage,
        request: { url: a.url, headers: a.requestHeaders },
      })),
    };
  }

  /**
   * One more attempt now, with the same webhook-id: of a failed or succeeded delivery (a
   * receiver that lost it), or of a pending one waiting for its retry. A held delivery is
   * sent only once the account has live delivery. Exactly one attempt: if it fails, the
   * delivery is failed again.
   */
  async retry(accountId: string, endpointId: string, deliveryId: string): Promise<DeliveryDto> {
    const row = await this.row(accountId, endpointId, deliveryId);
    const endpoint = await this.endpoints.get(accountId, endpointId);
    if (!endpoint.enabled)
      throw new ApiError('conflict', 'The endpoint is disabled: enable it (PATCH enabled: true) before retrying.');
    const now = this.clock.now();
    if (row.state === 'pending' && row.lockedUntil && row.lockedUntil > now)
      throw new ApiError('conflict', 'An attempt of this delivery is in flight.');
    if (row.state === 'held') {
      if (!(await this.accounts.liveDeliverySince(this.dataSource.manager, accountId)))
        throw new ApiError(
          'conflict',
          'This live event is held: live delivery is not enabled for the account (see /api/v1/access-requests).',
        );
    }
    // The answer is the delivery as this request left it (pending): once woken, a worker may
    // finish the attempt before a second read could.
    const updated = await this.store.retry(deliveryId, now);
    if (!updated) throw new ApiError('conflict', 'An attempt of this delivery is in flight.');
    await this.wake(deliveryId, endpointId, updated.attemptCount + 1, `r${now.getTime()}`);
    return toDto(updated);
  }

  /** Every failed delivery of the endpoint for events created in [since, until): one attempt each, now. */
  async replay(accountId: string, endpointId: string, input: z.infer<typeof replaySchema>): Promise<ReplayResultDto> {
    const endpoint = await this.endpoints.get(accountId, endpointId);
    if (!endpoint.enabled)
      throw new ApiError('conflict', 'The endpoint is disabled: enable it (PATCH enabled: true) before replaying.');
    const now = this.clock.now();
    const until = input.until ? new Date(input.until) : now;
    const replayed = await this.store.replayFailed(endpointId, new Date(input.since), until, now);
    // Enough jobs to fill the endpoint's slots: each carries on with the endpoint's other due deliveries.
    for (const d of replayed.slice(0, this.config.webhooks.endpointConcurrency))
      await this.wake(d.id, endpointId, d.attemptCount + 1, `r${now.getTime()}`);
    return { replayed: replayed.length };
  }

  private async wake(deliveryId: string, endpointId: string, attempt: number, tag: string): Promise<void> {
    await this.queue
      .wake(deliveryId, attempt, { tag, endpointId })
      .catch((err: Error) => this.logger.warn(`could not enqueue ${deliveryId} (the sweeper will): ${err.message}`));
  }

  private async row(accountId: string, endpointId: string, deliveryId: string): Promise<DeliveryRecord> {
    await this.endpoints.row(accountId, endpointId);
    const missing = new ApiError(
      'resource_not_found',
      `This endpoint has no delivery ${String(deliveryId).slice(0, 40)}.`,
    );
    if (!isIdOf('dlv', deliveryId)) throw missing;
    const row = await this.store.find(endpointId, deliveryId);
    if (!row) throw missing;
    return row;
  }
}

function toDto(d: DeliveryRecord): DeliveryDto {
  return {
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    event: d.kind,
    webhookId: d.messageId,
    isTest: d.isTest,
    state: d.state,
    attemptCount: d.attemptCount,
    nextAttemptAt: d.state === 'pending' ? (d.nextAttemptAt?.toISOString() ?? null) : null,
    lastAttemptAt: d.lastAttemptAt?.toISOString() ?? null,
    completedAt: d.completedAt?.toISOString() ?? null,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
  };
}
