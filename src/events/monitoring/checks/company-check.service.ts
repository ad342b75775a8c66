import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../platform/config/app-config';
import { Clock } from '../../../platform/clock';
import { returningRows } from '../../../platform/database/returning-rows';
import { ConnectorRegistry } from '../../../registers/connector-registry';
import type { CompanyRecord } from '../../../registers/connector';
import { CountryCode } from '../../../registers/registers';
import { UpstreamError } from '../../../registers/upstream-error';
import { RegisterStatusService } from '../../../status/register-status.service';
import { DetectionEventWriter } from '../events/detection-event-writer';
import { ChangeSources } from '../feeds/change-sources.service';
import { FeedCursorEntity } from '../feeds/feed-cursor.entity';
import { feedName } from '../feeds/feed-names';
import { ChangeApplier, CheckOutcome } from '../snapshots/change-applier';
import { CompanySnapshotEntity } from '../snapshots/company-snapshot.entity';
import { nextSlot } from './check-schedule';

/** How long a claimed company stays reserved for the worker that claimed it. */
export const CHECK_LEASE_MS = 10 * 60_000;
/** After a failed read, the company is tried again this soon (capped by the interval). */
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;

/** A check that reads the register, or one that confirms a company against its register's feed. */
export type CheckKind = 'read' | 'confirm';

export interface CheckResult {
  entityId: string;
  outcome: CheckOutcome | 'skipped';
}

/**
 * Checks companies a worker has claimed (lease token): re-reads them through the register's
 * connector when their register is watched by schedule, when the baseline is pending or when
 * a feed named them; otherwise confirms them against the feed without a request. Reads happen
 * outside any transaction; the result is applied under the row lock, only if the lease is
 * still this worker's — so one company is never applied twice by two workers.
 */
