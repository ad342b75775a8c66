import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../core/config/app-config';
import { queryRows } from '../../database/sql';
import type { EventKind } from '../events/event-kinds';

/** Time past the request deadline before an attempt's lease expires: enough to record its outcome. */
export const LEASE_MARGIN_MS = 5_000;

/**
 * On a Postgres server, claims and outcomes are committed without waiting for the disk
 * (synchronous_commit off for that transaction only): losing one in a crash of Postgres
 * itself means, at worst, one more attempt with the same webhook-id — which at-least-once
 * delivery allows — and it saves a disk flush per claim and per outcome. Not on PGlite: there
 * the database lives in the service's process, and a killed process would take the last
 * claims with it (an attempt made but missing from the log). Events and deliveries are
 * written by their caller's transaction, always durably.
 */
const ASYNC_COMMIT = `set_config('synchronous_commit', 'off', true)`;

/** The SQL expression that makes this transaction's commit asynchronous where that is safe (see above). */
export function asyncCommitSql(config: AppConfig): string {
  return config.isEmbedded ? 'NULL' : ASYNC_COMMIT;
}

/** A delivery claimed for one attempt: everything needed to send it. */
export interface ClaimedDelivery {
  deliveryId: string;
  endpointId: string;
  accountId: string;
  eventId: string;
  messageId: string;
  kind: EventKind;
  isTest: boolean;
  body: string;
  attempt: number;
  maxAttempts: number;
  url: string;
  /** The current secret, and the previous one while it still signs after a rotation. */
  secrets: string[];
  startedAt: Date;
  headers: Record<string, string>;
}


/**
 * One delivery, or up to `max` due deliveries of an endpoint. `skipLocked`: when another
 * claim for the endpoint is under way, claim nothing rather than wait for it (a worker that
 * still has requests in flight looks again when one is done).
 */
export type DeliveryTarget = { deliveryId: string } | { endpointId: string; max: number; skipLocked?: boolean };

/** A delivery that may be claimed, with what its request needs. */
interface CandidateRow {
  id: string;
  account_id: string;
  event_id: string;
  message_id: string;
  is_test: boolean;
  kind: EventKind;
  body: string;
}

interface EndpointRow {
  id: string;
  url: string;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
}

/**
 * The claims of the delivery rows' state machine in SQL, shared by every worker (and the
 * simulator in the api); outcomes are DeliveryOutcomes'.
 *
 * Claiming locks the endpoint row first, so claims for one endpoint take turns everywhere;
 * under that lock the deliveries currently leased for the endpoint are counted (at most
 * WEBHOOK_ENDPOINT_CONCURRENCY), and the claim bumps `attempt_count` and sets the lease in
 * one UPDATE that only matches a due, unleased, pending row — so two workers never make the
 * same attempt. A worker that dies leaves its lease to expire; the attempt it left is then
 * recorded as abandoned and the next claim makes a new attempt with the same webhook-id.
 */
@Injectable()
export class DeliveryStore {
  private readonly asyncCommit: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {
    this.asyncCommit = asyncCommitSql(config);
  }

