import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../platform/config/app-config';
import { Clock } from '../../../platform/clock';
import { isDatabaseUnavailable } from '../../../platform/database/database-errors';
import { storableText } from '../../../platform/validation/text-input';
import { ConnectorRegistry } from '../../../registers/connector-registry';
import type { StreamedFiling } from '../../../registers/change-detection';
import type { CompanyDetail, CompanyRecord } from '../../../registers/connector';
import { CountryCode } from '../../../registers/registers';
import { UpstreamError } from '../../../registers/upstream-error';
import { RegisterStatusService } from '../../../status/register-status.service';
import { DetectionMetrics } from '../detection-metrics';
import { DetectionEventWriter, EmittedEvent } from '../events/detection-event-writer';
import { ChangeSources } from '../feeds/change-sources.service';
import { FeedCursorStore } from '../feeds/feed-cursor-store';
import { ChangeApplier, CheckOutcome } from '../snapshots/change-applier';
import { CompanySnapshotEntity } from '../snapshots/company-snapshot.entity';
import { DueSelection, SnapshotStore } from '../snapshots/snapshot-store';
import { StreamEntryApplier } from '../snapshots/stream-entry-applier';
import { nextSlot } from './check-schedule';

/** How long a claimed company stays reserved for the worker that claimed it. */
export const CHECK_LEASE_MS = 10 * 60_000;
/** After a failed read, the company is tried again this soon (capped by the interval). */
const RETRY_AFTER_FAILURE_MS = 5 * 60_000;
/** How often a new watch's creation looks whether the worker holding its company took the baseline. */
const BASELINE_POLL_MS = 100;
/**
 * How long before a gap in the filings stream a filing's date may be and still be recovered: a
 * filing is dated when the register received it and streamed when processed, days (a paper
 * filing, weeks) later. A filing of that margin the stream did send is known, and not sent again.
 */
