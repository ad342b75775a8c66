import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { Officer } from '../../../registers/connector';

/** What detection last knew of one company, shared by every account watching it. */
@Entity({ name: 'company_snapshot' })
export class CompanySnapshotEntity {
  @PrimaryColumn({ name: 'entity_id', type: 'text' })
  entityId: string;

  @Column({ type: 'char', length: 2 })
  country: string;

  @Column({ name: 'registration_number', type: 'text' })
  registrationNumber: string;

  @Column({ type: 'text', nullable: true }) name: string | null;
  @Column({ type: 'text', nullable: true }) status: string | null;
  @Column({ type: 'text', nullable: true }) address: string | null;
  @Column({ name: 'legal_form', type: 'text', nullable: true }) legalForm: string | null;
  @Column({ name: 'name_key', type: 'text', nullable: true }) nameKey: string | null;
  @Column({ name: 'status_key', type: 'text', nullable: true }) statusKey: string | null;
  @Column({ name: 'address_key', type: 'text', nullable: true }) addressKey: string | null;
  @Column({ name: 'legal_form_key', type: 'text', nullable: true }) legalFormKey: string | null;

  /** The officer list as last read (null: never read, or the register publishes none). */
  @Column({ type: 'jsonb', nullable: true }) officers: Officer[] | null;

  @Column({ name: 'source_mode', type: 'text', nullable: true }) sourceMode: string | null;
  @Column({ name: 'source_url', type: 'text', nullable: true }) sourceUrl: string | null;
  @Column({ name: 'retrieved_at', type: 'timestamptz', nullable: true }) retrievedAt: Date | null;
  @Column({ name: 'baseline_at', type: 'timestamptz', nullable: true }) baselineAt: Date | null;
  @Column({ name: 'checked_at', type: 'timestamptz', nullable: true }) checkedAt: Date | null;
  @Column({ name: 'check_outcome', type: 'text', nullable: true }) checkOutcome: string | null;
  @Column({ name: 'check_detail', type: 'text', nullable: true }) checkDetail: string | null;
  @Column({ name: 'next_check_at', type: 'timestamptz' }) nextCheckAt: Date;
  @Column({ name: 'read_requested_at', type: 'timestamptz', nullable: true }) readRequestedAt: Date | null;
  /** A filings stream missed what was filed since then: the next read recovers it from the filing history. */
  @Column({ name: 'filings_gap_since', type: 'timestamptz', nullable: true }) filingsGapSince: Date | null;
  @Column({ name: 'lease_token', type: 'text', nullable: true }) leaseToken: string | null;
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true }) leaseUntil: Date | null;
  @Column({ name: 'created_at', type: 'timestamptz' }) createdAt: Date;
}
