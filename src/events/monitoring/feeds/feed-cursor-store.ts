import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { queryRows } from '../../../platform/database/sql';
import { CountryCode } from '../../../registers/registers';
import { FeedCursorEntity } from './feed-cursor.entity';
import { FeedSource, feedName } from './feed-names';

/**
 * The SQL of `feed_cursor`, whose rows are FeedCursorEntity: the stored position of each
 * register feed and the lease that gives it one reader at a time. Methods that take a manager
 * run in the caller's transaction; the others on their own.
 */
@Injectable()
export class FeedCursorStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async get(country: CountryCode, source: FeedSource = 'changes'): Promise<FeedCursorEntity | null> {
    return this.dataSource.getRepository(FeedCursorEntity).findOneBy({ feed: feedName(country, source) });
  }

  /** Every feed's row (the metrics' cursor age). */
  async all(): Promise<FeedCursorEntity[]> {
    return this.dataSource.getRepository(FeedCursorEntity).find();
  }

  /** Takes the feed for `owner` unless another holds it; returns its stored cursor. */
  async take(
    country: CountryCode,
    owner: string,
    leaseMs: number,
    source: FeedSource = 'changes',
  ): Promise<{ cursor: string | null } | null> {
    const now = this.clock.now();
    await this.dataSource.query(
      `INSERT INTO feed_cursor (feed, country, cursor, updated_at) VALUES ($1, $2, NULL, $3) ON CONFLICT (feed) DO NOTHING`,
      [feedName(country, source), country, now],
    );
    const rows = await queryRows<{ cursor: string | null }>(
      this.dataSource,
      `UPDATE feed_cursor SET lease_owner = $2, lease_until = $3 WHERE feed = $1 AND (lease_owner = $2 OR lease_until IS NULL OR lease_until < $4) RETURNING cursor`,
      [feedName(country, source), owner, new Date(now.getTime() + leaseMs), now],
    );
    return rows[0] ?? null;
  }

  /** Stores the cursor (and when the feed was read to its end) if `owner` still holds the feed; renews the lease. */
  async store(
    m: EntityManager,
    country: CountryCode,
    owner: string,
    cursor: string | null,
    caughtUpAt: Date | null,
    leaseMs: number,
    source: FeedSource = 'changes',
  ): Promise<boolean> {
    const now = this.clock.now();
    const rows = await queryRows(
      m,
      `UPDATE feed_cursor SET cursor = COALESCE($3, cursor), caught_up_at = COALESCE($4, caught_up_at), updated_at = $5, lease_until = $6
       WHERE feed = $1 AND lease_owner = $2 RETURNING feed`,
      [feedName(country, source), owner, cursor, caughtUpAt, now, new Date(now.getTime() + leaseMs)],
    );
    return rows.length > 0;
  }

  async renew(
    country: CountryCode,
    owner: string,
    caughtUpAt: Date | null,
    leaseMs: number,
    source: FeedSource = 'changes',
  ): Promise<boolean> {
    return this.store(this.dataSource.manager, country, owner, null, caughtUpAt, leaseMs, source);
  }

  async release(country: CountryCode, owner: string, source: FeedSource = 'changes'): Promise<void> {
    await this.dataSource.query(
      `UPDATE feed_cursor SET lease_owner = NULL, lease_until = NULL WHERE feed = $1 AND lease_owner = $2`,
      [feedName(country, source), owner],
    );
  }

  /** Forgets the position (a stream that no longer accepts it): the next connection starts from now. */
  async reset(m: EntityManager, country: CountryCode, owner: string, source: FeedSource = 'changes'): Promise<void> {
    await m.query(`UPDATE feed_cursor SET cursor = NULL, updated_at = $3 WHERE feed = $1 AND lease_owner = $2`, [
      feedName(country, source),
      owner,
      this.clock.now(),
    ]);
  }
}
