import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { AccessRequest, AccessRequestStore, AccessRequestWithEmail } from '../access-request-store';
import { AccountStore } from '../account-store';

/** A decision an operator cannot take, in words for the terminal. */
export class AdminCommandError extends Error {}

/**
 * The operator's side of access requests: list, approve, reject. Independent of how the
 * operator reaches it (the admin CLI opening Postgres, or a channel into the running embedded
 * service): it needs only the DataSource, the accounts' stores and the clock.
 */
@Injectable()
export class AccessRequestAdmin {
  constructor(
    private readonly dataSource: DataSource,
    private readonly requests: AccessRequestStore,
    private readonly accounts: AccountStore,
    private readonly clock: Clock,
  ) {}

  async list(state: 'pending' | 'approved' | 'rejected' | 'all' = 'pending'): Promise<AccessRequestWithEmail[]> {
    return this.requests.listWithEmail(state);
  }

  /** Approves a pending request: the account's live events are sent from now on (held ones stay held). */
  async approve(id: string): Promise<AccessRequestWithEmail> {
    const now = this.clock.now();
    return this.decide(id, async (m, request) => {
      await this.requests.approve(m, id, now);
      await this.accounts.enableLiveDelivery(m, request.accountId, now);
    });
  }

  async reject(id: string, reason: string): Promise<AccessRequestWithEmail> {
    if (!reason.trim()) throw new AdminCommandError('a rejection needs a reason (--reason "…"): the account sees it');
    const now = this.clock.now();
    return this.decide(id, (m) => this.requests.reject(m, id, now, reason.trim().slice(0, 1000)));
  }

  private async decide(
    id: string,
    apply: (m: EntityManager, request: AccessRequest) => Promise<unknown>,
  ): Promise<AccessRequestWithEmail> {
    return this.dataSource.transaction(async (m) => {
      const request = await this.requests.lock(m, id);
      if (!request) throw new AdminCommandError(`no access request ${id}`);
      if (request.state !== 'pending') throw new AdminCommandError(`access request ${id} is already ${request.state}`);
      await apply(m, request);
      return (await this.requests.findWithEmail(m, id))!;
    });
  }
}