@Injectable()
export class CompanyCheckService {
  private readonly logger = new Logger(CompanyCheckService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly connectors: ConnectorRegistry,
    private readonly statuses: RegisterStatusService,
    private readonly applier: ChangeApplier,
    private readonly sources: ChangeSources,
    private readonly sink: DetectionEventWriter,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  get intervalMs(): number {
    return this.config.detection.intervalSeconds * 1000;
  }

  /**
   * Claims up to `limit` due companies of a register that nobody holds, for `CHECK_LEASE_MS`,
   * and returns the lease token and their ids. `read`: companies whose check reads the register
   * (every due one of a register watched by schedule; a pending baseline or a read a feed
   * asked for otherwise), those a feed asked for first, then pending baselines, then by due
   * time. `confirm`: due companies of a feed register, confirmed against the feed without a
   * request. Only companies someone watches are claimed.
   */
  async claimDue(
    country: CountryCode,
    limit: number,
    kind: CheckKind = 'read',
    feedReadUpTo?: Date,
  ): Promise<{ token: string; entityIds: string[] }> {
    const now = this.clock.now();
    const token = `${kind === 'read' ? 'r' : 'c'}.${randomBytes(9).toString('base64url')}`;
    const scheduled = this.sources.mode(country) === 'schedule';
    // Confirmations: only companies someone asked company.no_change of (the others are
    // confirmed together by confirmQuiet), and only up to where the feed was read. A company
    // read longer ago than its feed can vouch for ($7, rereadBefore) is due for a read instead.
    const which =
      kind === 'confirm'
        ? `s.baseline_at IS NOT NULL AND s.read_requested_at IS NULL AND s.next_check_at <= $6
           AND s.retrieved_at >= $7::timestamptz
           AND EXISTS (SELECT 1 FROM watch n WHERE n.entity_id = s.entity_id AND n.notify_no_change)`
        : scheduled
          ? '(s.next_check_at <= $2 OR s.read_requested_at IS NOT NULL)'
          : '(s.baseline_at IS NULL OR s.read_requested_at IS NOT NULL OR (s.next_check_at <= $2 AND s.retrieved_at < $6::timestamptz))';
    const stale = this.staleBefore(country, now);
    if (kind === 'confirm' && (scheduled || !feedReadUpTo)) return { token, entityIds: [] };
    const upTo = feedReadUpTo && feedReadUpTo < now ? feedReadUpTo : now;
    const rows = returningRows<{ entity_id: string }>(
      await this.dataSource.query(
        `WITH due AS (
         SELECT s.entity_id FROM company_snapshot s
         WHERE s.country = $1 AND ${which}
           AND (s.lease_until IS NULL OR s.lease_until < $2)
           AND EXISTS (SELECT 1 FROM watch w WHERE w.entity_id = s.entity_id)
         ORDER BY s.read_requested_at IS NULL, s.baseline_at IS NOT NULL, s.next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE company_snapshot c SET lease_token = $4, lease_until = $5 FROM due WHERE c.entity_id = due.entity_id
       RETURNING c.entity_id`,
        [
          country,
          now,
          limit,
          token,
          new Date(now.getTime() + CHECK_LEASE_MS),
          ...(kind === 'confirm' ? [upTo, stale] : scheduled ? [] : [stale]),
        ],
      ),
    );
    return { token, entityIds: rows.map((r) => r.entity_id) };
  }

  /**
   * The scheduled checks of a feed register whose watchers did not ask for company.no_change,
   * confirmed together: every due company the feed was read past (and that no feed entry
   * asked to re-read) is recorded as checked without change, and moves to its next place in
   * the interval. Nothing is sent, so nothing needs a transaction per company.
   */
  async confirmQuiet(country: CountryCode, feedReadUpTo: Date): Promise<number> {
    const now = this.clock.now();
    const upTo = feedReadUpTo < now ? feedReadUpTo : now;
    const intervalS = this.config.detection.intervalSeconds;
    const rows = returningRows(
      await this.dataSource.query(
        `UPDATE company_snapshot s SET checked_at = $2, check_outcome = 'no_change',
         check_detail = 'no entry in the register''s change feed up to ' || to_char($3::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
         next_check_at = s.next_check_at + make_interval(secs => $4::double precision * (floor(extract(epoch FROM ($2::timestamptz - s.next_check_at)) / $4) + 1))
       WHERE s.country = $1 AND s.baseline_at IS NOT NULL AND s.read_requested_at IS NULL AND s.next_check_at <= $3
         AND (s.lease_until IS NULL OR s.lease_until < $2)
         AND EXISTS (SELECT 1 FROM watch w WHERE w.entity_id = s.entity_id)
         AND NOT EXISTS (SELECT 1 FROM watch n WHERE n.entity_id = s.entity_id AND n.notify_no_change)
         AND s.retrieved_at >= $5::timestamptz
       RETURNING s.entity_id`,
        [country, now, upTo, intervalS, this.staleBefore(country, now)],
      ),
    );
    return rows.length;
  }

  /** rereadBefore as a query parameter: '-infinity' (no company read before it) where the feed is trusted alone. */
  private staleBefore(country: CountryCode, now: Date): string {
    return this.sources.rereadBefore(country, now)?.toISOString() ?? '-infinity';
  }

  /** Companies of a register held by a lease of this kind now (how much work is in flight). */
  async leasedCount(country: CountryCode, kind: CheckKind = 'read'): Promise<number> {
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM company_snapshot WHERE country = $1 AND lease_token LIKE $3 AND lease_until > $2`,
      [country, this.clock.now(), `${kind === 'read' ? 'r' : 'c'}.%`],
    );
    return rows[0].n;
  }

  async checkBatch(country: CountryCode, entityIds: string[], token: string): Promise<CheckResult[]> {
    const results: CheckResult[] = [];
    for (const entityId of entityIds)
      results.push({ entityId, outcome: await this.checkOne(country, entityId, token) });
    return results;
  }

  /**
   * The baseline read of a new watch, at once (api process): claims the company if nobody
   * holds it and reads it when its register is readable. Returns false when it stays pending.
   */
  async takeBaselineNow(country: CountryCode, entityId: string): Promise<boolean> {
    if (!(await this.statuses.current(country)).readable) return false;
    const now = this.clock.now();
    const token = `r.${randomBytes(9).toString('base64url')}`;
    const claimed = returningRows(
      await this.dataSource.query(
        `UPDATE company_snapshot SET lease_token = $2, lease_until = $3
       WHERE entity_id = $1 AND baseline_at IS NULL AND (lease_until IS NULL OR lease_until < $4) RETURNING entity_id`,
        [entityId, token, new Date(now.getTime() + CHECK_LEASE_MS), now],
      ),
    );
    if (claimed.length === 0) return false;
    const outcome = await this.checkOne(country, entityId, token);
    return outcome === 'baseline';
  }

  private async checkOne(country: CountryCode, entityId: string, token: string): Promise<CheckOutcome | 'skipped'> {
    const snapshot = await this.dataSource
      .getRepository(CompanySnapshotEntity)
      .findOneBy({ entityId, leaseToken: token });
    if (!snapshot) return 'skipped';
    const status = await this.statuses.current(country);
    if (!status.readable) {
      // Not read, not "no change": the company stays due and is caught up after recovery.
      await this.release(entityId, token, { outcome: null });
      return 'skipped';
    }
    const now = this.clock.now();
    const periodic = snapshot.nextCheckAt <= now;
    const mode = this.sources.mode(country);
    const stale = this.sources.rereadBefore(country, now);
    const mustRead =
      mode === 'schedule' ||
      !snapshot.baselineAt ||
      snapshot.readRequestedAt !== null ||
      (periodic && stale !== null && (snapshot.retrievedAt === null || snapshot.retrievedAt < stale));
    if (!mustRead) return this.confirmFromFeed(country, snapshot, token, now);

    const readStartedAt = now;
    let record: CompanyRecord | null;
    try {
      record = await this.connectors.get(country).readRecord(snapshot.registrationNumber);
    } catch (err) {
      const e = UpstreamError.from(err);
      this.logger.warn(`check of ${entityId} failed: ${e.errorClass} (${e.message})`);
      const retryAt = new Date(this.clock.now().getTime() + Math.min(RETRY_AFTER_FAILURE_MS, this.intervalMs));
      await this.release(entityId, token, {
        outcome: 'failed',
        detail: `${e.errorClass}: ${e.message}`,
        nextCheckAt: periodic || !snapshot.baselineAt ? retryAt : undefined,
      });
      return 'failed';
    }
    const after = this.clock.now();
    const nextCheckAt = periodic ? nextSlot(entityId, after, this.intervalMs) : undefined;
    if (!record) {
      await this.release(entityId, token, {
        outcome: 'not_found',
        detail: 'the register has no company with this number',
        nextCheckAt,
        readStartedAt,
      });
      return 'not_found';
    }
    const result = await this.dataSource.transaction(async (m) => {
      const locked = await this.lockIfLeased(m, entityId, token);
      if (!locked) return { outcome: 'skipped' as const, emitted: [] };
      const applied = await this.applier.apply(m, locked, record, {
        scheduled: periodic && locked.baselineAt !== null && locked.readRequestedAt === null,
        now: after,
      });
      await this.releaseIn(m, entityId, token, { nextCheckAt, readStartedAt });
      return applied;
    });
    await this.sink.wake(result.emitted);
    return result.outcome;
  }

  /** Feed and stream registers: the feed, read to its end since this check fell due, named nothing. */
  private async confirmFromFeed(
    country: CountryCode,
    snapshot: CompanySnapshotEntity,
    token: string,
    now: Date,
  ): Promise<CheckOutcome | 'skipped'> {
    const feed = await this.dataSource.getRepository(FeedCursorEntity).findOneBy({ feed: feedName(country) });
    if (!feed?.caughtUpAt || feed.caughtUpAt < snapshot.nextCheckAt) {
      const retry = new Date(now.getTime() + this.config.detection.feedPollIntervalSeconds * 1000);
      await this.release(snapshot.entityId, token, {
        outcome: 'feed_behind',
        detail: 'waiting for the change feed to be read past the check time',
        nextCheckAt: retry,
      });
      return 'feed_behind';
    }
    const url = this.sources.url(country);
    const emitted = await this.dataSource.transaction(async (m) => {
      const locked = await this.lockIfLeased(m, snapshot.entityId, token);
      if (!locked) return null;
      const events = await this.applier.confirmFromFeed(
        m,
        locked,
        { source_mode: 'live', source_url: url, retrieved_at: feed.caughtUpAt!.toISOString() },
        now,
      );
      await this.releaseIn(m, snapshot.entityId, token, {
        nextCheckAt: nextSlot(snapshot.entityId, now, this.intervalMs),
      });
      return events;
    });
    if (!emitted) return 'skipped';
    await this.sink.wake(emitted);
    return 'no_change';
  }

  private async lockIfLeased(m: EntityManager, entityId: string, token: string): Promise<CompanySnapshotEntity | null> {
    return m
      .getRepository(CompanySnapshotEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.entity_id = :entityId AND s.lease_token = :token', { entityId, token })
      .getOne();
  }

  private async release(
    entityId: string,
    token: string,
    o: { outcome: CheckOutcome | null; detail?: string; nextCheckAt?: Date; readStartedAt?: Date },
  ): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      if (o.outcome) {
        await m.query(
          `UPDATE company_snapshot SET checked_at = $3, check_outcome = $4, check_detail = $5 WHERE entity_id = $1 AND lease_token = $2`,
          [entityId, token, this.clock.now(), o.outcome, o.detail ?? null],
        );
      }
      await this.releaseIn(m, entityId, token, o);
    });
  }

  private async releaseIn(
    m: EntityManager,
    entityId: string,
    token: string,
    o: { nextCheckAt?: Date; readStartedAt?: Date },
  ): Promise<void> {
    // A read requested by a feed is satisfied only by a read that started after the request.
    await m.query(
      `UPDATE company_snapshot SET lease_token = NULL, lease_until = NULL,
         next_check_at = COALESCE($3, next_check_at),
         read_requested_at = CASE WHEN $4::timestamptz IS NOT NULL AND read_requested_at <= $4::timestamptz THEN NULL ELSE read_requested_at END
       WHERE entity_id = $1 AND lease_token = $2`,
      [entityId, token, o.nextCheckAt ?? null, o.readStartedAt ?? null],
    );
  }
}