const FILING_GAP_MARGIN_MS = 31 * 86_400_000;

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
    private readonly snapshots: SnapshotStore,
    private readonly cursors: FeedCursorStore,
    private readonly connectors: ConnectorRegistry,
    private readonly statuses: RegisterStatusService,
    private readonly applier: ChangeApplier,
    private readonly streamed: StreamEntryApplier,
    private readonly sources: ChangeSources,
    private readonly sink: DetectionEventWriter,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly metrics: DetectionMetrics,
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
    // read longer ago than its feed can vouch for (rereadBefore) is due for a read instead.
    if (kind === 'confirm' && (scheduled || !feedReadUpTo)) return { token, entityIds: [] };
    const upTo = feedReadUpTo && feedReadUpTo < now ? feedReadUpTo : now;
    const which: DueSelection = kind === 'confirm' ? { confirmUpTo: upTo } : scheduled ? 'scheduled' : 'feed_read';
    const lease = { token, until: new Date(now.getTime() + CHECK_LEASE_MS) };
    const stale = this.staleBefore(country, now);
    return { token, entityIds: await this.snapshots.claimDue(country, which, limit, lease, now, stale) };
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
    const confirmed = await this.snapshots.confirmQuiet(
      country,
      upTo,
      this.config.detection.intervalSeconds,
      now,
      this.staleBefore(country, now),
    );
    this.metrics.checked(country, 'no_change', confirmed);
    return confirmed;
  }

  /** rereadBefore as a query parameter: '-infinity' (no company read before it) where the feed is trusted alone. */
  private staleBefore(country: CountryCode, now: Date): string {
    return this.sources.rereadBefore(country, now)?.toISOString() ?? '-infinity';
  }

  /** Companies of a register held by a lease of this kind now (how much work is in flight). */
  async leasedCount(country: CountryCode, kind: CheckKind = 'read'): Promise<number> {
    return this.snapshots.leasedCount(country, `${kind === 'read' ? 'r' : 'c'}.`, this.clock.now());
  }

  async checkBatch(country: CountryCode, entityIds: string[], token: string): Promise<CheckResult[]> {
    const results: CheckResult[] = [];
    for (const entityId of entityIds)
      results.push({ entityId, outcome: await this.checkOne(country, entityId, token) });
    return results;
  }

  /**
   * The baseline read of a new watch, at once (api process): claims the company if nobody
   * holds it and reads it when its register is readable. A new company is due at once, so a
   * worker may have claimed it first: then this waits for that worker's baseline, for as long
   * as its own read could have taken, and claims the company itself if the worker lets it go
   * without one. Returns false when it stays pending.
   */
  async takeBaselineNow(country: CountryCode, entityId: string): Promise<boolean> {
    // Real time, not the clock: this is how long the request waits.
    const waitUntil = Date.now() + this.config.registerTimeoutMs;
    for (;;) {
      if (!(await this.statuses.current(country)).readable) return false;
      const now = this.clock.now();
      const token = `r.${randomBytes(9).toString('base64url')}`;
      const lease = { token, until: new Date(now.getTime() + CHECK_LEASE_MS) };
      if (await this.snapshots.claimForBaseline(entityId, lease, now)) {
        return (await this.checkOne(country, entityId, token)) === 'baseline';
      }
      if (await this.snapshots.baselineTaken(entityId)) return true;
      if (Date.now() + BASELINE_POLL_MS > waitUntil) return false;
      await sleep(BASELINE_POLL_MS);
    }
  }

  private async checkOne(country: CountryCode, entityId: string, token: string): Promise<CheckOutcome | 'skipped'> {
    let outcome: CheckOutcome | 'skipped';
    try {
      outcome = await this.checkLeased(country, entityId, token);
    } catch (err) {
      // A database that cannot answer fails the whole job, which is retried. Anything else is
      // this company's own (a record the database refuses): it must not hold up the batch, nor
      // be claimed first again and again.
      if (isDatabaseUnavailable(err)) throw err;
      outcome = await this.failed(entityId, token, err as Error);
    }
    this.metrics.checked(country, outcome);
    return outcome;
  }

  /** When a company whose check failed is tried again (within its interval). */
  private retryAfterFailure(now: Date): Date {
    return new Date(now.getTime() + Math.min(RETRY_AFTER_FAILURE_MS, this.intervalMs));
  }

  /** A check that failed on our side: recorded, and tried again after a while (its lease let go). */
  private async failed(entityId: string, token: string, err: Error): Promise<'failed'> {
    this.logger.error({ err }, `check of ${entityId} failed: ${err.message}`);
    const now = this.clock.now();
    await this.release(entityId, token, {
      outcome: 'failed',
      detail: `internal_error: ${storableText(err.message)}`,
      nextCheckAt: this.retryAfterFailure(now),
      readStartedAt: now,
    });
    return 'failed';
  }

  private async checkLeased(country: CountryCode, entityId: string, token: string): Promise<CheckOutcome | 'skipped'> {
    const snapshot = await this.snapshots.findLeased(entityId, token);
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
    let record: CompanyRecord | CompanyDetail | null;
    // After a gap in the filings stream: the company's filings, to find those the stream missed.
    const history = snapshot.filingsGapSince && snapshot.baselineAt ? this.sources.filingHistory(country) : null;
    let filings: StreamedFiling[] = [];
    // Where officers are watched, a read is the whole lookup (record and officers), compared as one.
    const withOfficers = this.sources.officers(country) !== null;
    try {
      const connector = this.connectors.get(country);
      record = withOfficers
        ? await connector.lookup(snapshot.registrationNumber)
        : await connector.readRecord(snapshot.registrationNumber);
      if (record && history) filings = await history.read(snapshot.registrationNumber);
    } catch (err) {
      const e = UpstreamError.from(err);
      this.logger.warn(`check of ${entityId} failed: ${e.errorClass} (${e.message})`);
      const retryAt = this.retryAfterFailure(this.clock.now());
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
      const locked = await this.snapshots.lockIfLeased(m, entityId, token);
      if (!locked) return { outcome: 'skipped' as const, emitted: [] };
      const applied = await this.applier.apply(m, locked, record, {
        scheduled: periodic && locked.baselineAt !== null && locked.readRequestedAt === null,
        now: after,
        officers: withOfficers ? (record as CompanyDetail).officers : undefined,
      });
      if (locked.filingsGapSince) {
        applied.emitted.push(...(await this.recoverFilings(m, locked, filings, after)));
        // Read, or not readable under this configuration: either way nothing more to do for this gap.
        if (history || !this.sources.filingHistory(country))
          await this.snapshots.clearFilingsGap(m, entityId, readStartedAt);
      }
      await this.snapshots.release(m, entityId, token, { nextCheckAt, readStartedAt });
      return applied;
    });
    await this.sink.wake(result.emitted);
    return result.outcome;
  }

  /**
   * The filings of a gap in the filings stream, applied as the stream would have (oldest first;
   * one it did send is known and gives nothing): those dated from FILING_GAP_MARGIN_MS before the
   * gap on, and not before the company was first read (older ones are its history, not news).
   */
  private async recoverFilings(
    m: EntityManager,
    snapshot: CompanySnapshotEntity,
    filings: StreamedFiling[],
    now: Date,
  ): Promise<EmittedEvent[]> {
    const gap = snapshot.filingsGapSince!.getTime() - FILING_GAP_MARGIN_MS;
    const from = new Date(Math.max(gap, snapshot.baselineAt!.getTime())).toISOString().slice(0, 10);
    const emitted: EmittedEvent[] = [];
    for (const filing of [...filings].reverse())
      if (filing.date && filing.date >= from)
        emitted.push(...(await this.streamed.applyFiling(m, snapshot, filing, now)));
    return emitted;
  }

  /** Feed and stream registers: the feed, read to its end since this check fell due, named nothing. */
  private async confirmFromFeed(
    country: CountryCode,
    snapshot: CompanySnapshotEntity,
    token: string,
    now: Date,
  ): Promise<CheckOutcome | 'skipped'> {
    const feed = await this.cursors.get(country);
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
      const locked = await this.snapshots.lockIfLeased(m, snapshot.entityId, token);
      if (!locked) return null;
      const events = await this.applier.confirmFromFeed(
        m,
        locked,
        { source_mode: 'live', source_url: url, retrieved_at: feed.caughtUpAt!.toISOString() },
        now,
      );
      await this.snapshots.release(m, snapshot.entityId, token, {
        nextCheckAt: nextSlot(snapshot.entityId, now, this.intervalMs),
      });
      return events;
    });
    if (!emitted) return 'skipped';
    await this.sink.wake(emitted);
    return 'no_change';
  }

  private async release(
    entityId: string,
    token: string,
    o: { outcome: CheckOutcome | null; detail?: string; nextCheckAt?: Date; readStartedAt?: Date },
  ): Promise<void> {
    await this.dataSource.transaction(async (m) => {
      if (o.outcome)
        await this.snapshots.recordOutcome(m, entityId, token, o.outcome, o.detail ?? null, this.clock.now());
      await this.snapshots.release(m, entityId, token, o);
    });
  }
}
