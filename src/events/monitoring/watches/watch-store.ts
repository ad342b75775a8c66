import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../../platform/database/sql';
import { pageConditions } from '../../../platform/pagination';
import type { CountryCode } from '../../../registers/registers';
import type { WatchEntity } from './watch.entity';

/** A watch (a row of `watch`, WatchEntity) with what its company's snapshot says of the checks. */
export type WatchView = WatchEntity & {
  companyName: string | null;
  checkedAt: Date | null;
  checkOutcome: string | null;
  checkDetail: string | null;
  nextCheckAt: Date;
};

/** A watch to create: the snapshot of its company exists (SnapshotStore.insertPending). */
export interface NewWatch {
  id: string;
  entityId: string;
  country: CountryCode;
  registrationNumber: string;
  notifyNoChange: boolean;
}

/** Which page, newest first: `limit + 1` rows are read, to tell whether another page follows. */
type PageWindow = Parameters<typeof pageConditions>[0] & { limit: number };

interface WatchViewRow {
  id: string;
  account_id: string;
  entity_id: string;
  country: string;
  registration_number: string;
  notify_no_change: boolean;
  baseline_at: Date | null;
  baseline_source_mode: string | null;
  baseline_source_url: string | null;
  created_at: Date;
  name: string | null;
  checked_at: Date | null;
  check_outcome: string | null;
  check_detail: string | null;
  next_check_at: Date;
}

const SELECT_VIEW = `SELECT w.id, w.account_id, w.entity_id, w.country, w.registration_number, w.notify_no_change, w.baseline_at,
  w.baseline_source_mode, w.baseline_source_url, w.created_at, s.name, s.checked_at, s.check_outcome, s.check_detail, s.next_check_at
  FROM watch w JOIN company_snapshot s ON s.entity_id = w.entity_id`;

function toView(r: WatchViewRow): WatchView {
  return {
    id: r.id,
    accountId: r.account_id,
    entityId: r.entity_id,
    country: r.country,
    registrationNumber: r.registration_number,
    notifyNoChange: r.notify_no_change,
    baselineAt: r.baseline_at,
    baselineSourceMode: r.baseline_source_mode,
    baselineSourceUrl: r.baseline_source_url,
    createdAt: r.created_at,
    companyName: r.name,
    checkedAt: r.checked_at,
    checkOutcome: r.check_outcome,
    checkDetail: r.check_detail,
    nextCheckAt: r.next_check_at,
  };
}

/**
 * The SQL of `watch`, whose rows are WatchEntity: an account's watches, and who watches a
 * company or a register when detection emits. Methods that take a manager run in the caller's
 * transaction; the others on their own.
 */
@Injectable()
export class WatchStore {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Creates the watches the account does not have yet, each with its company's baseline if it
   * was taken already; the entity ids of those created.
   */
  async insertMissing(m: EntityManager, accountId: string, watches: NewWatch[], now: Date): Promise<string[]> {
    const rows = await queryRows<{ entity_id: string }>(
      m,
      `INSERT INTO watch (id, account_id, entity_id, country, registration_number, notify_no_change, created_at,
         baseline_at, baseline_source_mode, baseline_source_url)
       SELECT n.id, $1, n.entity_id, n.country, n.registration_number, n.notify, $2,
         CASE WHEN s.baseline_at IS NULL THEN NULL ELSE s.retrieved_at END, s.source_mode, s.source_url
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[], $7::boolean[]) AS n(id, entity_id, country, registration_number, notify)
       JOIN company_snapshot s ON s.entity_id = n.entity_id
       ON CONFLICT (account_id, entity_id) DO NOTHING RETURNING entity_id`,
      [
        accountId,
        now,
        watches.map((w) => w.id),
        watches.map((w) => w.entityId),
        watches.map((w) => w.country),
        watches.map((w) => w.registrationNumber),
        watches.map((w) => w.notifyNoChange),
      ],
    );
    return rows.map((r) => r.entity_id);
  }

  /** How many companies the account watches. */
  async countByAccount(m: EntityManager, accountId: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(m, `SELECT count(*)::int AS n FROM watch WHERE account_id = $1`, [
      accountId,
    ]);
    return rows[0].n;
  }

