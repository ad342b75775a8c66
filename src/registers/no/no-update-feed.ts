import type { AxiosInstance } from 'axios';
import { z } from 'zod';
import type { ChangeFeed, ChangeSourceDeps, FeedEntry, FeedPage } from '../change-detection';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';

/** Entries per read; the register allows up to 10,000. */
export const NO_FEED_PAGE_SIZE = 1_000;

const page = z.object({
  _embedded: z
    .object({
      oppdaterteEnheter: z.array(
        z.object({
          oppdateringsid: z.number().int(),
          organisasjonsnummer: z.string(),
          endringstype: z.string().nullish(),
        }),
      ),
    })
    .nullish(),
});

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
    const params = cursor.startsWith('id:')
      ? { oppdateringsid: Number(cursor.slice(3)), size: NO_FEED_PAGE_SIZE }
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
    for (const item of items) {
      if (!/^\d{9}$/.test(item.organisasjonsnummer) || seen.has(item.organisasjonsnummer)) continue;
      seen.add(item.organisasjonsnummer);
      entries.push({ registrationNumber: item.organisasjonsnummer });
    }
    const last = items.reduce((max, i) => Math.max(max, i.oppdateringsid), -1);
    return {
      entries,
      cursor: last >= 0 ? `id:${last + 1}` : cursor,
      more: items.length >= NO_FEED_PAGE_SIZE,
    };
  }
}
