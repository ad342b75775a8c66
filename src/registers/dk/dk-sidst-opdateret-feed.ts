import { z } from 'zod';
import type { ChangeFeed, ChangeSourceDeps, FeedPage } from '../change-detection';
import type { DkConnector } from './dk.connector';
import { cvrNumberOf } from './cvr-parser';

/** Companies per read. */
export const DK_FEED_PAGE_SIZE = 1_000;
const FIELD = 'Vrvirksomhed.sidstOpdateret';

const cursorSchema = z.object({ from: z.string(), skip: z.number().int().min(0).default(0) });
type FeedCursor = z.infer<typeof cursorSchema>;

/**
 * CVR's own change query: companies whose `sidstOpdateret` is at or after the cursor, oldest
 * first (ties in CVR-number order), each named by its number only. A watched one is then
 * re-read whole, participants included, and compared; a page of whole documents with their
 * participants would be some 50 KB per company, nearly all of it about companies nobody
 * watches. Cursor: `{from, skip}` — the last `sidstOpdateret` seen and how many documents
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
    const docs = await this.connector.searchDocuments({
      query: { range: { [FIELD]: { gte: cursor.from } } },
      _source: ['Vrvirksomhed.cvrNummer', FIELD],
      sort: [{ [FIELD]: 'asc' }, { 'Vrvirksomhed.cvrNummer': 'asc' }],
      from: cursor.skip,
      size: DK_FEED_PAGE_SIZE,
    });
    if (docs.length === 0) return { entries: [], cursor: raw, more: false };
    const stamps = docs.map((d) => (typeof d.sidstOpdateret === 'string' ? d.sidstOpdateret : cursor.from));
    const last = stamps[stamps.length - 1];
    const sameAsLast = stamps.filter((s) => s === last).length;
    const next: FeedCursor =
      last === cursor.from ? { from: last, skip: cursor.skip + docs.length } : { from: last, skip: sameAsLast };
    return {
      entries: docs.flatMap((d) => {
        const registrationNumber = cvrNumberOf(d);
        return registrationNumber ? [{ registrationNumber }] : [];
      }),
      cursor: JSON.stringify(next),
      more: docs.length >= DK_FEED_PAGE_SIZE,
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
