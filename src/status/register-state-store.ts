import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../platform/database/sql';
import type { SourceId } from '../registers/source-id';
import { RegisterStateEntity } from './register-state.entity';
import { RegisterStatusTransitionEntity } from './register-status-transition.entity';
import type { StreakState } from './status-rules';

/**
 * The SQL of `register_state` and `register_status_transition`, whose rows are their
 * entities: each register's stored status with its streak, and every change of it. Methods
 * that take a manager run in the caller's transaction; the others on their own.
 */
@Injectable()
export class RegisterStateStore {
  constructor(private readonly dataSource: DataSource) {}

  async all(): Promise<RegisterStateEntity[]> {
    return this.dataSource.getRepository(RegisterStateEntity).find();
  }

  /** The register's state with its row locked until the transaction ends (null before its first state). */
  async lock(m: EntityManager, country: SourceId): Promise<RegisterStateEntity | null> {
    return m
      .getRepository(RegisterStateEntity)
      .createQueryBuilder('s')
      .setLock('pessimistic_write')
      .where('s.country = :country', { country })
      .getOne();
  }

  /** The register's first state, unless another process wrote it meanwhile; whether this one did. */
  async insertFirst(m: EntityManager, country: SourceId, state: StreakState, at: Date): Promise<boolean> {
    const inserted = await queryRows(
      m,
      `INSERT INTO register_state (country, status, reason, changed_at, consecutive_failures, consecutive_successes)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (country) DO NOTHING RETURNING country`,
      [country, state.status, state.reason, at, state.consecutiveFailures, state.consecutiveSuccesses],
    );
    return inserted.length > 0;
  }

  /** The register's next state; `changedAt` when its status changed; `unreadableSince` when an outage starts (a date) or ends (null). */
  async update(
    m: EntityManager,
    country: SourceId,
    state: StreakState,
    changedAt?: Date,
    unreadableSince?: Date | null,
  ): Promise<void> {
    await m.getRepository(RegisterStateEntity).update(
      { country },
      {
        status: state.status,
        reason: state.reason,
        consecutiveFailures: state.consecutiveFailures,
        consecutiveSuccesses: state.consecutiveSuccesses,
        ...(changedAt ? { changedAt } : {}),
        ...(unreadableSince !== undefined ? { unreadableSince } : {}),
      },
    );
  }

  async addTransition(m: EntityManager, t: Omit<RegisterStatusTransitionEntity, 'id'>): Promise<void> {
    await m.getRepository(RegisterStatusTransitionEntity).insert(t);
  }

  /** The register's last transitions, newest first. */
  async transitions(country: SourceId, limit: number): Promise<RegisterStatusTransitionEntity[]> {
    return this.dataSource
      .getRepository(RegisterStatusTransitionEntity)
      .find({ where: { country }, order: { at: 'DESC', id: 'DESC' }, take: limit });
  }
}
