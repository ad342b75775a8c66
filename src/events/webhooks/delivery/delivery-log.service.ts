import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { Clock } from '../../../platform/clock';
import { AppConfig } from '../../../platform/config/app-config';
import { ApiError } from '../../../platform/errors/api-error';
import { isIdOf } from '../../../platform/ids';
import { page, pageConditions } from '../../../platform/pagination';
import { queryRows } from '../../../platform/database/sql';
import { WebhookEndpointsService } from '../endpoints/webhook-endpoints.service';
import { DeliveryQueue } from './delivery-queue.service';
import { deliveriesQuerySchema } from './dto/deliveries-query';
import { DeliveryDetailDto, DeliveryDto, DeliveryListDto, replaySchema, ReplayResultDto } from './dto/delivery.dto';

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string;
  kind: string;
  message_id: string;
  is_test: boolean;
  state: string;
  attempt_count: number;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  last_attempt_at: Date | null;
  completed_at: Date | null;
  last_error: string | null;
  created_at: Date;
}

const COLUMNS = `d.id, d.endpoint_id, d.event_id, ev.kind, d.message_id, d.is_test, d.state, d.attempt_count, d.next_attempt_at, d.locked_until,
  d.last_attempt_at, d.completed_at, d.last_error, d.created_at`;

/** The delivery log of an endpoint: list, read with attempts, retry one now, replay failed ones. */
@Injectable()
export class DeliveryLogService {
  private readonly logger = new Logger(DeliveryLogService.name);

