import { SecretBox } from '../../../platform/crypto/secret-box';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../platform/config/app-config';
import { preparedRows } from '../../../platform/database/sql';
import type { EventKind } from '../../event-kinds';

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
  return commitsAsync(config) ? ASYNC_COMMIT : 'NULL';
}

/** Whether claims and outcomes commit without waiting for the disk (see ASYNC_COMMIT). */
function commitsAsync(config: AppConfig): boolean {
  return !config.isEmbedded;
}

/** A delivery claimed for one attempt: everything needed to send it. */
export interface ClaimedDelivery {
  deliveryId: string;
  endpointId: string;
  accountId: string;
  eventId: string;
  /** When the event was written (the delivery lag's start). */
  eventCreatedAt: Date;
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
  /** Every header to send; none when the attempt cannot be signed (`unsigned`). */
  headers: Record<string, string>;
  /**
   * Why the endpoint's secret could not be opened (sealed with a key this process does not
   * hold, or altered): the attempt is not sent, and fails with this for the operator's log.
   */
  unsigned?: string;
}

/** An endpoint's secrets as a claim opened them (`unsigned`: why none could be). */
type OpenedSecrets = Pick<ClaimedDelivery, 'secrets' | 'unsigned'>;

/**
 * One delivery, or up to `max` due deliveries of an endpoint. `skipLocked`: when another
 * claim for the endpoint is under way, claim nothing rather than wait for it (a worker that
 * still has requests in flight looks again when one is done).
 */
export type DeliveryTarget =
  | {
      deliveryId: string;
      /** false: ignore the endpoint's circuit (the simulator's send is a probe of its own). */ circuit?: boolean;
    }
  | { endpointId: string; max: number; skipLocked?: boolean };

/** A claimed delivery as claim_deliveries returns it, with its endpoint (secrets sealed). */
interface ClaimRow {
  c_id: string;
  c_attempt: number;
  c_max_attempts: number;
  c_endpoint_id: string;
  c_url: string;
  c_secret: string;
  c_previous_secret: string | null;
  c_previous_secret_expires_at: Date | string | null;
  c_account_id: string;
  c_event_id: string;
  c_event_created_at: Date | string;
  c_message_id: string;
  c_is_test: boolean;
  c_kind: EventKind;
  c_body: string;
}

type Prepare = (c: Omit<ClaimedDelivery, 'headers'>) => Record<string, string>;

/** One caller's claim, waiting for the next batch. */
interface ClaimRequest {
  target: DeliveryTarget;
  now: Date;
  prepare: Prepare;
  resolve: (claims: ClaimedDelivery[]) => void;
  reject: (err: unknown) => void;
}

/**
 * Batches claimed at the same time by one process: one round trip waits on another's, and the
 * database has more than one core. Their endpoints differ (a process drains an endpoint once),
 * and each locks its endpoints in order, so they never wait on each other in a cycle.
 */
const CLAIMS_AT_ONCE = 2;

const CLAIM = `SELECT * FROM claim_deliveries($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`;

/**
 * The claims of the delivery rows' state machine in SQL, shared by every worker (and the
 * simulator in the api); outcomes are DeliveryOutcomes'.
 *
 * A claim is one call of `claim_deliveries` (see its migrations): under each endpoint's row
 * lock, it counts the attempts in flight (at most WEBHOOK_ENDPOINT_CONCURRENCY), bumps the
 * oldest due deliveries' `attempt_count` and sets their lease in one UPDATE that only matches a
 * due, unleased, pending row — so two workers never make the same attempt — logs the attempts,
 * and returns what the requests need; they are signed with the claim's time. A worker that
 * dies leaves its lease to expire; the attempt it left is then recorded as abandoned and the
 * next claim makes a new attempt with the same webhook-id.
 *
 * Group claim: the claims of every endpoint a worker drains, asked for while one is under way
 * (or in the same turn of the event loop), are made together by the next — one call for
 * all of them, not a transaction each.
 */
