import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RegisterStatus } from './register-status';

/** The current status of one register, and the streak that decides the next change. */
@Entity({ name: 'register_state' })
export class RegisterStateEntity {
  /** The register's country code, or LEI for GLEIF's index. */
  @PrimaryColumn({ type: 'text' })
  country: string;

  @Column({ type: 'text' })
  status: RegisterStatus;

  @Column({ type: 'text', nullable: true })
  reason: string | null;

  @Column({ name: 'changed_at', type: 'timestamptz' })
  changedAt: Date;

  @Column({ name: 'consecutive_failures', type: 'integer', default: 0 })
  consecutiveFailures: number;

  @Column({ name: 'consecutive_successes', type: 'integer', default: 0 })
  consecutiveSuccesses: number;

  /** When the register stopped being readable; null while it is (and before its first outage). */
  @Column({ name: 'unreadable_since', type: 'timestamptz', nullable: true })
  unreadableSince: Date | null;
}
