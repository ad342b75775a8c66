import type { CompanyRecord, ConnectorDeps, RegisterConnector } from './connector';
import type { RegisterConfig } from './register-config';

/**
 * How change detection learns of a register's changes under the current configuration:
 * - `feed`: a change feed polled every FEED_POLL_INTERVAL_SECONDS from a stored cursor;
 * - `stream`: a long-lived stream of changes resumed from a stored position;
 * - `schedule`: every watched company re-read once per DETECTION_INTERVAL_SECONDS.
 */
export type ChangeDetectionMode = 'feed' | 'stream' | 'schedule';

/** One entry of a feed or stream: a company the register says has changed. */
export interface FeedEntry {
  /** As the register keys it (the same form as a watch's registration number). */
  registrationNumber: string;
  /** The whole current record when the feed carries it: applied without a re-read. */
  record?: CompanyRecord;
}

/** One read of a feed. */
export interface FeedPage {
  entries: FeedEntry[];
  /** Where the next read starts, stored once these entries are applied. */
  cursor: string;
  /** More entries are waiting now: read again at once. */
  more: boolean;
}

/** A change feed read by polling (NO update feed, FR INSEE query, DK `sidstOpdateret` query). */
export interface ChangeFeed {
  /** The address of the feed (provenance of a check that found nothing in it). */
  readonly url: string;
  /** Where a feed without a stored cursor starts: the moment detection starts watching. */
  start(now: Date): string;
  read(cursor: string): Promise<FeedPage>;
}

/** A long-lived stream of changes (GB Companies House streaming API). */
export interface ChangeStream {
  readonly url: string;
  /**
   * Connects from `cursor` (null: from now) and hands over each entry (null: an event with
   * nothing to compare, whose position is stored all the same) with the cursor to store after it, in order, until `signal` aborts (resolves) or the connection fails or
   * ends (throws). `onConnected` is called once the register accepted the connection.
   */
  run(
    cursor: string | null,
    onEntry: (entry: FeedEntry | null, cursor: string) => Promise<void>,
    signal: AbortSignal,
    onConnected?: () => void,
  ): Promise<void>;
}

/** What a feed or stream is built with: what its connector is built with, and the connector. */
export interface ChangeSourceDeps extends ConnectorDeps {
  connector: RegisterConnector;
}

/** A register's change detection: what it uses, when, and what an operator must know. */
export interface ChangeDetectionPlan {
  mode(settings: RegisterConfig): ChangeDetectionMode;
  /** The endpoint (PURPOSE in the register table) a re-read goes through: its politeness paces how many reads are queued. */
  readEndpoint(settings: RegisterConfig): string;
  /**
   * A feed that does not announce every change its register's records show (ARES publishes no
   * batches for the insolvency register): a watched company not read for this many seconds is
   * re-read at its scheduled check instead of being confirmed against the feed. Absent: the
   * feed is trusted alone, and scheduled checks of feed registers cost no request.
   */
  rereadAfterSeconds?: number;
  createFeed?(deps: ChangeSourceDeps): ChangeFeed;
  createStream?(deps: ChangeSourceDeps): ChangeStream;
  /** For the README's detection table. */
  readme: { how: string; credentials: string; delay: string };
}
