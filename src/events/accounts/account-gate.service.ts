import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AccountStore } from './account-store';

/**
 * What other modules may ask of an account, on the manager they give: their own transaction
 * (the outbox, a count under the account's lock), or `dataSource.manager` for a read on its
 * own. Nothing outside accounts/ writes SQL against its tables.
 */
@Injectable()
export class AccountGate {
  constructor(private readonly accounts: AccountStore) {}

  /**
   * Holds the account's row lock until the caller's transaction ends: what makes a per-account
   * count (endpoints, test sends in the hour) exact when requests race, on any number of replicas.
   */
  async lock(m: EntityManager, accountId: string): Promise<void> {
    await this.accounts.lock(m, accountId);
  }

  /** Since when the account's live events are sent (null: not yet); undefined when there is no such account. */
  async liveDeliverySince(m: EntityManager, accountId: string): Promise<Date | null | undefined> {
    return (await this.accounts.find(m, accountId))?.liveDeliverySince;
  }
}