@Injectable()
export class DeliveryStore {
  /** Claims commit without waiting for the disk where that is safe (see ASYNC_COMMIT). */
  private readonly commitAsync: boolean;
  private queued: ClaimRequest[] = [];
  /**
   * This process's attempts whose request has been answered and whose outcome is being written
   * (delivery → endpoint): their slots are free (see `answered`).
   */
  private readonly answered = new Map<string, string>();
  /** Batches being claimed now (at most CLAIMS_AT_ONCE). */
  private claiming = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly box: SecretBox,
  ) {
    this.commitAsync = commitsAsync(config);
  }

  /**
   * Claims attempts: of this one delivery, or of up to `max` of the endpoint's oldest due
   * deliveries (never more than its free slots). Empty when there is nothing to do: not due,
   * done, leased, or the endpoint at its limit (or, with `skipLocked`, being claimed for by
   * another worker). `prepare` makes each attempt's request headers (signed with the claim's
   * time); its outcome logs them.
   */
  claim(target: DeliveryTarget, now: Date, prepare: Prepare): Promise<ClaimedDelivery[]> {
    return new Promise((resolve, reject) => {
      this.queued.push({ target, now, prepare, resolve, reject });
      if (this.claiming < CLAIMS_AT_ONCE) {
        this.claiming++;
        setImmediate(() => void this.claimQueued());
      }
    });
  }

  /**
   * The attempt's request is answered (or failed); its outcome is about to be written. Until
   * then the delivery stays leased — no one else claims it — but this process's claims no
   * longer count it in flight: an endpoint's slot is free for the next request as soon as the
   * answer is in, not a database write later. Returns the call that ends it, once the outcome
   * is written (or could not be).
   */
  answeredAttempt(deliveryId: string, endpointId: string): () => void {
    this.answered.set(deliveryId, endpointId);
    return () => this.answered.delete(deliveryId);
  }

  /** Claims what is queued, batch after batch, until nothing is. */
  private async claimQueued(): Promise<void> {
    try {
      while (this.queued.length > 0) {
        // A single delivery is claimed on its own; otherwise one request per endpoint in a batch
        // (two for one endpoint would share its slots): a second waits for the next batch.
        const batch: ClaimRequest[] = [];
        const rest: ClaimRequest[] = [];
        const endpoints = new Set<string>();
        const single = 'deliveryId' in this.queued[0].target;
        for (const request of this.queued) {
          const t = request.target;
          if (single) (batch.length === 0 ? batch : rest).push(request);
          else if ('endpointId' in t && !endpoints.has(t.endpointId)) {
            endpoints.add(t.endpointId);
            batch.push(request);
          } else rest.push(request);
        }
        this.queued = rest;
        try {
          const results = await this.claimBatch(batch);
          batch.forEach((request, i) => request.resolve(results[i]));
        } catch (err) {
          for (const request of batch) request.reject(err);
        }
      }
    } finally {
      this.claiming--;
    }
  }

  /** One call: the claims of a batch, in its order. */
  private async claimBatch(batch: ClaimRequest[]): Promise<ClaimedDelivery[][]> {
    const limit = this.config.webhooks.endpointConcurrency;
    const now = batch.reduce((latest, r) => (r.now > latest ? r.now : latest), batch[0].now);
    const first = batch[0].target;
    const single = 'deliveryId' in first ? first : undefined;
    // Locked in order: two claims never wait on each other's endpoints in a cycle.
    const order = single
      ? []
      : batch
          .map((request) => request.target as { endpointId: string; max: number; skipLocked?: boolean })
          .sort((x, y) => (x.endpointId < y.endpointId ? -1 : 1));
    const claimingFor = new Set(order.map((t) => t.endpointId));
    const rows = await preparedRows<ClaimRow>(this.dataSource, 'claim_deliveries', CLAIM, [
      now,
      new Date(now.getTime() + this.config.webhooks.timeoutMs + LEASE_MARGIN_MS),
      limit,
      order.map((t) => t.endpointId),
      order.map((t) => Math.min(t.max, limit)),
      order.map((t) => Boolean(t.skipLocked)),
      [...this.answered]
        .filter(([, endpointId]) => single || claimingFor.has(endpointId))
        .map(([deliveryId]) => deliveryId),
      this.commitAsync,
      single ? [single.circuit !== false] : order.map(() => true),
      single?.deliveryId ?? null,
    ]);
    // A batch's requests by endpoint (a single delivery's under '').
    const keyOf = (t: DeliveryTarget) => ('endpointId' in t ? t.endpointId : '');
    const requestOf = new Map(batch.map((request) => [keyOf(request.target), request]));
    const claimed = new Map<string, ClaimedDelivery[]>();
    const secretsOf = new Map<string, OpenedSecrets>();
    for (const row of rows) {
      // Stored sealed (secret-box.ts): opened to sign, once per endpoint. One that cannot be
      // opened fails its own attempts, never the rest of the claim (already committed).
      let opened = secretsOf.get(row.c_endpoint_id);
      if (!opened) {
        opened = this.openSecrets(row, now);
        secretsOf.set(row.c_endpoint_id, opened);
      }
      const base = {
        deliveryId: row.c_id,
        endpointId: row.c_endpoint_id,
        accountId: row.c_account_id,
        eventId: row.c_event_id,
        eventCreatedAt: new Date(row.c_event_created_at),
        messageId: row.c_message_id,
        kind: row.c_kind,
        isTest: row.c_is_test,
        body: row.c_body,
        attempt: row.c_attempt,
        maxAttempts: row.c_max_attempts,
        url: row.c_url,
        secrets: opened.secrets,
        startedAt: now,
      };
      const key = single ? '' : row.c_endpoint_id;
      const list = claimed.get(key) ?? [];
      list.push(
        opened.unsigned
          ? { ...base, headers: {}, unsigned: opened.unsigned }
          : { ...base, headers: requestOf.get(key)!.prepare(base) },
      );
      claimed.set(key, list);
    }
    return batch.map((request) => claimed.get(keyOf(request.target)) ?? []);
  }

  /** An endpoint's signing secrets, opened; or none, and why they cannot be. */
  private openSecrets(row: ClaimRow, now: Date): OpenedSecrets {
    try {
      const secrets = [this.box.open(row.c_secret)];
      if (row.c_previous_secret && row.c_previous_secret_expires_at && new Date(row.c_previous_secret_expires_at) > now)
        secrets.push(this.box.open(row.c_previous_secret));
      return { secrets };
    } catch (err) {
      return { secrets: [], unsigned: (err as Error).message };
    }
  }

  /**
   * Whether a delivery could be claimed now, without taking any lock: most wake-ups in a
   * backlog find their delivery already done by a worker draining the endpoint, or the
   * endpoint full. Null when the delivery is gone.
   */
  async peek(deliveryId: string, now: Date): Promise<{ endpointId: string; claimable: boolean } | null> {
    const rows: Array<{ endpoint_id: string; due: boolean; inflight: number; open: boolean; failing: boolean }> =
      await this.dataSource.query(
        `SELECT d.endpoint_id,
              d.state = 'pending' AND d.next_attempt_at <= $2 AND (d.locked_until IS NULL OR d.locked_until <= $2) AS due,
              (SELECT count(*)::int FROM delivery x WHERE x.endpoint_id = d.endpoint_id AND x.state = 'pending' AND x.locked_until > $2) AS inflight,
              coalesce(w.circuit_open_until > $2, false) AS open, w.circuit_failures > 0 AS failing
       FROM delivery d JOIN webhook_endpoint w ON w.id = d.endpoint_id WHERE d.id = $1`,
        [deliveryId, now],
      );
    if (rows.length === 0) return null;
    const r = rows[0];
    // An open circuit holds the endpoint's deliveries; a failing endpoint (half-open included) gets one at a time.
    const limit = r.failing ? 1 : this.config.webhooks.endpointConcurrency;
    return { endpointId: r.endpoint_id, claimable: r.due && !r.open && r.inflight < limit };
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
   * The endpoint's oldest pending delivery not in flight, and when it is due: the one to wake
   * for the probe once the endpoint's circuit is half-open.
   */
  async oldestPending(endpointId: string, now: Date): Promise<{ id: string; attempt: number; dueAt: Date } | null> {
    const rows: Array<{ id: string; attempt_count: number; next_attempt_at: Date | string }> =
      await this.dataSource.query(
        `SELECT id, attempt_count, next_attempt_at FROM delivery WHERE endpoint_id = $1 AND state = 'pending' AND (locked_until IS NULL OR locked_until <= $2)
       ORDER BY next_attempt_at, id LIMIT 1`,
        [endpointId, now],
      );
    return rows.length
      ? { id: rows[0].id, attempt: rows[0].attempt_count, dueAt: new Date(rows[0].next_attempt_at) }
      : null;
  }

  /**
   * Due deliveries that no one holds, due since before `dueBefore`: the ones no queue may be
   * holding any more. At most WEBHOOK_ENDPOINT_CONCURRENCY per endpoint (more could not run
   * at once anyway; whoever runs one carries on with the endpoint's others). None of an
   * endpoint whose circuit is open: they are held, not stranded.
   */
  async stranded(
    now: Date,
    dueBefore: Date,
    limit = 1_000,
  ): Promise<Array<{ id: string; attempt: number; endpointId: string }>> {
    const rows: Array<{ id: string; attempt_count: number; endpoint_id: string }> = await this.dataSource.query(
      `SELECT id, attempt_count, endpoint_id FROM (
         SELECT d.id, d.attempt_count, d.endpoint_id, d.next_attempt_at, row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at, d.id) AS rank
         FROM delivery d JOIN webhook_endpoint w ON w.id = d.endpoint_id
         WHERE d.state = 'pending' AND d.next_attempt_at <= $2 AND (d.locked_until IS NULL OR d.locked_until <= $1)
           AND (w.circuit_open_until IS NULL OR w.circuit_open_until <= $1)
       ) due WHERE rank <= $3 ORDER BY next_attempt_at LIMIT $4`,
      [now, dueBefore, this.config.webhooks.endpointConcurrency, limit],
    );
    return rows.map((r) => ({ id: r.id, attempt: r.attempt_count, endpointId: r.endpoint_id }));
  }
}

/** Fails the endpoint's pending deliveries that are not in flight (or only this one): nothing is sent to a disabled endpoint. */
export async function failPending(
  m: EntityManager,
  endpointId: string,
  now: Date,
  why: string,
  deliveryId?: string,
): Promise<void> {
  await m.query(
    `UPDATE delivery SET state = 'failed', next_attempt_at = NULL, completed_at = $2, last_error = $3
     WHERE endpoint_id = $1 AND state = 'pending' AND (locked_until IS NULL OR locked_until <= $2) ${deliveryId ? 'AND id = $4' : ''}`,
    deliveryId ? [endpointId, now, why, deliveryId] : [endpointId, now, why],
  );
}