  constructor(
    private readonly dataSource: DataSource,
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
    const params: unknown[] = [endpointId];
    let where = 'd.endpoint_id = $1';
    if (q.state) where += ` AND d.state = $${params.push(q.state)}`;
    const window = pageConditions(q, params.length + 1, 'd');
    params.push(...window.params);
    const rows: DeliveryRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM delivery d JOIN event ev ON ev.id = d.event_id WHERE ${where}${window.sql} ORDER BY d.created_at DESC, d.id DESC LIMIT ${q.limit + 1}`,
      params,
    );
    const p = page(rows, q.limit, (r) => ({ createdAt: r.created_at, id: r.id }));
    return { data: p.rows.map(toDto), nextCursor: p.nextCursor };
  }

  async get(accountId: string, endpointId: string, deliveryId: string): Promise<DeliveryDetailDto> {
    const row = await this.row(accountId, endpointId, deliveryId);
    const body: Array<{ body: string }> = await this.dataSource.query(`SELECT body FROM event WHERE id = $1`, [
      row.event_id,
    ]);
    const attempts: Array<{
      attempt_number: number;
      url: string;
      request_headers: Record<string, string> | string;
      started_at: Date;
      finished_at: Date | null;
      duration_ms: number | null;
      response_status: number | null;
      response_body: string | null;
      error_class: string | null;
      error_message: string | null;
    }> = await this.dataSource.query(
      `SELECT attempt_number, url, request_headers, started_at, finished_at, duration_ms, response_status, response_body, error_class, error_message
       FROM delivery_attempt WHERE delivery_id = $1 ORDER BY attempt_number`,
      [deliveryId],
    );
    return {
      ...toDto(row),
      request: { method: 'POST', body: body[0].body },
      attempts: attempts.map((a) => ({
        attempt: a.attempt_number,
        startedAt: a.started_at.toISOString(),
        finishedAt: a.finished_at?.toISOString() ?? null,
        durationMs: a.duration_ms,
        responseStatus: a.response_status,
        responseBodyStart: a.response_body,
        errorClass: a.error_class,
        errorMessage: a.error_message,
        request: {
          url: a.url,
          headers:
            typeof a.request_headers === 'string'
              ? (JSON.parse(a.request_headers) as Record<string, string>)
              : a.request_headers,
        },
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
    if (row.state === 'pending' && row.locked_until && row.locked_until > now)
      throw new ApiError('conflict', 'An attempt of this delivery is in flight.');
    if (row.state === 'held') {
      const live: Array<{ live_delivery_since: Date | null }> = await this.dataSource.query(
        `SELECT live_delivery_since FROM account WHERE id = $1`,
        [accountId],
      );
      if (!live[0]?.live_delivery_since)
        throw new ApiError(
          'conflict',
          'This live event is held: live delivery is not enabled for the account (see /api/v1/access-requests).',
        );
    }
    // The answer is the delivery as this request left it (pending): once woken, a worker may
    // finish the attempt before a second read could.
    const updated = await queryRows<DeliveryRow>(
      this.dataSource,
      `UPDATE delivery d SET state = 'pending', next_attempt_at = $2, max_attempts = d.attempt_count + 1, completed_at = NULL
       FROM event ev WHERE ev.id = d.event_id AND d.id = $1 AND (d.state <> 'pending' OR d.locked_until IS NULL OR d.locked_until <= $2)
       RETURNING ${COLUMNS}`,
      [deliveryId, now],
    );
    if (updated.length === 0) throw new ApiError('conflict', 'An attempt of this delivery is in flight.');
    await this.wake(deliveryId, endpointId, updated[0].attempt_count + 1, `r${now.getTime()}`);
    return toDto(updated[0]);
  }

  /** Every failed delivery of the endpoint for events created in [since, until): one attempt each, now. */
  async replay(accountId: string, endpointId: string, input: z.infer<typeof replaySchema>): Promise<ReplayResultDto> {
    const endpoint = await this.endpoints.get(accountId, endpointId);
    if (!endpoint.enabled)
      throw new ApiError('conflict', 'The endpoint is disabled: enable it (PATCH enabled: true) before replaying.');
    const now = this.clock.now();
    const until = input.until ? new Date(input.until) : now;
    const replayed = await queryRows<{ id: string; attempt_count: number }>(
      this.dataSource,
      `UPDATE delivery SET state = 'pending', next_attempt_at = $4, max_attempts = attempt_count + 1, completed_at = NULL
       WHERE endpoint_id = $1 AND state = 'failed' AND created_at >= $2 AND created_at < $3 RETURNING id, attempt_count`,
      [endpointId, new Date(input.since), until, now],
    );
    // Enough jobs to fill the endpoint's slots: each carries on with the endpoint's other due deliveries.
    for (const d of replayed.slice(0, this.config.webhooks.endpointConcurrency))
      await this.wake(d.id, endpointId, d.attempt_count + 1, `r${now.getTime()}`);
    return { replayed: replayed.length };
  }

  private async wake(deliveryId: string, endpointId: string, attempt: number, tag: string): Promise<void> {
    await this.queue
      .wake(deliveryId, attempt, { tag, endpointId })
      .catch((err: Error) => this.logger.warn(`could not enqueue ${deliveryId} (the sweeper will): ${err.message}`));
  }

  private async row(accountId: string, endpointId: string, deliveryId: string): Promise<DeliveryRow> {
    await this.endpoints.row(accountId, endpointId);
    const missing = new ApiError(
      'resource_not_found',
      `This endpoint has no delivery ${String(deliveryId).slice(0, 40)}.`,
    );
    if (!isIdOf('dlv', deliveryId)) throw missing;
    const rows: DeliveryRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM delivery d JOIN event ev ON ev.id = d.event_id WHERE d.id = $1 AND d.endpoint_id = $2`,
      [deliveryId, endpointId],
    );
    if (rows.length === 0) throw missing;
    return rows[0];
  }
}

function toDto(r: DeliveryRow): DeliveryDto {
  return {
    id: r.id,
    endpointId: r.endpoint_id,
    eventId: r.event_id,
    event: r.kind,
    webhookId: r.message_id,
    isTest: r.is_test,
    state: r.state,
    attemptCount: r.attempt_count,
    nextAttemptAt: r.state === 'pending' ? (r.next_attempt_at?.toISOString() ?? null) : null,
    lastAttemptAt: r.last_attempt_at?.toISOString() ?? null,
    completedAt: r.completed_at?.toISOString() ?? null,
    lastError: r.last_error,
    createdAt: r.created_at.toISOString(),
  };
}
