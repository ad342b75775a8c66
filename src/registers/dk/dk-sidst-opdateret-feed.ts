import { z } from 'zod';
import type { ChangeFeed, ChangeSourceDeps, FeedPage } from '../change-detection';
import type { DkConnector } from './dk.connector';
import { RECORD_FIELDS } from './cvr-queries';

/** Companies per read. */
export const DK_FEED_PAGE_SIZE = 1_000;
const FIELD = 'Vrvirksomhed.sidstOpdateret';

const cursorSchema = z.object({ from: z.string(), skip: z.number().int().min(0).default(0) });
type FeedCursor = z.infer<typeof cursorSchema>;

/**
 * CVR's own change query: companies whose `sidstOpdateret` is at or after the cursor, oldest
 * first (ties in CVR-number order), each the whole current document (applied without a
 * re-read). Cursor: `{from, skip}` — the last `sidstOpdateret` seen and how many documents
 * with exactly that value were already read (so a burst of equal timestamps pages on).
 */
export class DkSidstOpdateretFeed implements ChangeFeed {
  readonly url: string;
  private readonly connector: DkConnector;

  constructor({ settings, connector }: ChangeSourceDeps) {
    this.url = `${settings.urls.API}/cvr-permanent/virksomhed/_search`;
    this.connector = connector as DkConnector;
  }

  start(now: Date): string {
    return JSON.stringify({ from: now.toISOString(), skip: 0 } satisfies FeedCursor);
  }

  async read(raw: string): Promise<FeedPage> {
    const cursor = parseCursor(raw);
    const hits = await this.connector.searchRecords({
      query: { range: { [FIELD]: { gte: cursor.from } } },
      _source: [...RECORD_FIELDS, FIELD],
      sort: [{ [FIELD]: 'asc' }, { 'Vrvirksomhed.cvrNummer': 'asc' }],
      from: cursor.skip,
      size: DK_FEED_PAGE_SIZE,
    });
    if (hits.length === 0) return { entries: [], cursor: raw, more: false };
    const stamps = hits.map((h) => (typeof h.doc.sidstOpdateret === 'string' ? h.doc.sidstOpdateret : cursor.from));
    const last = stamps[stamps.length - 1];
    const sameAsLast = stamps.filter((s) => s === last).length;
    const next: FeedCursor =
      last === cursor.from ? { from: last, skip: cursor.skip + hits.length } : { from: last, skip: sameAsLast };
    return {
      entries: hits.map(({ record }) => ({ registrationNumber: record.registrationNumber, record })),
      cursor: JSON.stringify(next),
      more: hits.length >= DK_FEED_PAGE_SIZE,
    };
  }
}

function parseCursor(raw: string): FeedCursor {
  try {
    return cursorSchema.parse(JSON.parse(raw));
  } catch {
    throw new Error(`stored DK feed cursor is not readable: ${raw.slice(0, 80)}`);
  }
}
