import { Column, Entity, PrimaryColumn } from 'typeorm';

/** One account watching one company. */
@Entity({ name: 'watch' })
export class WatchEntity {
  @PrimaryColumn({ type: 'text' })
  id: string;

  @Column({ name: 'account_id', type: 'text' }) accountId: string;
  @Column({ name: 'entity_id', type: 'text' }) entityId: string;
  @Column({ type: 'char', length: 2 }) country: string;
  @Column({ name: 'registration_number', type: 'text' }) registrationNumber: string;
  @Column({ name: 'notify_no_change', type: 'boolean', default: false }) notifyNoChange: boolean;
  @Column({ name: 'baseline_at', type: 'timestamptz', nullable: true }) baselineAt: Date | null;
  @Column({ name: 'baseline_source_mode', type: 'text', nullable: true }) baselineSourceMode: string | null;
  @Column({ name: 'baseline_source_url', type: 'text', nullable: true }) baselineSourceUrl: string | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
