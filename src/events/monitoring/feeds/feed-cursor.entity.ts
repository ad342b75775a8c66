import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Where one register feed was read up to, and which worker reads it now. */
@Entity({ name: 'feed_cursor' })
export class FeedCursorEntity {
  @PrimaryColumn({ type: 'text' }) feed: string;
  @Column({ type: 'char', length: 2 }) country: string;
  @Column({ type: 'text', nullable: true }) cursor: string | null;
  @Column({ name: 'caught_up_at', type: 'timestamptz', nullable: true }) caughtUpAt: Date | null;
  @Column({ name: 'updated_at', type: 'timestamptz' }) updatedAt: Date;
  @Column({ name: 'lease_owner', type: 'text', nullable: true }) leaseOwner: string | null;
  @Column({ name: 'lease_until', type: 'timestamptz', nullable: true }) leaseUntil: Date | null;
}
