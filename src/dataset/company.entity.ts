import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A row of the fallback dataset, imported from a register's official bulk file. */
@Entity({ name: 'company' })
export class CompanyEntity {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number;

  @Column({ type: 'char', length: 2 })
  country: string;

  @Column({ name: 'registration_number', type: 'text' })
  registrationNumber: string;

  /** Other identifiers of the same company (an ABN's ACN, a corporation's BN9). */
  @Column({ name: 'other_numbers', type: 'text', array: true, default: () => "'{}'" })
  otherNumbers: string[];

  @Column({ type: 'text' })
  name: string;

  @Column({ name: 'name_normalized', type: 'text' })
  nameNormalized: string;

  @Column({ type: 'text', nullable: true })
  status: string | null;

  @Column({ name: 'status_category', type: 'text' })
  statusCategory: string;

  @Column({ name: 'legal_form', type: 'text', nullable: true })
  legalForm: string | null;

  @Column({ type: 'text', nullable: true })
  address: string | null;

  @Column({ type: 'text', nullable: true })
  city: string | null;

  @Column({ name: 'incorporation_date', type: 'date', nullable: true })
  incorporationDate: string | null;

  @Column({ name: 'source_url', type: 'text' })
  sourceUrl: string;

  @Column({ name: 'source_kind', type: 'text' })
  sourceKind: string;

  @Column({ name: 'dataset_name', type: 'text' })
  datasetName: string;

  /** When the bulk file this row came from was produced by the register. */
  @Column({ name: 'produced_at', type: 'timestamptz' })
  producedAt: Date;

  @Column({ type: 'jsonb', nullable: true })
  extra: Record<string, unknown> | null;

  @Column({ name: 'imported_at', type: 'timestamptz', default: () => 'now()' })
  importedAt: Date;
}