  /**
   * Claims attempts: of this one delivery, or of up to `max` of the endpoint's oldest due
   * deliveries (never more than its free slots). Empty when there is nothing to do: not due,
   * done, leased, or the endpoint at its limit. `prepare` makes each attempt's request
   * headers (signed with the claim's time) inside the claim, so the log has them even if the
   * worker dies mid-request.
   */
  async claim(target: DeliveryTarget, now: Date, prepare: (c: Omit<ClaimedDelivery, 'headers'>) => Record<string, string>): Promise<ClaimedDelivery[]> {
    const one = 'deliveryId' in target;
    const limit = this.config.webhooks.endpointConcurrency;
    const max = one ? 1 : Math.min(target.max, limit);
    return this.dataSource.transaction(async (m) => {
      // The endpoint's row lock, and the deliveries that may be claimed under it. The
      // candidates are read in this statement's snapshot, which may predate the lock: the
      // claim below (a statement of its own, seeing every claim committed before it) takes
      // only those still due and unleased — and as a claim made while this one waited for the
      // lock took at most `limit` of them, `max + limit` candidates leave enough.
      const rows = await queryRows<EndpointRow & { candidates: CandidateRow[] | string | null }>(
        m,
        `SELECT ${this.asyncCommit} AS async, w.id, w.url, w.enabled, w.secret, w.previous_secret, w.previous_secret_expires_at,
                (SELECT json_agg(c) FROM (
                   SELECT d.id, d.account_id, d.event_id, d.message_id, d.is_test, ev.kind, ev.body
                   FROM delivery d JOIN event ev ON ev.id = d.event_id
                   WHERE ${one ? 'd.id = $1 AND ' : ''}d.endpoint_id = w.id AND d.state = 'pending' AND d.next_attempt_at <= $2 AND (d.locked_until IS NULL OR d.locked_until <= $2)
                   ORDER BY d.next_attempt_at, d.id LIMIT $3
                 ) c) AS candidates
         FROM webhook_endpoint w
         WHERE w.id = ${one ? '(SELECT endpoint_id FROM delivery WHERE id = $1)' : '$1'} FOR UPDATE OF w${!one && target.skipLocked ? ' SKIP LOCKED' : ''}`,
        [one ? target.deliveryId : target.endpointId, now, max + limit],
      );
      const endpoint = rows[0];
      if (!endpoint) return [];
      if (!endpoint.enabled) {
        await failPending(m, endpoint.id, now, 'the endpoint is disabled', one ? target.deliveryId : undefined);
        return [];
      }
      const candidates: CandidateRow[] = typeof endpoint.candidates === 'string' ? JSON.parse(endpoint.candidates) : (endpoint.candidates ?? []);
      if (candidates.length === 0) return [];
      const secrets = [endpoint.secret];
      if (endpoint.previous_secret && endpoint.previous_secret_expires_at && new Date(endpoint.previous_secret_expires_at) > now) secrets.push(endpoint.previous_secret);
      // Each candidate's request, signed with the claim's time before the claim: the claim
      // logs the attempts it makes with their headers in the same statement. (Only the
      // attempt number is unknown until then, and the request does not carry it.)
      const prepared = candidates.map((row) => {
        const base = {
          deliveryId: row.id,
          endpointId: endpoint.id,
          accountId: row.account_id,
          eventId: row.event_id,
          messageId: row.message_id,
          kind: row.kind,
          isTest: row.is_test,
          body: row.body,
          attempt: 0,
          maxAttempts: 0,
          url: endpoint.url,
          secrets,
          startedAt: now,
        };
        return { ...base, headers: prepare(base) };
      });
      // Under the endpoint's row lock: count what is in flight, claim, and log the attempts
      // (an unfinished earlier attempt of a claimed delivery is the one its lease lost).
      const claimed = await queryRows<{ id: string; attempt_count: number; max_attempts: number }>(
        m,
        `WITH inflight AS (
           SELECT count(*)::int AS n FROM delivery WHERE endpoint_id = $1 AND state = 'pending' AND locked_until > $2
         ), target AS (
           SELECT id FROM delivery
           WHERE id = ANY($6::text[]) AND endpoint_id = $1 AND state = 'pending' AND next_attempt_at <= $2 AND (locked_until IS NULL OR locked_until <= $2)
           ORDER BY next_attempt_at, id LIMIT GREATEST(0, LEAST($5, $4 - (SELECT n FROM inflight)))
         ), claimed AS (
           UPDATE delivery d SET attempt_count = d.attempt_count + 1, locked_until = $3, last_attempt_at = $2
           FROM target WHERE d.id = target.id
           RETURNING d.id, d.attempt_count, d.max_attempts
         ), abandoned AS (
           UPDATE delivery_attempt SET finished_at = $2, error_class = 'abandoned',
             error_message = 'no outcome was recorded: the worker stopped during the attempt and its lease expired'
           WHERE delivery_id IN (SELECT id FROM claimed) AND finished_at IS NULL
         ), logged AS (
           INSERT INTO delivery_attempt (delivery_id, attempt_number, url, request_headers, started_at)
           SELECT c.id, c.attempt_count, $8, h.headers, $2 FROM claimed c JOIN unnest($6::text[], $7::text[]) AS h(id, headers) ON h.id = c.id
         )
         SELECT id, attempt_count, max_attempts FROM claimed`,
        [
          endpoint.id, now, new Date(now.getTime() + this.config.webhooks.timeoutMs + LEASE_MARGIN_MS), limit, max,
          prepared.map((c) => c.deliveryId), prepared.map((c) => JSON.stringify(c.headers)), endpoint.url,
        ],
      );
      const byId = new Map(claimed.map((r) => [r.id, r]));
      // Oldest first, as claimed.
      return prepared
        .filter((c) => byId.has(c.deliveryId))
        .map((c) => ({ ...c, attempt: byId.get(c.deliveryId)!.attempt_count, maxAttempts: byId.get(c.deliveryId)!.max_attempts }));
    });
  }

