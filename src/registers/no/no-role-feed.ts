import type { AxiosInstance } from 'axios';
import { z } from 'zod';
import type { ChangeFeed, ChangeSourceDeps, FeedEntry, FeedPage } from '../change-detection';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';

/** Entries per read; the register allows up to 10,000. */
export const NO_ROLE_FEED_PAGE_SIZE = 1_000;

/** CloudEvents 1.0, as the feed sends them: only the id and the unit matter here. */
const page = z.array(z.unknown());
// An event's id and its unit are read apart: an event whose unit cannot be read still moves the cursor.
const eventId = z.object({ id: z.union([z.number().int().nonnegative(), z.string().regex(/^\d+$/)]) });
const eventUnit = z.object({ data: z.object({ organisasjonsnummer: z.string().regex(/^\d{9}$/) }) });

/**
 * Brønnøysund's keyless role update feed `/oppdateringer/roller`: a bare JSON array of
 * CloudEvents saying that the roles of a unit changed — never what changed. The watched units
 * it names are re-read with their roles (`/enheter/{orgnr}` and `/enheter/{orgnr}/roller`) and
 * the lists compared. Cursor: `id:<last id>` (the register answers after it), or `time:<ISO>`
 * before the first entry is seen.
 */
export class NoRoleFeed implements ChangeFeed {
  readonly url: string;
  private readonly api: AxiosInstance;

  constructor({ settings, http }: ChangeSourceDeps) {
    this.api = http.forRegister('NO', 'API');
    this.url = `${settings.urls.API}/oppdateringer/roller`;
  }

  start(now: Date): string {
    return `time:${now.toISOString()}`;
  }

  async read(cursor: string): Promise<FeedPage> {
    const after = cursor.startsWith('id:') ? Number(cursor.slice(3)) : null;
    const params =
      after !== null
        ? { afterId: after, size: NO_ROLE_FEED_PAGE_SIZE }
        : { afterTime: cursor.replace(/^time:/, ''), size: NO_ROLE_FEED_PAGE_SIZE };
    let res;
    try {
      res = await this.api.get('/oppdateringer/roller', { params });
    } catch (err) {
      throw UpstreamError.from(err);
    }
    const parsed = page.safeParse(jsonBody(res, 'Enhetsregisteret'));
    if (!parsed.success)
      throw UpstreamError.invalidResponse('Enhetsregisteret sent a role update page that is not a list of events');
    const entries: FeedEntry[] = [];
    const seen = new Set<string>();
    let last = -1;
    for (const item of parsed.data) {
      // An event that cannot be read is passed over: failing the page would stall the feed on it.
      // One without an id cannot move the cursor: the ids around it do.
      const id = eventId.safeParse(item);
      if (id.success) last = Math.max(last, Number(id.data.id));
      const unit = eventUnit.safeParse(item);
      if (!unit.success || seen.has(unit.data.data.organisasjonsnummer)) continue;
      seen.add(unit.data.data.organisasjonsnummer);
      entries.push({ registrationNumber: unit.data.data.organisasjonsnummer });
    }
    // Never back: the register answers after `after`, so an id below it is not one to go back to.
    const next = after !== null && after > last ? after : last;
    return {
      entries,
      cursor: last >= 0 ? `id:${next}` : cursor,
      // A full page without a single id gives no cursor to read on from: read again at the next poll, not at once.
      more: parsed.data.length >= NO_ROLE_FEED_PAGE_SIZE && last >= 0,
    };
  }
}
