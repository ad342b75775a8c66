import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryRows } from '../../platform/database/sql';

/** One row of `account`. */
export interface Account {
  id: string;
  email: string;
  createdAt: Date;
  /** Set when an operator approves an access request: live events are sent from then on. */
  liveDeliverySince: Date | null;
}

interface AccountRow {
  id: string;
  email: string;
  created_at: Date;
  live_delivery_since: Date | null;
}

const COLUMNS = 'id, email, created_at, live_delivery_since';

function toAccount(r: AccountRow): Account {
  return { id: r.id, email: r.email, createdAt: r.created_at, liveDeliverySince: r.live_delivery_since };
}

/**
 * The SQL of `account`. Every method runs on the manager it is given: the caller's
 * transaction, or `dataSource.manager` for a statement on its own.
 */
@Injectable()
export class AccountStore {
  async insert(m: EntityManager, a: Pick<Account, 'id' | 'email' | 'createdAt'>): Promise<void> {
    await m.query(`INSERT INTO account (id, email, created_at) VALUES ($1, $2, $3)`, [a.id, a.email, a.createdAt]);
  }

  async find(m: EntityManager, id: string): Promise<Account | null> {
    const rows = await queryRows<AccountRow>(m, `SELECT ${COLUMNS} FROM account WHERE id = $1`, [id]);
    return rows.length ? toAccount(rows[0]) : null;
  }

  /** The account with its row locked until the transaction ends (null when there is none). */
  async lock(m: EntityManager, id: string): Promise<Account | null> {
    const rows = await queryRows<AccountRow>(m, `SELECT ${COLUMNS} FROM account WHERE id = $1 FOR UPDATE`, [id]);
    return rows.length ? toAccount(rows[0]) : null;
  }

  /** Live delivery from `since` on, unless it is already on. */
  async enableLiveDelivery(m: EntityManager, id: string, since: Date): Promise<void> {
    await m.query(`UPDATE account SET live_delivery_since = COALESCE(live_delivery_since, $2) WHERE id = $1`, [
      id,
      since,
    ]);
  }
}
