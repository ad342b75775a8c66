import type { AxiosInstance } from 'axios';
import { z } from 'zod';
import type { ChangeFeed, ChangeSourceDeps, FeedEntry, FeedPage } from '../change-detection';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';

/** Entries per read; the register allows up to 10,000. */
export const NO_FEED_PAGE_SIZE = 1_000;

const page = z.object({
  _embedded: z.object({ oppdaterteEnheter: z.array(z.unknown()) }).nullish(),
});
// An entry's id and its unit are read apart: an entry whose unit cannot be read still moves the cursor.
const entryId = z.object({ oppdateringsid: z.number().int().nonnegative() });
const entryUnit = z.object({ organisasjonsnummer: z.string().regex(/^\d{9}$/) });

/**
 * Brønnøysund's keyless update feed `/oppdateringer/enheter`: which units changed, in
 * `oppdateringsid` order. Entries carry no record (the units are re-read, only the watched
 * ones). Cursor: `id:<next oppdateringsid>` (the register answers from that id on, inclusive),
 * or `dato:<ISO time>` before the first entry is seen.
 */
export class NoUpdateFeed implements ChangeFeed {
  readonly url: string;
  private readonly api: AxiosInstance;

  constructor({ settings, http }: ChangeSourceDeps) {
    this.api = http.forRegister('NO', 'API');
    this.url = `${settings.urls.API}/oppdateringer/enheter`;
  }

  start(now: Date): string {
    return `dato:${now.toISOString()}`;
  }

  async read(cursor: string): Promise<FeedPage> {
    const from = cursor.startsWith('id:') ? Number(cursor.slice(3)) : null;
    const params =
      from !== null
        ? { oppdateringsid: from, size: NO_FEED_PAGE_SIZE }
        : { dato: cursor.replace(/^dato:/, ''), size: NO_FEED_PAGE_SIZE };
    let res;
    try {
      res = await this.api.get('/oppdateringer/enheter', { params });
    } catch (err) {
      throw UpstreamError.from(err);
    }
    const parsed = page.safeParse(jsonBody(res, 'Enhetsregisteret'));
    if (!parsed.success)
      throw UpstreamError.invalidResponse('Enhetsregisteret sent an update page without oppdaterteEnheter');
    const items = parsed.data._embedded?.oppdaterteEnheter ?? [];
    const entries: FeedEntry[] = [];
    const seen = new Set<string>();
    let last = -1;
    for (const item of items) {
      // An entry that cannot be read is passed over: failing the page would stall the feed on it.
      // One without an id cannot move the cursor: the ids around it do.
      const id = entryId.safeParse(item);
      if (id.success) last = Math.max(last, id.data.oppdateringsid);
      const unit = entryUnit.safeParse(item);
      if (!unit.success || seen.has(unit.data.organisasjonsnummer)) continue;
      seen.add(unit.data.organisasjonsnummer);
      entries.push({ registrationNumber: unit.data.organisasjonsnummer });
    }
    // Never back: the register answers from `from` on, so an id below it is not one to go back to.
    const next = from !== null && from > last + 1 ? from : last + 1;
    return {
      entries,
      cursor: last >= 0 ? `id:${next}` : cursor,
      // A full page without a single id gives no cursor to read on from: read again at the next poll, not at once.
      more: items.length >= NO_FEED_PAGE_SIZE && last >= 0,
    };
  }
}
