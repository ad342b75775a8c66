import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../../platform/database/sql';
import type { Officer } from '../../../registers/connector';
import type { CountryCode } from '../../../registers/registers';
import type { SourceMode } from '../events/detection-events';
import type { WatchedValues } from './company-diff';
import { CompanySnapshotEntity } from './company-snapshot.entity';

/**
 * Which due companies a claim takes (only companies someone watches, those a feed asked to
 * read first, then pending baselines, then by due time): every due one (a register watched by
 * schedule); those a feed register must read (baseline pending, or a read a feed asked for);
 * or those to confirm against a feed read up to `confirmUpTo` (baseline taken, no read asked
 * for, and a watcher who wants company.no_change).
 */
export type DueSelection = 'scheduled' | 'feed_read' | { confirmUpTo: Date };

/** A lease on claimed companies: who holds them (the token) and until when. */
export interface CheckLease {
  token: string;
  until: Date;
}

/** What one official read leaves in a snapshot. */
export interface SnapshotRead {
  values: WatchedValues;
  keys: WatchedValues;
  sourceMode: SourceMode;
  sourceUrl: string;
  retrievedAt: Date;
  /** The first official read: it is the baseline. */
  isBaseline: boolean;
  outcome: string;
  detail: string | null;
  checkedAt: Date;
}

/**
 * The SQL of `company_snapshot`, whose rows are CompanySnapshotEntity: the claims and leases
 * of the checks (`FOR UPDATE SKIP LOCKED`), what a read or a feed entry leaves in a snapshot,
 * and the snapshots a new watch needs. Methods that take a manager run in the caller's
 * transaction; the others on their own.
 */