  /**
   * Whether a delivery could be claimed now, without taking any lock: most wake-ups in a
   * backlog find their delivery already done by a worker draining the endpoint, or the
   * endpoint full. Null when the delivery is gone.
   */
  async peek(deliveryId: string, now: Date): Promise<{ endpointId: string; claimable: boolean } | null> {
    const rows: Array<{ endpoint_id: string; due: boolean; inflight: number }> = await this.dataSource.query(
      `SELECT d.endpoint_id,
              d.state = 'pending' AND d.next_attempt_at <= $2 AND (d.locked_until IS NULL OR d.locked_until <= $2) AS due,
              (SELECT count(*)::int FROM delivery x WHERE x.endpoint_id = d.endpoint_id AND x.state = 'pending' AND x.locked_until > $2) AS inflight
       FROM delivery d WHERE d.id = $1`,
      [deliveryId, now],
    );
    if (rows.length === 0) return null;
    return { endpointId: rows[0].endpoint_id, claimable: rows[0].due && rows[0].inflight < this.config.webhooks.endpointConcurrency };
  }

  /** The endpoint's oldest due delivery not in flight, to wake another worker for it. */
  async nextDue(endpointId: string, now: Date): Promise<{ id: string; attempt: number } | null> {
    const rows: Array<{ id: string; attempt_count: number }> = await this.dataSource.query(
      `SELECT id, attempt_count FROM delivery WHERE endpoint_id = $1 AND state = 'pending' AND next_attempt_at <= $2 AND (locked_until IS NULL OR locked_until <= $2)
       ORDER BY next_attempt_at, id LIMIT 1`,
      [endpointId, now],
    );
    return rows.length ? { id: rows[0].id, attempt: rows[0].attempt_count } : null;
  }

  /**
   * Due deliveries that no one holds, due since before `dueBefore`: the ones no queue may be
   * holding any more. At most WEBHOOK_ENDPOINT_CONCURRENCY per endpoint (more could not run
   * at once anyway; whoever runs one carries on with the endpoint's others).
   */
  async stranded(now: Date, dueBefore: Date, limit = 1_000): Promise<Array<{ id: string; attempt: number; endpointId: string }>> {
    const rows: Array<{ id: string; attempt_count: number; endpoint_id: string }> = await this.dataSource.query(
      `SELECT id, attempt_count, endpoint_id FROM (
         SELECT id, attempt_count, endpoint_id, next_attempt_at, row_number() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS rank
         FROM delivery
         WHERE state = 'pending' AND next_attempt_at <= $2 AND (locked_until IS NULL OR locked_until <= $1)
       ) due WHERE rank <= $3 ORDER BY next_attempt_at LIMIT $4`,
      [now, dueBefore, this.config.webhooks.endpointConcurrency, limit],
    );
    return rows.map((r) => ({ id: r.id, attempt: r.attempt_count, endpointId: r.endpoint_id }));
  }
}

/** Fails the endpoint's pending deliveries that are not in flight (or only this one): nothing is sent to a disabled endpoint. */
export async function failPending(m: EntityManager, endpointId: string, now: Date, why: string, deliveryId?: string): Promise<void> {
  await m.query(
    `UPDATE delivery SET state = 'failed', next_attempt_at = NULL, completed_at = $2, last_error = $3
     WHERE endpoint_id = $1 AND state = 'pending' AND (locked_until IS NULL OR locked_until <= $2) ${deliveryId ? 'AND id = $4' : ''}`,
    deliveryId ? [endpointId, now, why, deliveryId] : [endpointId, now, why],
  );
}
