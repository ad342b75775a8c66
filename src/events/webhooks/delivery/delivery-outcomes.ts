import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../platform/config/app-config';
import { preparedRows } from '../../../platform/database/sql';
import { EndpointStore } from '../endpoints/endpoint-store';
import { asyncCommitSql, ClaimedDelivery, failPending } from './delivery-store';

/** What one attempt came to, for the log. */
export interface AttemptRecord {
  durationMs: number;
  status: number | null;
  responseBody: string | null;
  errorClass: string | null;
  errorMessage: string | null;
}

type NextState = {
  state: 'succeeded' | 'pending' | 'failed';
  nextAttemptAt: Date | null;
  lastError: string | null;
  disableEndpoint?: string;
};

/** One outcome waiting to be written, and its caller. */
interface Outcome {
  claim: ClaimedDelivery;
  record: AttemptRecord;
  next: NextState;
  now: Date;
  resolve: (result: FinishResult) => void;
  reject: (err: unknown) => void;
}

/** What writing an outcome did to its endpoint. */
export interface FinishResult {
  /** Why the endpoint was disabled, when this outcome disabled it. */
  disabled: string | null;
  /** Until when the endpoint's circuit is open, when this batch opened it (or opened it again). */
  circuitOpenUntil: Date | null;
  /** This outcome closed the endpoint's circuit: its held deliveries are due now. */
  circuitClosed: boolean;
}

/** What a batch of outcomes does to an endpoint's run of failures (`failing_since`). */
export interface FailureRun {
  /** The batch ends with a success: the run is over (failing_since cleared). */
  healthy: boolean;
  /** Otherwise, when the batch's trailing failures began (the first one's claim). */
  since: Date | null;
  /** The batch had a success before those failures: they start a new run, whatever was stored. */
  reset: boolean;
  /** The batch's trailing failures: added to the stored count of consecutive failures (or replacing it, after a reset). */
  failures: number;
}

/**
 * Per endpoint, the run of failures a batch of outcomes leaves, as if they were written one
 * by one in order: a success clears the run, a failure starts one (at its attempt's claim)
 * unless one is under way.
 */
export function failureRuns(
  outcomes: Array<{ endpointId: string; succeeded: boolean; startedAt: Date }>,
): Map<string, FailureRun> {
  const runs = new Map<string, FailureRun>();
  for (const o of outcomes) {
    const run = runs.get(o.endpointId) ?? { healthy: true, since: null, reset: false, failures: 0 };
    if (o.succeeded) runs.set(o.endpointId, { healthy: true, since: null, reset: true, failures: 0 });
    else
      runs.set(o.endpointId, {
        healthy: false,
        since: run.healthy ? o.startedAt : run.since,
        reset: run.reset,
        failures: run.failures + 1,
      });
  }
  return runs;
}

/**
 * Batches written at the same time: one round trip waits on another's, and the database has
 * more than one core. Their deliveries differ; two that fail on the same endpoints may
 * deadlock over its row, and then each of their outcomes is written on its own (writeQueued).
 */
const WRITES_AT_ONCE = 2;

/** Most outcomes one statement writes. */
const MAX_BATCH = 256;

/**
 * The outcomes of attempts in SQL: the attempt's record, the delivery's next state, the
 * endpoint's run of failures and its disabling.
 *
 * Group commit: outcomes that come in while a write is under way (or in the same turn of the
 * event loop) are written together by the next one, in one statement — a worker with many
 * requests in flight makes one round trip for a handful of outcomes, not one each, and a lone
 * outcome (the simulator's) is written at once. Each caller still waits for its own outcome
 * to be committed.
 */
@Injectable()
export class DeliveryOutcomes {
  private readonly asyncCommit: string;
  private queued: Outcome[] = [];
  /** Batches being written now (at most WRITES_AT_ONCE). */
  private writing = 0;

  constructor(
    private readonly dataSource: DataSource,
    private readonly endpoints: EndpointStore,
    private readonly config: AppConfig,
  ) {
    this.asyncCommit = asyncCommitSql(config);
  }

  /**
   * Records an attempt's outcome and moves the delivery on — only if this attempt still holds
   * it (a late worker whose lease expired records its attempt, and nothing else). Keeps the
   * endpoint's run of failures, and disables the endpoint when told to or when every attempt
   * failed for WEBHOOK_DISABLE_AFTER.
   */
  finish(claim: ClaimedDelivery, record: AttemptRecord, next: NextState, now: Date): Promise<FinishResult> {
    return new Promise((resolve, reject) => {
      this.queued.push({ claim, record, next, now, resolve, reject });
      if (this.writing < WRITES_AT_ONCE) {
        this.writing++;
        setImmediate(() => void this.writeQueued());
      }
    });
  }

