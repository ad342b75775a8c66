import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { ACCESS_REQUEST_COLUMNS, AccessRequestRow } from '../access-requests.service';

export type AccessRequestWithEmail = AccessRequestRow & { email: string };

/** A decision an operator cannot take, in words for the terminal. */
export class AdminCommandError extends Error {}

/**
 * The operator's side of access requests: list, approve, reject. Independent of how the
 * operator reaches it (the admin CLI opening Postgres, or a channel into the running embedded
 * service): it needs only the DataSource and the clock.
 */
@Injectable()
export class AccessRequestAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async list(state: 'pending' | 'approved' | 'rejected' | 'all' = 'pending'): Promise<AccessRequestWithEmail[]> {
    const cols = ACCESS_REQUEST_COLUMNS.split(', ')
      .map((c) => `r.${c}`)
      .join(', ');
    return this.dataSource.query(
      `SELECT ${cols}, a.email FROM access_request r JOIN account a ON a.id = r.account_id
       WHERE $1 = 'all' OR r.state = $1 ORDER BY r.created_at, r.id`,
      [state],
    );
  }

  /** Approves a pending request: the account's live events are sent from now on (held ones stay held). */
  async approve(id: string): Promise<AccessRequestWithEmail> {
    const now = this.clock.now();
    return this.decide(id, async (m) => {
      await m.query(`UPDATE access_request SET state = 'approved', decided_at = $2 WHERE id = $1`, [id, now]);
      await m.query(
        `UPDATE account SET live_delivery_since = COALESCE(live_delivery_since, $2) WHERE id = (SELECT account_id FROM access_request WHERE id = $1)`,
        [id, now],
      );
    });
  }

  async reject(id: string, reason: string): Promise<AccessRequestWithEmail> {
    if (!reason.trim()) throw new AdminCommandError('a rejection needs a reason (--reason "…"): the account sees it');
    const now = this.clock.now();
    return this.decide(id, (m) =>
      m.query(`UPDATE access_request SET state = 'rejected', decided_at = $2, decision_reason = $3 WHERE id = $1`, [
        id,
        now,
        reason.trim().slice(0, 1000),
      ]),
    );
  }

  private async decide(
    id: string,
    apply: (m: import('typeorm').EntityManager) => Promise<unknown>,
  ): Promise<AccessRequestWithEmail> {
    return this.dataSource.transaction(async (m) => {
      const rows: AccessRequestRow[] = await m.query(`SELECT state FROM access_request WHERE id = $1 FOR UPDATE`, [id]);
      if (rows.length === 0) throw new AdminCommandError(`no access request ${id}`);
      if (rows[0].state !== 'pending') throw new AdminCommandError(`access request ${id} is already ${rows[0].state}`);
      await apply(m);
      const cols = ACCESS_REQUEST_COLUMNS.split(', ')
        .map((c) => `r.${c}`)
        .join(', ');
      const out: AccessRequestWithEmail[] = await m.query(
        `SELECT ${cols}, a.email FROM access_request r JOIN account a ON a.id = r.account_id WHERE r.id = $1`,
        [id],
      );
      return out[0];
    });
  }
}
