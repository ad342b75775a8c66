import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../../platform/database/sql';
import { pageConditions } from '../../../platform/pagination';
import type { EventKind } from '../../event-kinds';

export type DeliveryState = 'pending' | 'succeeded' | 'failed' | 'held';

/** One row of `delivery`, with the kind of its event. */
export interface DeliveryRecord {
  id: string;
  eventId: string;
  endpointId: string;
  accountId: string;
  kind: EventKind;
  /** webhook-id: one per event and endpoint, the same on every attempt. */
  messageId: string;
  isTest: boolean;
  state: DeliveryState;
  attemptCount: number;
  maxAttempts: number;
  nextAttemptAt: Date | null;
  /** Lease of the attempt in flight: nobody else attempts before it ends. */
  lockedUntil: Date | null;
  lastAttemptAt: Date | null;
  completedAt: Date | null;
  lastError: string | null;
  createdAt: Date;
}

/** One row of `delivery_attempt`. */
export interface DeliveryAttempt {
  attemptNumber: number;
  url: string;
  /** As sent, in order; null until the attempt's outcome is written (in flight, or abandoned). */
  requestHeaders: Record<string, string> | null;
  startedAt: Date;
  finishedAt: Date | null;
  durationMs: number | null;
  responseStatus: number | null;
  responseBody: string | null;
  errorClass: string | null;
  errorMessage: string | null;
}

/** The deliveries the outbox writes for one event: one per endpoint, all in the same state. */
export interface NewDeliveries {
  eventId: string;
  accountId: string;
  isTest: boolean;
  state: 'pending' | 'held';
  maxAttempts: number;
  /** Due now when pending; null when held. */
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveries: Array<{ id: string; endpointId: string; messageId: string }>;
}

/** Which page, newest first: `limit + 1` rows are read, to tell whether another page follows. */
type PageWindow = Parameters<typeof pageConditions>[0] & { limit: number };

interface DeliveryRow {
  id: string;
  event_id: string;
  endpoint_id: string;
  account_id: string;
  kind: EventKind;
  message_id: string;
  is_test: boolean;
  state: DeliveryState;
  attempt_count: number;
  max_attempts: number;
  next_attempt_at: Date | null;
  locked_until: Date | null;
  last_attempt_at: Date | null;
  completed_at: Date | null;
  last_error: string | null;
  created_at: Date;
}

interface AttemptRow {
  attempt_number: number;
  url: string;
  request_headers: Record<string, string> | string | null;
  started_at: Date;
  finished_at: Date | null;
  duration_ms: number | null;
  response_status: number | null;
  response_body: string | null;
  error_class: string | null;
  error_message: string | null;
}

const COLUMNS = `d.id, d.event_id, d.endpoint_id, d.account_id, ev.kind, d.message_id, d.is_test, d.state, d.attempt_count,
  d.max_attempts, d.next_attempt_at, d.locked_until, d.last_attempt_at, d.completed_at, d.last_error, d.created_at`;

function toDelivery(r: DeliveryRow): DeliveryRecord {
  return {
    id: r.id,
    eventId: r.event_id,
    endpointId: r.endpoint_id,
    accountId: r.account_id,
    kind: r.kind,
    messageId: r.message_id,
    isTest: r.is_test,
    state: r.state,
    attemptCount: r.attempt_count,
    maxAttempts: r.max_attempts,
    nextAttemptAt: r.next_attempt_at,
    lockedUntil: r.locked_until,
    lastAttemptAt: r.last_attempt_at,
    completedAt: r.completed_at,
    lastError: r.last_error,
    createdAt: r.created_at,
  };
}

function toAttempt(a: AttemptRow): DeliveryAttempt {
  return {
    attemptNumber: a.attempt_number,
    url: a.url,
    requestHeaders:
      typeof a.request_headers === 'string'
        ? (JSON.parse(a.request_headers) as Record<string, string>)
        : a.request_headers,
    startedAt: a.started_at,
    finishedAt: a.finished_at,
    durationMs: a.duration_ms,
    responseStatus: a.response_status,
    responseBody: a.response_body,
    errorClass: a.error_class,
    errorMessage: a.error_message,
  };
}

/**
 * The SQL of `delivery` and `delivery_attempt` as records: the outbox writes deliveries in its
 * caller's transaction, the log reads them with their attempts, a retry or a replay makes
 * them due again. Claims are DeliveryStore's, outcomes DeliveryOutcomes'. Methods that take a
 * manager run in the caller's transaction; the others on their own.
 */
@Injectable()
export class DeliveryLogStore {
  constructor(private readonly dataSource: DataSource) {}