@Injectable()
export class SnapshotStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Creates the snapshots that do not exist yet: baseline pending, due at `now`. */
  async insertPending(
    m: EntityManager,
    companies: Array<{ entityId: string; country: CountryCode; registrationNumber: string }>,
    now: Date,
  ): Promise<void> {
    await m.query(
      `INSERT INTO company_snapshot (entity_id, country, registration_number, next_check_at, created_at)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $4::timestamptz[])
       ON CONFLICT (entity_id) DO NOTHING`,
      [
        companies.map((c) => c.entityId),
        companies.map((c) => c.country),
        companies.map((c) => c.registrationNumber),
        companies.map(() => now),
      ],
    );
  }

  /** Leases up to `limit` due companies of a register that nobody holds; their ids. */
  async claimDue(
    country: CountryCode,
    which: DueSelection,
    limit: number,
    lease: CheckLease,
    now: Date,
    /** A feed register's companies read before this are due for a read ('-infinity': the feed vouches for all). */
    staleBefore = '-infinity',
  ): Promise<string[]> {
    const confirmUpTo = typeof which === 'object' ? which.confirmUpTo : undefined;
    const due = confirmUpTo
      ? `s.baseline_at IS NOT NULL AND s.read_requested_at IS NULL AND s.next_check_at <= $6
           AND s.retrieved_at >= $7::timestamptz
           AND EXISTS (SELECT 1 FROM watch n WHERE n.entity_id = s.entity_id AND n.notify_no_change)`
      : which === 'scheduled'
        ? '(s.next_check_at <= $2 OR s.read_requested_at IS NOT NULL)'
        : // A pending baseline is due from its next_check_at too: a read that failed put it later.
          '((s.baseline_at IS NULL AND s.next_check_at <= $2) OR s.read_requested_at IS NOT NULL OR (s.next_check_at <= $2 AND s.retrieved_at < $6::timestamptz))';
    const rows = await queryRows<{ entity_id: string }>(
      this.dataSource,
      `WITH due AS (
         SELECT s.entity_id FROM company_snapshot s
         WHERE s.country = $1 AND ${due}
           AND (s.lease_until IS NULL OR s.lease_until < $2)
           AND EXISTS (SELECT 1 FROM watch w WHERE w.entity_id = s.entity_id)
         ORDER BY s.read_requested_at IS NULL, s.baseline_at IS NOT NULL, s.next_check_at LIMIT $3 FOR UPDATE SKIP LOCKED)
       UPDATE company_snapshot c SET lease_token = $4, lease_until = $5 FROM due WHERE c.entity_id = due.entity_id
       RETURNING c.entity_id`,
      [
        country,
        now,
        limit,
        lease.token,
        lease.until,
        ...(confirmUpTo ? [confirmUpTo, staleBefore] : which === 'scheduled' ? [] : [staleBefore]),
      ],
    );
    return rows.map((r) => r.entity_id);
  }

  /** Leases the company for its baseline read if the baseline is pending and nobody holds it; whether it did. */
  async claimForBaseline(entityId: string, lease: CheckLease, now: Date): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE company_snapshot SET lease_token = $2, lease_until = $3
       WHERE entity_id = $1 AND baseline_at IS NULL AND (lease_until IS NULL OR lease_until < $4) RETURNING entity_id`,
      [entityId, lease.token, lease.until, now],
    );
    return rows.length > 0;
  }

  /** Whether the company's baseline was taken (false also when it has no snapshot). */
  async baselineTaken(entityId: string): Promise<boolean> {
    const rows = await queryRows(
      this.dataSource,
      `SELECT 1 FROM company_snapshot WHERE entity_id = $1 AND baseline_at IS NOT NULL`,
      [entityId],
    );
    return rows.length > 0;
  }

  /**
   * Records a check without change for every due, unleased company of a feed register whose
   * watchers did not ask for company.no_change, that the feed was read past (`upTo`) and that
   * no feed entry asked to re-read; each moves to its next place in the interval. How many.
   */
  async confirmQuiet(
    country: CountryCode,
    upTo: Date,
    intervalSeconds: number,
    now: Date,
    staleBefore = '-infinity',
  ): Promise<number> {
    const rows = await queryRows(
      this.dataSource,
      `UPDATE company_snapshot s SET checked_at = $2, check_outcome = 'no_change',
         check_detail = 'no entry in the register''s change feed up to ' || to_char($3::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
         next_check_at = s.next_check_at + make_interval(secs => $4::double precision * (floor(extract(epoch FROM ($2::timestamptz - s.next_check_at)) / $4) + 1))
       WHERE s.country = $1 AND s.baseline_at IS NOT NULL AND s.read_requested_at IS NULL AND s.next_check_at <= $3
         AND (s.lease_until IS NULL OR s.lease_until < $2)
         AND EXISTS (SELECT 1 FROM watch w WHERE w.entity_id = s.entity_id)
         AND NOT EXISTS (SELECT 1 FROM watch n WHERE n.entity_id = s.entity_id AND n.notify_no_change)
         AND s.retrieved_at >= $5::timestamptz
       RETURNING s.entity_id`,
      [country, now, upTo, intervalSeconds, staleBefore],
    );
    return rows.length;
  }

  /** Companies of a register leased now under a token that starts with `tokenPrefix`. */
  async leasedCount(country: CountryCode, tokenPrefix: string, now: Date): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      this.dataSource,
      `SELECT count(*)::int AS n FROM company_snapshot WHERE country = $1 AND lease_token LIKE $3 AND lease_until > $2`,
      [country, now, `${tokenPrefix}%`],
    );
    return rows[0].n;
  }

  /** The snapshot if this lease holds it. */
  async findLeased(entityId: string, token: string): Promise<CompanySnapshotEntity | null> {
    return this.dataSource.getRepository(CompanySnapshotEntity).findOneBy({ entityId, leaseToken: token });
  }

  /** The snapshot with its row locked until the transaction ends, if this lease still holds it. */
  async lockIfLeased(m: EntityManager, entityId: string, token: string): Promise<CompanySnapshotEntity | null> {
    return m
      .getRepository(CompanySnapshotEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.entity_id = :entityId AND s.lease_token = :token', { entityId, token })
      .getOne();
  }

  /** The snapshots of these companies of a register, their rows locked until the transaction ends (in entity id order). */
  async lockByNumbers(m: EntityManager, country: CountryCode, numbers: string[]): Promise<CompanySnapshotEntity[]> {
    return m
      .getRepository(CompanySnapshotEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.country = :country AND s.registration_number IN (:...numbers)', { country, numbers })
      .orderBy('s.entity_id')
      .getMany();
  }

  /** Asks the next check of these companies to read them, whatever the mode; how many are watched. */
  async requestReads(m: EntityManager, country: CountryCode, numbers: string[], at: Date): Promise<number> {
    const rows = await queryRows(
      m,
      `UPDATE company_snapshot SET read_requested_at = $3 WHERE country = $1 AND registration_number = ANY($2::text[]) RETURNING entity_id`,
      [country, numbers, at],
    );
    return rows.length;
  }

  /** Asks the next check of every company of the register with a baseline to read it; how many. */
  async requestReadOfAll(m: EntityManager, country: CountryCode, at: Date): Promise<number> {
    const rows = await queryRows(
      m,
      `UPDATE company_snapshot SET read_requested_at = $2 WHERE country = $1 AND baseline_at IS NOT NULL RETURNING entity_id`,
      [country, at],
    );
    return rows.length;
  }

  /**
   * A re-read of the register's watched companies whose filings of a gap in the filings stream
   * (since `since`) must be recovered; an earlier gap not yet recovered is kept. How many.
   */
  async requestFilingsRecovery(m: EntityManager, country: CountryCode, since: Date, at: Date): Promise<number> {
    const rows = await queryRows(
      m,
      `UPDATE company_snapshot SET read_requested_at = $3, filings_gap_since = LEAST(filings_gap_since, $2)
       WHERE country = $1 AND baseline_at IS NOT NULL RETURNING entity_id`,
      [country, since, at],
    );
    return rows.length;
  }

  /**
   * The gap's filings were read by a read that started at `readStartedAt`: forgets the gap,
   * unless a read was asked for since (a new gap may have begun after this read's history).
   */
  async clearFilingsGap(m: EntityManager, entityId: string, readStartedAt: Date): Promise<void> {
    await m.query(
      `UPDATE company_snapshot SET filings_gap_since = NULL
       WHERE entity_id = $1 AND (read_requested_at IS NULL OR read_requested_at <= $2)`,
      [entityId, readStartedAt],
    );
  }

  /** Stores the officer list a read found (the next read's is compared with it). */
  async recordOfficers(m: EntityManager, entityId: string, officers: Officer[]): Promise<void> {
    await m.query(`UPDATE company_snapshot SET officers = $2 WHERE entity_id = $1`, [
      entityId,
      JSON.stringify(officers),
    ]);
  }

  /** Stores what a read found (values, their comparison keys, provenance) and the check's outcome. */
  async recordRead(m: EntityManager, entityId: string, read: SnapshotRead): Promise<void> {
    await m.query(
      `UPDATE company_snapshot SET name = $2, status = $3, address = $4, legal_form = $5,
         name_key = $6, status_key = $7, address_key = $8, legal_form_key = $9,
         source_mode = $10, source_url = $11, retrieved_at = $12,
         baseline_at = CASE WHEN $13 THEN $12 ELSE baseline_at END,
         checked_at = $14, check_outcome = $15, check_detail = $16
       WHERE entity_id = $1`,
      [
        entityId,
        read.values.name,
        read.values.status,
        read.values.address,
        read.values.legal_form,
        read.keys.name,
        read.keys.status,
        read.keys.address,
        read.keys.legal_form,
        read.sourceMode,
        read.sourceUrl,
        read.retrievedAt,
        read.isBaseline,
        read.checkedAt,
        read.outcome,
        read.detail,
      ],
    );
  }

  /** A check without change, confirmed from the feed (no read). */
  async recordConfirmed(m: EntityManager, entityId: string, detail: string, at: Date): Promise<void> {
    await m.query(
      `UPDATE company_snapshot SET checked_at = $2, check_outcome = 'no_change', check_detail = $3 WHERE entity_id = $1`,
      [entityId, at, detail],
    );
  }

  /** A check's outcome without a read (failed, not found, feed behind), if this lease still holds the company. */
  async recordOutcome(
    m: EntityManager,
    entityId: string,
    token: string,
    outcome: string,
    detail: string | null,
    at: Date,
  ): Promise<void> {
    await m.query(
      `UPDATE company_snapshot SET checked_at = $3, check_outcome = $4, check_detail = $5 WHERE entity_id = $1 AND lease_token = $2`,
      [entityId, token, at, outcome, detail],
    );
  }

  /**
   * Ends the lease, if still held: moves the next check (when given), and clears a read a feed
   * asked for when the read that satisfies it started after the request.
   */
  async release(
    m: EntityManager,
    entityId: string,
    token: string,
    o: { nextCheckAt?: Date; readStartedAt?: Date },
  ): Promise<void> {
    await m.query(
      `UPDATE company_snapshot SET lease_token = NULL, lease_until = NULL,
         next_check_at = COALESCE($3, next_check_at),
         read_requested_at = CASE WHEN $4::timestamptz IS NOT NULL AND read_requested_at <= $4::timestamptz THEN NULL ELSE read_requested_at END
       WHERE entity_id = $1 AND lease_token = $2`,
      [entityId, token, o.nextCheckAt ?? null, o.readStartedAt ?? null],
    );
  }
}
