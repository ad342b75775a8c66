import { Injectable, Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { Clock } from '../../../platform/clock';
import { CountryCode } from '../../../registers/registers';
import { UpstreamError } from '../../../registers/upstream-error';
import { RegisterStatusService } from '../../../status/register-status.service';
import { DetectionEventWriter } from '../events/detection-event-writer';
import { ChangeSources } from './change-sources.service';
import { FeedCursorStore } from './feed-cursor-store';
import { FeedEntriesService } from './feed-entries.service';
import type { FeedSource } from './feed-names';
import type { ChangeFeed } from '../../../registers/change-detection';

/** Pages read in one poll at most; the rest waits for the next poll. */
const MAX_PAGES_PER_POLL = 50;
/** A poll holds its feed this long at most (renewed with each page). */
const FEED_LEASE_MS = 5 * 60_000;

export interface PollResult {
  pages: number;
  entries: number;
  applied: number;
  requested: number;
  caughtUp: boolean;
}

/**
 * One poll of a register's change feed: take the feed (one reader at a time across workers),
 * read pages from the stored cursor, apply each page and store the next cursor in one
 * transaction, and note when the feed was read to its end. Nothing is read while the register
 * is not readable: the cursor stays, and the next poll after recovery catches up. The feeds a
 * register has beside its main one (NO's role updates) are polled after it, each from its own
 * cursor; only the main one vouches for scheduled checks.
 */
@Injectable()
export class FeedPollService {
  private readonly logger = new Logger(FeedPollService.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly sources: ChangeSources,
    private readonly cursors: FeedCursorStore,
    private readonly entries: FeedEntriesService,
    private readonly statuses: RegisterStatusService,
    private readonly sink: DetectionEventWriter,
    private readonly clock: Clock,
  ) {}

  async poll(country: CountryCode): Promise<PollResult | null> {
    if (this.sources.mode(country) !== 'feed') return null;
    if (!(await this.statuses.current(country)).readable) return null;
    const result = await this.pollOne(country, 'changes', this.sources.feed(country));
    for (const { source, feed } of this.sources.extraFeeds(country)) await this.pollOne(country, source, feed);
    return result;
  }

  private async pollOne(country: CountryCode, source: FeedSource, feed: ChangeFeed): Promise<PollResult | null> {
    const owner = randomBytes(9).toString('base64url');
    const held = await this.cursors.take(country, owner, FEED_LEASE_MS, source);
    if (!held) return null;
    const result: PollResult = { pages: 0, entries: 0, applied: 0, requested: 0, caughtUp: false };
    try {
      let cursor = held.cursor ?? feed.start(this.clock.now());
      while (result.pages < MAX_PAGES_PER_POLL) {
        const readAt = this.clock.now();
        const page = await feed.read(cursor);
        result.pages++;
        result.entries += page.entries.length;
        const { stored, emitted } = await this.dataSource.transaction(async (m) => {
          const { applied, requested, emitted } = await this.entries.apply(m, country, page.entries, this.clock.now());
          result.applied += applied;
          result.requested += requested;
          // A reader that lost the feed must not commit what it applied: another one has the page.
          if (
            !(await this.cursors.store(
              m,
              country,
              owner,
              page.cursor,
              page.more ? null : readAt,
              FEED_LEASE_MS,
              source,
            ))
          )
            throw new LostFeedError(country);
          return { stored: true, emitted };
        });
        if (!stored) break;
        await this.sink.wake(emitted);
        cursor = page.cursor;
        if (!page.more) {
          result.caughtUp = true;
          break;
        }
      }
    } catch (err) {
      const e = err instanceof UpstreamError ? err : UpstreamError.from(err);
      const name = source === 'changes' ? 'feed' : `${source} feed`;
      this.logger.warn(`${country} ${name} poll failed after ${result.pages} page(s): ${e.errorClass} (${e.message})`);
    } finally {
      await this.cursors.release(country, owner, source);
    }
    return result;
  }
}

class LostFeedError extends Error {
  constructor(country: CountryCode) {
    super(`lost the ${country} feed to another reader`);
  }
}
