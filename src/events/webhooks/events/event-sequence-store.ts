import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { queryRows } from '../../../platform/database/sql';

/**
 * The SQL of `event_sequence`: the last `data.sequence` given to an account's events about one
 * company. `next` runs in the outbox transaction that writes the event: the row's lock holds
 * other writers of the same account and company until it commits, and a rollback takes the
 * number back with the event — so the numbers an account sees have no hole and no repeat.
 */
@Injectable()
export class EventSequenceStore {
  async next(m: EntityManager, accountId: string, entityId: string, isTest: boolean): Promise<number> {
    const rows = await queryRows<{ last_sequence: number }>(
      m,
      `INSERT INTO event_sequence (account_id, entity_id, is_test, last_sequence) VALUES ($1, $2, $3, 1)
       ON CONFLICT (account_id, entity_id, is_test) DO UPDATE SET last_sequence = event_sequence.last_sequence + 1
       RETURNING last_sequence`,
      [accountId, entityId, isTest],
    );
    return rows[0].last_sequence;
  }
}
