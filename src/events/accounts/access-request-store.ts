import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../platform/database/sql';

export type AccessRequestState = 'pending' | 'approved' | 'rejected';

/** One row of `access_request`: an account asking for live delivery. */
export interface AccessRequest {
  id: string;
  accountId: string;
  countries: string[];
  monthlyVolume: number;
  events: string[];
  useCase: string;
  state: AccessRequestState;
  createdAt: Date;
  decidedAt: Date | null;
  decisionReason: string | null;
}

/** A request with its account's email, as the operator sees it. */
export type AccessRequestWithEmail = AccessRequest & { email: string };

interface AccessRequestRow {
  id: string;
  account_id: string;
  countries: string[];
  monthly_volume: number;
  events: string[];
  use_case: string;
  state: AccessRequestState;
  created_at: Date;
  decided_at: Date | null;
  decision_reason: string | null;
}

const COLUMNS =
  'id, account_id, countries, monthly_volume, events, use_case, state, created_at, decided_at, decision_reason';
const WITH_EMAIL = `SELECT ${COLUMNS.split(', ')
  .map((c) => `r.${c}`)
  .join(', ')}, a.email FROM access_request r JOIN account a ON a.id = r.account_id`;

function toAccessRequest(r: AccessRequestRow): AccessRequest {
  return {
    id: r.id,
    accountId: r.account_id,
    countries: r.countries,
    monthlyVolume: r.monthly_volume,
    events: r.events,
    useCase: r.use_case,
    state: r.state,
    createdAt: r.created_at,
    decidedAt: r.decided_at,
    decisionReason: r.decision_reason,
  };
}

function withEmail(r: AccessRequestRow & { email: string }): AccessRequestWithEmail {
  return { ...toAccessRequest(r), email: r.email };
}

/** The SQL of `access_request`. Methods that take a manager run in the caller's transaction; the others on their own. */
@Injectable()
export class AccessRequestStore {
  constructor(private readonly dataSource: DataSource) {}

  async insert(
    m: EntityManager,
    r: Omit<AccessRequest, 'state' | 'decidedAt' | 'decisionReason'>,
  ): Promise<AccessRequest> {
    const rows = await queryRows<AccessRequestRow>(
      m,
      `INSERT INTO access_request (id, account_id, countries, monthly_volume, events, use_case, state, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7) RETURNING ${COLUMNS}`,
      [r.id, r.accountId, r.countries, r.monthlyVolume, r.events, r.useCase, r.createdAt],
    );
    return toAccessRequest(rows[0]);
  }

  async hasPending(m: EntityManager, accountId: string): Promise<boolean> {
    const rows = await queryRows(m, `SELECT 1 FROM access_request WHERE account_id = $1 AND state = 'pending'`, [
      accountId,
    ]);
    return rows.length > 0;
  }

  /** An account's requests, newest first. */
  async listByAccount(accountId: string): Promise<AccessRequest[]> {
    const rows = await queryRows<AccessRequestRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM access_request WHERE account_id = $1 ORDER BY created_at DESC, id DESC`,
      [accountId],
    );
    return rows.map(toAccessRequest);
  }

  /** Every request in a state (or all), oldest first, for the operator. */
  async listWithEmail(state: AccessRequestState | 'all'): Promise<AccessRequestWithEmail[]> {
    const rows = await queryRows<AccessRequestRow & { email: string }>(
      this.dataSource,
      `${WITH_EMAIL} WHERE $1 = 'all' OR r.state = $1 ORDER BY r.created_at, r.id`,
      [state],
    );
    return rows.map(withEmail);
  }

  async findWithEmail(m: EntityManager, id: string): Promise<AccessRequestWithEmail | null> {
    const rows = await queryRows<AccessRequestRow & { email: string }>(m, `${WITH_EMAIL} WHERE r.id = $1`, [id]);
    return rows.length ? withEmail(rows[0]) : null;
  }

  /** The request with its row locked until the transaction ends (null when there is none). */
  async lock(m: EntityManager, id: string): Promise<AccessRequest | null> {
    const rows = await queryRows<AccessRequestRow>(
      m,
      `SELECT ${COLUMNS} FROM access_request WHERE id = $1 FOR UPDATE`,
      [id],
    );
    return rows.length ? toAccessRequest(rows[0]) : null;
  }

  async approve(m: EntityManager, id: string, at: Date): Promise<void> {
    await m.query(`UPDATE access_request SET state = 'approved', decided_at = $2 WHERE id = $1`, [id, at]);
  }

  async reject(m: EntityManager, id: string, at: Date, reason: string): Promise<void> {
    await m.query(`UPDATE access_request SET state = 'rejected', decided_at = $2, decision_reason = $3 WHERE id = $1`, [
      id,
      at,
      reason,
    ]);
  }
}
