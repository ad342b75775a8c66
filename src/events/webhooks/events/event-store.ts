import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../../platform/database/sql';
import { pageConditions } from '../../../platform/pagination';
import type { EventKind } from '../../event-kinds';

/** One row of `event`. */
export interface EventRecord {
  id: string;
  accountId: string;
  kind: EventKind;
  isTest: boolean;
  /** The envelope exactly as sent (and signed): every attempt sends these bytes. */
  body: string;
  createdAt: Date;
  /** The company the event is about, and its `data.sequence`; null for a register event. */
  entityId?: string | null;
  sequence?: number | null;
}

/** Which page, newest first: `limit + 1` rows are read, to tell whether another page follows. */
type PageWindow = Parameters<typeof pageConditions>[0] & { limit: number };

interface EventRow {
  id: string;
  account_id: string;
  kind: EventKind;
  is_test: boolean;
  body: string;
  created_at: Date;
}

const COLUMNS = 'id, account_id, kind, is_test, body, created_at';

function toEvent(r: EventRow): EventRecord {
  return { id: r.id, accountId: r.account_id, kind: r.kind, isTest: r.is_test, body: r.body, createdAt: r.created_at };
}

/**
 * The SQL of `event`: the outbox writes a row in its caller's transaction, the account reads
 * them back. Methods that take a manager run in the caller's transaction; the others on their own.
 */
@Injectable()
export class EventStore {
  constructor(private readonly dataSource: DataSource) {}

  async insert(m: EntityManager, e: EventRecord): Promise<void> {
    await m.query(
      `INSERT INTO event (id, account_id, kind, is_test, body, created_at, entity_id, sequence) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [e.id, e.accountId, e.kind, e.isTest, e.body, e.createdAt, e.entityId ?? null, e.sequence ?? null],
    );
  }

  /** An account's events, newest first, `window.limit + 1` at most. */
  async list(
    accountId: string,
    filter: { kind?: EventKind; isTest?: boolean; entityId?: string },
    window: PageWindow,
  ): Promise<EventRecord[]> {
    const params: unknown[] = [accountId];
    let where = 'account_id = $1';
    if (filter.kind) where += ` AND kind = $${params.push(filter.kind)}`;
    if (filter.isTest !== undefined) where += ` AND is_test = $${params.push(filter.isTest)}`;
    if (filter.entityId) where += ` AND entity_id = $${params.push(filter.entityId)}`;
    const conditions = pageConditions(window, params.length + 1);
    params.push(...conditions.params);
    const rows = await queryRows<EventRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM event WHERE ${where}${conditions.sql} ORDER BY created_at DESC, id DESC LIMIT ${window.limit + 1}`,
      params,
    );
    return rows.map(toEvent);
  }

  async find(accountId: string, id: string): Promise<EventRecord | null> {
    const rows = await queryRows<EventRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM event WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    return rows.length ? toEvent(rows[0]) : null;
  }

  /** The envelope an event's deliveries send. */
  async body(id: string): Promise<string> {
    const rows = await queryRows<{ body: string }>(this.dataSource, `SELECT body FROM event WHERE id = $1`, [id]);
    return rows[0].body;
  }

  /** How many test events the account made after `since`, and when the oldest of them was. */
  async testEventsSince(
    m: EntityManager,
    accountId: string,
    since: Date,
  ): Promise<{ count: number; oldest: Date | null }> {
    const rows = await queryRows<{ n: number; oldest: Date | null }>(
      m,
      `SELECT count(*)::int AS n, min(created_at) AS oldest FROM event WHERE account_id = $1 AND is_test AND created_at > $2`,
      [accountId, since],
    );
    return { count: rows[0].n, oldest: rows[0].oldest };
  }
}
