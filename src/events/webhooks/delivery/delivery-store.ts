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
  headers: Record<string, string>;
}

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

/** An endpoint as the claim reads it, with a delivery that may be claimed (or none). */
interface CandidateRow {
  endpoint_id: string;
  url: string;
  enabled: boolean;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | string | null;
  id: string | null;
  account_id: string;
  event_id: string;
  event_created_at: Date | string;
  message_id: string;
  is_test: boolean;
  kind: EventKind;
  body: string;
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

const CANDIDATE_COLUMNS = `w.id AS endpoint_id, w.url, w.enabled, w.secret, w.previous_secret, w.previous_secret_expires_at,
  c.id, c.account_id, c.event_id, c.event_created_at, c.message_id, c.is_test, c.kind, c.body`;
const CANDIDATE_SELECT = `SELECT d.id, d.account_id, d.event_id, ev.created_at AS event_created_at, d.message_id, d.is_test, ev.kind, ev.body FROM delivery d JOIN event ev ON ev.id = d.event_id`;
const DUE = `d.state = 'pending' AND d.next_attempt_at <= $2 AND (d.locked_until IS NULL OR d.locked_until <= $2)`;

/** The due deliveries of several endpoints, oldest first, at most n each; every endpoint has a row (id null when none is due). */
const ENDPOINT_CANDIDATES = `SELECT ${CANDIDATE_COLUMNS}
  FROM unnest($1::text[], $3::int[]) AS t (endpoint_id, n)
  JOIN webhook_endpoint w ON w.id = t.endpoint_id
  LEFT JOIN LATERAL (${CANDIDATE_SELECT} WHERE d.endpoint_id = t.endpoint_id AND ${DUE} ORDER BY d.next_attempt_at, d.id LIMIT t.n) c ON true`;

/** One delivery if it is due, and its endpoint whether it is or not. */
const DELIVERY_CANDIDATE = `SELECT ${CANDIDATE_COLUMNS}
  FROM webhook_endpoint w
  LEFT JOIN LATERAL (${CANDIDATE_SELECT} WHERE d.id = $1 AND d.endpoint_id = w.id AND ${DUE}) c ON true
  WHERE w.id = (SELECT endpoint_id FROM delivery WHERE id = $1)`;

/**
 * Batches claimed at the same time by one process: one round trip waits on another's, and the
 * database has more than one core. Their endpoints differ (a process drains an endpoint once),
 * and each locks its endpoints in order, so they never wait on each other in a cycle.
 */
const CLAIMS_AT_ONCE = 2;

/** How long a read's unclaimed candidates stand in for a new read (see DeliveryStore.leftovers). */
const LEFTOVER_MS = 500;
/** Candidates read per endpoint beyond a claim's own, in endpoint limits: enough for its next few claims. */
const LEFTOVER_READ_AHEAD = 3;

const CLAIM = `SELECT claimed_id, claimed_attempt, claimed_max_attempts FROM claim_deliveries($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`;

/**
 * The claims of the delivery rows' state machine in SQL, shared by every worker (and the
 * simulator in the api); outcomes are DeliveryOutcomes'.
 *
 * A claim reads the due deliveries without a lock, signs their requests, then calls
 * `claim_deliveries` (see its migration): under each endpoint's row lock, it counts the
 * attempts in flight (at most WEBHOOK_ENDPOINT_CONCURRENCY), bumps `attempt_count` and sets the
 * lease in one UPDATE that only matches a due, unleased, pending row — so two workers never
 * make the same attempt — and logs the attempts with the headers signed for them. A worker
 * that dies leaves its lease to expire; the attempt it left is then recorded as abandoned and
 * the next claim makes a new attempt with the same webhook-id.
 *
 * Group claim: the claims of every endpoint a worker drains, asked for while one is under way
 * (or in the same turn of the event loop), are made together by the next — one read and one
 * call for all of them, not a transaction each.
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
  /**
   * Per endpoint, the candidates its last full claim read and did not claim: its next claim
   * (within LEFTOVER_MS) offers them to claim_deliveries without reading again. Stale ones cost
   * nothing but a short claim: the function takes only rows still due and unleased, against the
   * endpoint as it was read.
   */
  private readonly leftovers = new Map<string, { at: number; rows: CandidateRow[] }>();
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
   * time) before the claim, so the log has them even if the worker dies mid-request.
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

  /** One read, one call: the claims of a batch, in its order. */
  private async claimBatch(batch: ClaimRequest[]): Promise<ClaimedDelivery[][]> {
    const limit = this.config.webhooks.endpointConcurrency;
    const now = batch.reduce((latest, r) => (r.now > latest ? r.now : latest), batch[0].now);
    const first = batch[0].target;
    const wanted = (t: DeliveryTarget) => ('deliveryId' in t ? 1 : Math.min(t.max, limit));
    // An endpoint's unclaimed candidates from a recent read stand in for a new read.
    // Expired ones go, whether or not their endpoint is claimed for again.
    for (const [endpointId, left] of this.leftovers)
      if (Date.now() - left.at >= LEFTOVER_MS) this.leftovers.delete(endpointId);
    const cached = new Map<string, { at: number; rows: CandidateRow[] }>();
    const toRead: Array<{ endpointId: string; n: number }> = [];
    for (const { target } of batch) {
      if ('deliveryId' in target) continue;
      const left = this.leftovers.get(target.endpointId);
      if (left && left.rows.length >= wanted(target)) cached.set(target.endpointId, left);
      // Enough for this claim (see below) and this endpoint's next few (`leftovers`).
      else toRead.push({ endpointId: target.endpointId, n: wanted(target) + LEFTOVER_READ_AHEAD * limit });
    }
    const rows =
      'deliveryId' in first
        ? await preparedRows<CandidateRow>(this.dataSource, 'delivery_candidate', DELIVERY_CANDIDATE, [
            first.deliveryId,
            now,
          ])
        : toRead.length === 0
          ? []
          : await preparedRows<CandidateRow>(this.dataSource, 'endpoint_candidates', ENDPOINT_CANDIDATES, [
              toRead.map((r) => r.endpointId),
              now,
              toRead.map((r) => r.n),
            ]);
    const byEndpoint = new Map<string, CandidateRow[]>();
    for (const [endpointId, left] of cached) byEndpoint.set(endpointId, left.rows);
    for (const row of rows) {
      const list = byEndpoint.get(row.endpoint_id) ?? [];
      list.push(row);
      byEndpoint.set(row.endpoint_id, list);
    }
    // Each request's endpoint and its candidates' requests, signed with the claim's time.
    const prepared = batch.map((request) => {
      const t = request.target;
      const endpointRows = 'deliveryId' in t ? rows : (byEndpoint.get(t.endpointId) ?? []);
      const endpoint = endpointRows[0];
      if (!endpoint) return { request, endpoint: undefined, claims: [] };
      // Stored sealed (secret-box.ts): opened to sign; the claim compares the stored values.
      const secrets = [this.box.open(endpoint.secret)];
      if (
        endpoint.previous_secret &&
        endpoint.previous_secret_expires_at &&
        new Date(endpoint.previous_secret_expires_at) > now
      )
        secrets.push(this.box.open(endpoint.previous_secret));
      // The oldest: as a claim made meanwhile elsewhere took at most `limit` of them, max + limit leave enough.
      const claims = endpoint.enabled
        ? endpointRows
            .filter((row) => row.id !== null)
            .slice(0, wanted(t) + limit)
            .map((row) => {
              const base = {
                deliveryId: row.id!,
                endpointId: endpoint.endpoint_id,
                accountId: row.account_id,
                eventId: row.event_id,
                eventCreatedAt: new Date(row.event_created_at),
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
              return { ...base, headers: request.prepare(base) };
            })
        : [];
      return { request, endpoint, claims };
    });
    // Nothing is sent to a disabled endpoint: its deliveries fail.
    for (const p of prepared) {
      if (p.endpoint && !p.endpoint.enabled) {
        const t = p.request.target;
        await this.dataSource.transaction((m) =>
          failPending(
            m,
            p.endpoint!.endpoint_id,
            now,
            'the endpoint is disabled',
            'deliveryId' in t ? t.deliveryId : undefined,
          ),
        );
      }
    }
    const toClaim = prepared
      .filter((p) => p.claims.length > 0)
      .sort((a, b) => (a.endpoint!.endpoint_id < b.endpoint!.endpoint_id ? -1 : 1));
    if (toClaim.length === 0) return batch.map(() => []);
    const candidates = toClaim.flatMap((p) => p.claims);
    const claiming = new Set(toClaim.map((p) => p.endpoint!.endpoint_id));
    const claimed = await preparedRows<{ claimed_id: string; claimed_attempt: number; claimed_max_attempts: number }>(
      this.dataSource,
      'claim_deliveries',
      CLAIM,
      [
        now,
        new Date(now.getTime() + this.config.webhooks.timeoutMs + LEASE_MARGIN_MS),
        limit,
        toClaim.map((p) => p.endpoint!.endpoint_id),
        toClaim.map((p) => wanted(p.request.target)),
        toClaim.map((p) => {
          const t = p.request.target;
          return 'deliveryId' in t ? false : Boolean(t.skipLocked);
        }),
        toClaim.map((p) => p.endpoint!.url),
        toClaim.map((p) => p.endpoint!.secret),
        candidates.map((c) => c.deliveryId),
        candidates.map((c) => JSON.stringify(c.headers)),
        [...this.answered].filter(([, endpointId]) => claiming.has(endpointId)).map(([deliveryId]) => deliveryId),
        this.commitAsync,
        toClaim.map((p) => {
          const t = p.request.target;
          return !('deliveryId' in t) || t.circuit !== false;
        }),
      ],
    );
    const byId = new Map(claimed.map((r) => [r.claimed_id, r]));
    // What a full claim left unclaimed is offered to the endpoint's next claim (as old as its
    // read); a short claim — the endpoint full, or candidates taken or changed meanwhile — reads again.
    for (const p of prepared) {
      const t = p.request.target;
      if ('deliveryId' in t) continue;
      const got = p.claims.filter((c) => byId.has(c.deliveryId)).length;
      const rest = (byEndpoint.get(t.endpointId) ?? []).filter((row) => row.id !== null && !byId.has(row.id));
      if (got === wanted(t) && got > 0 && rest.length > 0)
        this.leftovers.set(t.endpointId, { at: cached.get(t.endpointId)?.at ?? Date.now(), rows: rest });
      else this.leftovers.delete(t.endpointId);
    }
    // Oldest first, as claimed.
    const results = prepared.map((p) =>
      p.claims
        .filter((c) => byId.has(c.deliveryId))
        .map((c) => ({
          ...c,
          attempt: byId.get(c.deliveryId)!.claimed_attempt,
          maxAttempts: byId.get(c.deliveryId)!.claimed_max_attempts,
        })),
    );
    // A short claim from leftovers says nothing of what else is due (a drain takes a short claim
    // for "nothing more"): claim the rest from a new read.
    const again = batch.flatMap((request, i) => {
      const t = request.target;
      if ('deliveryId' in t || !cached.has(t.endpointId) || results[i].length >= wanted(t)) return [];
      return [{ i, request: { ...request, target: { ...t, max: wanted(t) - results[i].length } } }];
    });
    if (again.length > 0) {
      const more = await this.claimBatch(again.map((a) => a.request));
      again.forEach((a, j) => results[a.i].push(...more[j]));
    }
    return results;
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