  async insert(m: EntityManager, n: NewDeliveries): Promise<void> {
    if (n.deliveries.length === 0) return;
    await m.query(
      `INSERT INTO delivery (id, event_id, endpoint_id, account_id, message_id, is_test, state, max_attempts, next_attempt_at, created_at)
       SELECT d.id, $4, d.endpoint_id, $5, d.message_id, $6, $7, $8, $9, $10
       FROM unnest($1::text[], $2::text[], $3::text[]) AS d(id, endpoint_id, message_id)`,
      [
        n.deliveries.map((d) => d.id),
        n.deliveries.map((d) => d.endpointId),
        n.deliveries.map((d) => d.messageId),
        n.eventId,
        n.accountId,
        n.isTest,
        n.state,
        n.maxAttempts,
        n.nextAttemptAt,
        n.createdAt,
      ],
    );
  }

  /** An endpoint's deliveries, newest first, `window.limit + 1` at most. */
  async listByEndpoint(
    endpointId: string,
    filter: { state?: DeliveryState },
    window: PageWindow,
  ): Promise<DeliveryRecord[]> {
    const params: unknown[] = [endpointId];
    let where = 'd.endpoint_id = $1';
    if (filter.state) where += ` AND d.state = $${params.push(filter.state)}`;
    const conditions = pageConditions(window, params.length + 1, 'd');
    params.push(...conditions.params);
    const rows = await queryRows<DeliveryRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM delivery d JOIN event ev ON ev.id = d.event_id WHERE ${where}${conditions.sql} ORDER BY d.created_at DESC, d.id DESC LIMIT ${window.limit + 1}`,
      params,
    );
    return rows.map(toDelivery);
  }

  /** The delivery if it is the endpoint's. */
  async find(endpointId: string, id: string): Promise<DeliveryRecord | null> {
    const rows = await queryRows<DeliveryRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM delivery d JOIN event ev ON ev.id = d.event_id WHERE d.id = $1 AND d.endpoint_id = $2`,
      [id, endpointId],
    );
    return rows.length ? toDelivery(rows[0]) : null;
  }

  /** An event's deliveries, in the order they were written. */
  async ofEvent(eventId: string): Promise<Array<Pick<DeliveryRecord, 'id' | 'endpointId' | 'state'>>> {
    const rows = await queryRows<{ id: string; endpoint_id: string; state: DeliveryState }>(
      this.dataSource,
      `SELECT id, endpoint_id, state FROM delivery WHERE event_id = $1 ORDER BY created_at, id`,
      [eventId],
    );
    return rows.map((d) => ({ id: d.id, endpointId: d.endpoint_id, state: d.state }));
  }

  async attempts(deliveryId: string): Promise<DeliveryAttempt[]> {
    const rows = await queryRows<AttemptRow>(
      this.dataSource,
      `SELECT attempt_number, url, request_headers, started_at, finished_at, duration_ms, response_status, response_body, error_class, error_message
       FROM delivery_attempt WHERE delivery_id = $1 ORDER BY attempt_number`,
      [deliveryId],
    );
    return rows.map(toAttempt);
  }

  /**
   * Makes the delivery due now for exactly one more attempt, unless an attempt of it is in
   * flight (null then). Returns it as this left it.
   */
  async retry(id: string, now: Date): Promise<DeliveryRecord | null> {
    const rows = await queryRows<DeliveryRow>(
      this.dataSource,
      `UPDATE delivery d SET state = 'pending', next_attempt_at = $2, max_attempts = d.attempt_count + 1, completed_at = NULL
       FROM event ev WHERE ev.id = d.event_id AND d.id = $1 AND (d.state <> 'pending' OR d.locked_until IS NULL OR d.locked_until <= $2)
       RETURNING ${COLUMNS}`,
      [id, now],
    );
    return rows.length ? toDelivery(rows[0]) : null;
  }

  /** Makes the endpoint's failed deliveries created in [since, until) due now, for one more attempt each. */
  async replayFailed(
    endpointId: string,
    since: Date,
    until: Date,
    now: Date,
  ): Promise<Array<{ id: string; attemptCount: number }>> {
    const rows = await queryRows<{ id: string; attempt_count: number }>(
      this.dataSource,
      `UPDATE delivery SET state = 'pending', next_attempt_at = $4, max_attempts = attempt_count + 1, completed_at = NULL
       WHERE endpoint_id = $1 AND state = 'failed' AND created_at >= $2 AND created_at < $3 RETURNING id, attempt_count`,
      [endpointId, since, until, now],
    );
    return rows.map((r) => ({ id: r.id, attemptCount: r.attempt_count }));
  }
}
