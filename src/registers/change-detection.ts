import type { CompanyRecord, ConnectorDeps, Officer, RegisterConnector } from './connector';
import type { RegisterConfig } from './register-config';

/**
 * How change detection learns of a register's changes under the current configuration:
 * - `feed`: a change feed polled every FEED_POLL_INTERVAL_SECONDS from a stored cursor;
 * - `stream`: a long-lived stream of changes resumed from a stored position;
 * - `schedule`: every watched company re-read once per DETECTION_INTERVAL_SECONDS.
 */
export type ChangeDetectionMode = 'feed' | 'stream' | 'schedule';

/** One officer appointment as a stream sends it (Companies House officers stream): the whole resource. */
export interface StreamedOfficer {
  /** The register's id of the appointment (the stream's `resource_id`). */
  resourceId: string;
  officer: Officer;
  /** A digest of everything the register sent of it: the same resource sent again has the same one. */
  fingerprint: string;
  /** The company's officers on the register's website. */
  url: string;
}

/** One filing as a stream sends it (Companies House filings stream). */
export interface StreamedFiling {
  /** The register's id of the filing (`transaction_id`, the stream's `resource_id`). */
  resourceId: string;
  category: string | null;
  /** The form's type code (AA, CS01, AP01…). */
  type: string | null;
  /** YYYY-MM-DD: when the register received it. */
  date: string | null;
  /** In the register's words where it sends them, else its description key with its values. */
  description: string;
  descriptionCode: string | null;
  /** The filing on the register's website. */
  url: string;
  /** The company's filing history on the register's website. */
  historyUrl: string;
  fingerprint: string;
  /**
   * Why this is a filing sent again rather than a new one, whatever we have seen of it: it
   * carries annotations (added to a filing later), or the event names the fields of it that
   * changed (its document became available…). Null for what reads as a new filing.
   */
  resentBecause: string | null;
}

/** One entry of a feed or stream: a company the register says has changed. */
export interface FeedEntry {
  /** As the register keys it (the same form as a watch's registration number). */
  registrationNumber: string;
  /** The whole current record when the feed carries it: applied without a re-read. */
  record?: CompanyRecord;
  /** An officer appointment the stream sent (applied without a re-read). */
  officer?: StreamedOfficer;
  /** A filing the stream sent. */
  filing?: StreamedFiling;
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

/**
 * The feeds and streams a register has besides its main one, by name (the key of their cursor):
 * GB's `officers` and `filings` streams, NO's `roles` update feed.
 */
export type ExtraSource = 'officers' | 'filings' | 'roles';

/**
 * How a register's officer changes are found under the configuration: `stream` (an officers
 * stream sends each appointment), `reread` (every read of a company by detection reads its
 * officers too — the connector's `lookup` — and compares the list), or null: not watched.
 */
export type OfficerDetection = 'stream' | 'reread' | null;

/** What a feed or stream is built with: what its connector is built with, and the connector. */
/** A company's filings as its register lists them, newest first. */
export interface FilingHistory {
  /** The company's most recent filings ([] when the register has no such company). */
  read(registrationNumber: string): Promise<StreamedFiling[]>;
}

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
  /** Feeds polled beside the main one, each from its own cursor (NO's role updates), in `feed` mode. */
  extraFeeds?: Partial<Record<ExtraSource, (deps: ChangeSourceDeps) => ChangeFeed>>;
  /** Streams followed beside the main one, each from its own cursor (GB's officers and filings), in `stream` mode. */
  extraStreams?: Partial<Record<ExtraSource, (deps: ChangeSourceDeps) => ChangeStream>>;
  /** How officer changes are found (absent: they are not). */
  officers?(settings: RegisterConfig): OfficerDetection;
  /** Whether company.filing_published is emitted under the configuration (absent: never). */
  filings?(settings: RegisterConfig): boolean;
  /**
   * A company's filing history read from the register, where the configuration allows it: what
   * recovers the filings a stream could no longer send (absent or null: they are not recovered).
   */
  filingHistory?(deps: ChangeSourceDeps): FilingHistory | null;
  /** For the README's detection table. */
  readme: { how: string; credentials: string; delay: string };
}
