import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** Every change of a register's status, kept. */
@Entity({ name: 'register_status_transition' })
export class RegisterStatusTransitionEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  /** The register's country code, or LEI for GLEIF's index. */
  @Column({ type: 'text' })
  country: string;

  @Column({ name: 'from_status', type: 'text', nullable: true })
  fromStatus: string | null;

  @Column({ name: 'to_status', type: 'text' })
  toStatus: string;

  @Column({ type: 'text', nullable: true })
  reason: string | null;

  @Column({ type: 'timestamptz' })
  at: Date;
}
