import type { AxiosInstance } from 'axios';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import type { ChangeFeed, ChangeSourceDeps, FeedPage } from '../change-detection';
import { answeredOrNotFound, jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import type { FrConnector } from './fr.connector';

/** Head offices per page; INSEE allows up to 1,000. */
export const FR_FEED_PAGE_SIZE = 1_000;
/** Each run starts this long before the previous one did: a unit processed at the edge is read twice rather than missed. */
const OVERLAP_MS = 10 * 60_000;

const cursorSchema = z.object({ from: z.string(), run: z.string().optional(), page: z.string().optional() });
type FeedCursor = z.infer<typeof cursorSchema>;
const header = z.object({
  header: z.object({ curseur: z.string().nullish(), curseurSuivant: z.string().nullish() }),
  etablissements: z.array(z.unknown()).nullish(),
});

/**
 * INSEE's "flux": head offices (`etablissementSiege:true`) whose unit or establishment INSEE
 * processed since the last run (`dateDernierTraitementUniteLegale` / `…Etablissement`, local
 * Paris time without zone), paged with INSEE's `curseur`. Each hit carries the unit's current
 * values and the head office's address: the whole record, applied without a re-read.
 * Cursor: `{from, run?, page?}` — the run in progress and its INSEE page cursor.
 */
export class FrInseeFeed implements ChangeFeed {
  readonly url: string;
  private readonly api: AxiosInstance;
  private readonly apiKey?: string;
  private readonly clock: Clock;
  private readonly connector: FrConnector;

  constructor({ settings, http, clock, connector }: ChangeSourceDeps) {
    this.api = http.forRegister('FR', 'API');
    this.apiKey = settings.credentials.API_KEY;
    this.url = `${settings.urls.API}/siret`;
    this.clock = clock;
    this.connector = connector as FrConnector;
  }

  start(now: Date): string {
    return JSON.stringify({ from: parisLocal(now) } satisfies FeedCursor);
  }

  async read(raw: string): Promise<FeedPage> {
    const cursor = parseCursor(raw);
    const run = cursor.run ?? parisLocal(new Date(this.clock.now().getTime() - OVERLAP_MS));
    const page = cursor.page ?? '*';
    const q = `(dateDernierTraitementUniteLegale:[${cursor.from} TO *] OR dateDernierTraitementEtablissement:[${cursor.from} TO *]) AND etablissementSiege:true`;
    let res;
    try {
      res = await this.api.get('/siret', {
        params: { q, nombre: FR_FEED_PAGE_SIZE, curseur: page },
        headers: { 'X-INSEE-Api-Key-Integration': this.apiKey ?? '' },
        validateStatus: answeredOrNotFound,
      });
    } catch (err) {
      throw UpstreamError.from(err);
    }
    const retrievedAt = this.clock.now().toISOString();
    const done: FeedPage = { entries: [], cursor: JSON.stringify({ from: run }), more: false };
    // INSEE answers 404 when nothing matches.
    if (res.status === 404) return done;
    const body = jsonBody(res, 'INSEE');
    const records = this.connector.recordsOfInseeSiretSearch(body, retrievedAt);
    const entries = records.map((record) => ({ registrationNumber: record.registrationNumber, record }));
    const h = header.safeParse(body);
    const next = h.success ? h.data.header.curseurSuivant : null;
    // The last page is the one whose next cursor is its own (or absent), or a short one: counted as
    // INSEE served it, since the units it does not make public are not entries.
    const served = h.success ? (h.data.etablissements?.length ?? 0) : entries.length;
    if (!next || next === page || served < FR_FEED_PAGE_SIZE) return { ...done, entries };
    return { entries, cursor: JSON.stringify({ from: cursor.from, run, page: next }), more: true };
  }
}

function parseCursor(raw: string): FeedCursor {
  try {
    return cursorSchema.parse(JSON.parse(raw));
  } catch {
    throw new Error(`stored FR feed cursor is not readable: ${raw.slice(0, 80)}`);
  }
}

/** INSEE's processing dates are Paris local time without a zone: `YYYY-MM-DDTHH:mm:ss`. */
export function parisLocal(at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Paris',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}
