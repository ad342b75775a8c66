import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** One scheduled probe of one register; at most one per register per slot. */
@Entity({ name: 'probe' })
export class ProbeEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  /** The register's country code, or LEI for GLEIF's index. */
  @Column({ type: 'text' })
  country: string;

  @Column({ name: 'slot_start', type: 'timestamptz' })
  slotStart: Date;

  @Column({ name: 'started_at', type: 'timestamptz' })
  startedAt: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt: Date | null;

  @Column({ type: 'boolean', nullable: true })
  ok: boolean | null;

  @Column({ name: 'latency_ms', type: 'integer', nullable: true })
  latencyMs: number | null;

  @Column({ name: 'http_status', type: 'integer', nullable: true })
  httpStatus: number | null;

  @Column({ name: 'error_class', type: 'text', nullable: true })
  errorClass: string | null;

  @Column({ name: 'error_message', type: 'text', nullable: true })
  errorMessage: string | null;
}
