import type { AxiosInstance } from 'axios';
import { z } from 'zod';
import type { ChangeFeed, ChangeSourceDeps, FeedEntry, FeedPage } from '../change-detection';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';

/** Entries per read; the register allows up to 10,000. */
export const NO_ROLE_FEED_PAGE_SIZE = 1_000;

/** CloudEvents 1.0, as the feed sends them: only the id and the unit matter here. */
const page = z.array(
  z.object({
    id: z.union([z.number().int(), z.string().regex(/^\d+$/)]),
    data: z.object({ organisasjonsnummer: z.string() }).nullish(),
  }),
);

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
    const params = cursor.startsWith('id:')
      ? { afterId: Number(cursor.slice(3)), size: NO_ROLE_FEED_PAGE_SIZE }
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
      last = Math.max(last, Number(item.id));
      const orgnr = item.data?.organisasjonsnummer ?? '';
      if (!/^\d{9}$/.test(orgnr) || seen.has(orgnr)) continue;
      seen.add(orgnr);
      entries.push({ registrationNumber: orgnr });
    }
    return {
      entries,
      cursor: last >= 0 ? `id:${last}` : cursor,
      more: parsed.data.length >= NO_ROLE_FEED_PAGE_SIZE,
    };
  }
}