  /** Writes what is queued, batch after batch, until nothing is. */
  private async writeQueued(): Promise<void> {
    try {
      while (this.queued.length > 0) {
        const batch = this.queued.splice(0, MAX_BATCH);
        try {
          await this.write(batch);
        } catch (err) {
          if (batch.length === 1) batch[0].reject(err);
          // One bad outcome (or a deadlock with another worker over endpoint rows) must not
          // lose the others: each on its own.
          else for (const o of batch) await this.write([o]).catch((e: unknown) => o.reject(e));
        }
      }
    } finally {
      this.writing--;
    }
  }

  private async write(batch: Outcome[]): Promise<void> {
    // An attempt that could not be signed was never sent: the fault is ours, not the receiver's,
    // so it neither adds to the endpoint's run of failures nor opens its circuit or disables it.
    const endpoints = failureRuns(
      batch
        .filter((o) => !o.claim.unsigned)
        .map((o) => ({
          endpointId: o.claim.endpointId,
          succeeded: o.next.state === 'succeeded',
          startedAt: o.claim.startedAt,
        })),
    );
    const ids = [...endpoints.keys()];
    const iso = (d: Date | null) => d?.toISOString() ?? null;
    // One statement: the attempts' outcomes, the deliveries' next states (only where the
    // attempt still holds its delivery), and the endpoints' runs of failures (a run restarted
    // when the batch had a success before its failures). On Postgres, committed without
    // waiting for the disk (see ASYNC_COMMIT).
    const now = batch.reduce((latest, o) => (o.now > latest ? o.now : latest), batch[0].now);
    const rows = await preparedRows<{
      endpoint_id: string;
      failing_since: Date | string | null;
      opened_until: Date | string | null;
      closed: boolean;
    }>(
      this.dataSource,
      'delivery_outcomes',
      `WITH async AS (SELECT ${this.asyncCommit} AS off),
       o AS (
         SELECT * FROM unnest($1::text[], $2::int[], $3::timestamptz[], $4::int[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[], $10::timestamptz[], $11::timestamptz[], $12::text[], $21::text[])
           AS o(delivery_id, attempt, finished_at, duration_ms, status, response_body, error_class, error_message, state, next_attempt_at, completed_at, last_error, request_headers)
       ), attempt AS (
         UPDATE delivery_attempt a SET request_headers = o.request_headers, finished_at = o.finished_at, duration_ms = o.duration_ms, response_status = o.status, response_body = o.response_body,
           error_class = o.error_class, error_message = o.error_message
         FROM o WHERE a.delivery_id = o.delivery_id AND a.attempt_number = o.attempt
       ), moved AS (
         UPDATE delivery d SET state = o.state, next_attempt_at = o.next_attempt_at, locked_until = NULL, completed_at = o.completed_at, last_error = o.last_error
         FROM o WHERE d.id = o.delivery_id AND d.attempt_count = o.attempt AND d.state = 'pending'
       ), e AS (
         SELECT e.*, CASE WHEN e.reset = 'y' THEN e.fails ELSE w.circuit_failures + e.fails END AS run_failures
         FROM unnest($13::text[], $14::text[], $15::timestamptz[], $16::text[], $17::int[]) AS e(endpoint_id, healthy, since, reset, fails)
         JOIN webhook_endpoint w ON w.id = e.endpoint_id
       ), c AS (
         -- Whether a failing endpoint's circuit opens (again) now: a failed trial while half-open, or the threshold reached.
         SELECT e.endpoint_id, e.healthy = 'n' AND NOT coalesce(w.circuit_open_until > $18, false)
                  AND (w.circuit_opened > 0 OR e.run_failures >= $19) AS opens
         FROM e JOIN webhook_endpoint w ON w.id = e.endpoint_id
       ), ep AS (
         -- A success ends the run of failures and closes the circuit. Healthy endpoints' rows are not written.
         UPDATE webhook_endpoint w SET
           failing_since = CASE WHEN e.healthy = 'y' THEN NULL WHEN w.failing_since IS NULL OR e.reset = 'y' THEN e.since ELSE w.failing_since END,
           circuit_failures = CASE WHEN e.healthy = 'y' THEN 0 ELSE e.run_failures END,
           circuit_opened = CASE WHEN e.healthy = 'y' THEN 0 WHEN c.opens THEN w.circuit_opened + 1 ELSE w.circuit_opened END,
           circuit_open_until = CASE WHEN e.healthy = 'y' THEN NULL
             WHEN c.opens THEN $18::timestamptz + make_interval(secs => ($20::int[])[LEAST(w.circuit_opened + 1, cardinality($20::int[]))] / 1000.0)
             ELSE w.circuit_open_until END
         FROM e JOIN c ON c.endpoint_id = e.endpoint_id
         WHERE w.id = e.endpoint_id AND (e.healthy = 'n' OR w.failing_since IS NOT NULL OR w.circuit_failures > 0 OR w.circuit_opened > 0)
         RETURNING w.id, w.failing_since, w.circuit_open_until, c.opens
       )
       SELECT (SELECT off FROM async) AS off, e.endpoint_id,
              CASE WHEN ep.id IS NULL THEN w.failing_since ELSE ep.failing_since END AS failing_since,
              CASE WHEN ep.opens THEN ep.circuit_open_until END AS opened_until,
              e.healthy = 'y' AND coalesce(w.circuit_opened > 0, false) AS closed
       FROM e LEFT JOIN ep ON ep.id = e.endpoint_id LEFT JOIN webhook_endpoint w ON w.id = e.endpoint_id`,
      [
        batch.map((o) => o.claim.deliveryId),
        batch.map((o) => o.claim.attempt),
        batch.map((o) => iso(o.now)),
        batch.map((o) => o.record.durationMs),
        batch.map((o) => o.record.status),
        batch.map((o) => o.record.responseBody),
        batch.map((o) => o.record.errorClass),
        batch.map((o) => o.record.errorMessage),
        batch.map((o) => o.next.state),
        batch.map((o) => iso(o.next.nextAttemptAt)),
        batch.map((o) => (o.next.state === 'pending' ? null : iso(o.now))),
        batch.map((o) => o.next.lastError),
        ids,
        ids.map((id) => (endpoints.get(id)!.healthy ? 'y' : 'n')),
        ids.map((id) => iso(endpoints.get(id)!.since)),
        ids.map((id) => (endpoints.get(id)!.reset ? 'y' : 'n')),
        ids.map((id) => endpoints.get(id)!.failures),
        iso(now),
        this.config.webhooks.circuit.threshold,
        this.config.webhooks.circuit.backoff,
        // Nothing was sent for an attempt that could not be signed.
        batch.map((o) => (o.claim.unsigned ? null : JSON.stringify(o.claim.headers))),
      ],
    );
    const failingSince = new Map(
      rows.map((r) => [r.endpoint_id, r.failing_since === null ? null : new Date(r.failing_since)]),
    );
    const openedUntil = new Map(
      rows.map((r) => [r.endpoint_id, r.opened_until === null ? null : new Date(r.opened_until)]),
    );
    // The circuit's opening is told once per endpoint and batch (to the outcome that wakes the probe).
    const closed = new Set(rows.filter((r) => r.closed).map((r) => r.endpoint_id));
    const opening = (endpointId: string) => {
      const until = openedUntil.get(endpointId) ?? null;
      openedUntil.delete(endpointId);
      return until;
    };
    // Then, outcome by outcome: whether it disables its endpoint (once per endpoint).
    const disabled = new Map<string, string>();
    for (const o of batch) {
      if (o.next.state === 'succeeded') {
        // Told once per endpoint and batch, to a success (the batch ends with one).
        o.resolve({ disabled: null, circuitOpenUntil: null, circuitClosed: closed.delete(o.claim.endpointId) });
        continue;
      }
      let reason = o.next.disableEndpoint ?? null;
      const since = failingSince.get(o.claim.endpointId);
      if (!reason && since && o.now.getTime() - since.getTime() >= this.config.webhooks.disableAfterMs) {
        reason = `Every delivery attempt failed from ${since.toISOString()} to ${o.now.toISOString()}.`;
      }
      if (reason && !disabled.has(o.claim.endpointId)) {
        disabled.set(o.claim.endpointId, reason);
        try {
          await this.dataSource.transaction((m) => this.disable(m, o.claim.endpointId, reason, o.now));
        } catch (err) {
          o.reject(err);
          continue;
        }
      }
      o.resolve({
        disabled: reason,
        circuitOpenUntil: reason ? null : opening(o.claim.endpointId),
        circuitClosed: false,
      });
    }
  }
  /** Disables an endpoint (if enabled) and fails its pending deliveries that are not in flight. */
  async disable(m: EntityManager, endpointId: string, reason: string, now: Date): Promise<void> {
    if (await this.endpoints.disable(m, endpointId, reason, now))
      await failPending(m, endpointId, now, 'the endpoint was disabled');
  }
}