  /** The account's watch ids of these companies, by entity id. */
  async idsByEntity(m: EntityManager, accountId: string, entityIds: string[]): Promise<Map<string, string>> {
    const rows = await queryRows<{ id: string; entity_id: string }>(
      m,
      `SELECT id, entity_id FROM watch WHERE account_id = $1 AND entity_id = ANY($2::text[])`,
      [accountId, entityIds],
    );
    return new Map(rows.map((r) => [r.entity_id, r.id]));
  }

  /** The account's watches, newest first, `window.limit + 1` at most. */
  async list(accountId: string, filter: { country?: CountryCode }, window: PageWindow): Promise<WatchView[]> {
    const params: unknown[] = [accountId];
    let where = 'w.account_id = $1';
    if (filter.country) where += ` AND w.country = $${params.push(filter.country)}`;
    const conditions = pageConditions(window, params.length + 1, 'w');
    params.push(...conditions.params);
    const rows = await queryRows<WatchViewRow>(
      this.dataSource,
      `${SELECT_VIEW} WHERE ${where}${conditions.sql} ORDER BY w.created_at DESC, w.id DESC LIMIT $${params.push(window.limit + 1)}`,
      params,
    );
    return rows.map(toView);
  }

  async find(accountId: string, id: string): Promise<WatchView | null> {
    const rows = await queryRows<WatchViewRow>(
      this.dataSource,
      `${SELECT_VIEW} WHERE w.account_id = $1 AND w.id = $2`,
      [accountId, id],
    );
    return rows.length ? toView(rows[0]) : null;
  }

  /** Deletes the account's watch; whether it had it. */
  async delete(accountId: string, id: string): Promise<boolean> {
    const rows = await queryRows(this.dataSource, `DELETE FROM watch WHERE account_id = $1 AND id = $2 RETURNING id`, [
      accountId,
      id,
    ]);
    return rows.length > 0;
  }

  /** The company's baseline, on every watch of it still waiting for one. */
  async setBaseline(
    m: EntityManager,
    entityId: string,
    baseline: { at: Date; sourceMode: string; sourceUrl: string },
  ): Promise<void> {
    await m.query(
      `UPDATE watch SET baseline_at = $2, baseline_source_mode = $3, baseline_source_url = $4 WHERE entity_id = $1 AND baseline_at IS NULL`,
      [entityId, baseline.at, baseline.sourceMode, baseline.sourceUrl],
    );
  }

  /** The watches of a company with a baseline, oldest first: who its changes go to. */
  async watchersOf(
    m: EntityManager,
    entityId: string,
  ): Promise<Array<Pick<WatchEntity, 'accountId' | 'notifyNoChange'>>> {
    const rows = await queryRows<{ account_id: string; notify_no_change: boolean }>(
      m,
      `SELECT account_id, notify_no_change FROM watch WHERE entity_id = $1 AND baseline_at IS NOT NULL ORDER BY created_at, id`,
      [entityId],
    );
    return rows.map((r) => ({ accountId: r.account_id, notifyNoChange: r.notify_no_change }));
  }

  /** The accounts whose watch of a company (with a baseline) asked for company.no_change, oldest watch first. */
  async noChangeWatchersOf(m: EntityManager, entityId: string): Promise<string[]> {
    const rows = await queryRows<{ account_id: string }>(
      m,
      `SELECT account_id FROM watch WHERE entity_id = $1 AND baseline_at IS NOT NULL AND notify_no_change ORDER BY created_at, id`,
      [entityId],
    );
    return rows.map((r) => r.account_id);
  }

  /** Each account watching companies of a register, with how many. */
  async accountsWatching(
    m: EntityManager,
    country: CountryCode,
  ): Promise<Array<{ accountId: string; companies: number }>> {
    const rows = await queryRows<{ account_id: string; companies: number }>(
      m,
      `SELECT account_id, count(*)::int AS companies FROM watch WHERE country = $1 GROUP BY account_id ORDER BY account_id`,
      [country],
    );
    return rows.map((r) => ({ accountId: r.account_id, companies: r.companies }));
  }

  /** How many companies of a register the account watches. */
  async countInCountry(accountId: string, country: CountryCode): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      this.dataSource,
      `SELECT count(*)::int AS n FROM watch WHERE account_id = $1 AND country = $2`,
      [accountId, country],
    );
    return rows[0].n;
  }
}
