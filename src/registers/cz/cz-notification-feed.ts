import type { AxiosInstance, AxiosResponse } from 'axios';
import { z } from 'zod';
import type { ChangeFeed, ChangeSourceDeps, FeedEntry, FeedPage } from '../change-detection';
import { DeferredLogger } from '../../platform/logging/deferred-logger';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { NOTIFICATION_SOURCES, NotificationSource } from './ares-code-lists';
import { parseAresError } from './ares-parsers';
import { aresDate } from './ares-values';

export const NOTIFICATION_PATH = '/ekonomicke-subjekty-notifikace';

/**
 * Where the feed stands, per source: the last batch applied (`after`) and the batches listed
 * but not read yet (`pending`, in order). Batch numbers are the register's own, so a cursor
 * read back after a restart goes on where it stopped. `since` (the day detection started)
 * anchors a source seen for the first time: its batches released before that day are not read.
 */
const cursorSchema = z.object({
  v: z.literal(1),
  since: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  after: z.record(z.string(), z.number().int().nonnegative()),
  pending: z.record(z.string(), z.array(z.number().int().nonnegative())),
});
export type CzFeedCursor = z.infer<typeof cursorSchema>;

const batchList = z.object({ notifikacniDavky: z.array(z.unknown()).nullish() });

const listedBatch = z.object({
  cisloDavky: z.number().int().nonnegative(),
  datovyZdroj: z.string().nullish().catch(null),
  datumUvolneniDavky: z.string().nullish().catch(null),
});

const batch = z.object({
  cisloDavky: z.number().int().nonnegative(),
  datovyZdroj: z.string().min(1),
  seznamNotifikaci: z.array(z.unknown()).nullish(),
});

export function startCursor(now: Date): CzFeedCursor {
  return { v: 1, since: now.toISOString().slice(0, 10), after: {}, pending: {} };
}

export function encodeCursor(cursor: CzFeedCursor): string {
  const bySource = <T>(record: Record<string, T>) =>
    Object.fromEntries(
      Object.keys(record)
        .sort(sourceOrder)
        .map((s) => [s, record[s]]),
    );
  return JSON.stringify({
    v: 1,
    since: cursor.since,
    after: bySource(cursor.after),
    pending: bySource(cursor.pending),
  });
}

export function decodeCursor(raw: string): CzFeedCursor {
  try {
    return cursorSchema.parse(JSON.parse(raw));
  } catch {
    throw new Error(`stored CZ feed cursor is not readable: ${raw.slice(0, 80)}`);
  }
}

/** The batch to read next: the first source (in NOTIFICATION_SOURCES order) with one pending, its lowest number. */
export function nextBatch(cursor: CzFeedCursor): { source: string; number: number } | null {
  const source = Object.keys(cursor.pending)
    .sort(sourceOrder)
    .find((s) => cursor.pending[s].length > 0);
  return source ? { source, number: cursor.pending[source][0] } : null;
}

/**
 * Takes the answer of `POST …/vyhledat {"datovyZdroj": source}` into the cursor: every batch of
 * that source after the last one applied becomes pending. A source without a position is
 * anchored first, after the last batch released before `since` (or before its first listed
 * batch when all were released since); a source that lists nothing stays without one. A listed
 * item without a batch number cannot be read by number: it is left out (and said to `warn`).
 */
export function withListedBatches(
  cursor: CzFeedCursor,
  source: string,
  body: unknown,
  warn?: (message: string) => void,
): CzFeedCursor {
  const parsed = batchList.safeParse(body);
  if (!parsed.success)
    throw UpstreamError.invalidResponse('ARES sent a notification batch list without notifikacniDavky');
  const batches: z.infer<typeof listedBatch>[] = [];
  let unnumbered = 0;
  for (const item of parsed.data.notifikacniDavky ?? []) {
    // Refusing the whole list for one unnumbered item would stop every source's feed at each poll, for good.
    const b = listedBatch.safeParse(item);
    if (!b.success) unnumbered++;
    else if (!b.data.datovyZdroj || b.data.datovyZdroj === source) batches.push(b.data);
  }
  if (unnumbered > 0)
    warn?.(`ARES's ${source} notification batch list had ${unnumbered} item(s) without a cisloDavky; left out`);
  if (batches.length === 0) return cursor;
  const numbers = batches.map((b) => b.cisloDavky);
  let after = cursor.after[source];
  if (after === undefined) {
    const before = batches.filter((b) => (aresDate(b.datumUvolneniDavky) ?? cursor.since) < cursor.since);
    after = before.length > 0 ? Math.max(...before.map((b) => b.cisloDavky)) : Math.min(...numbers) - 1;
  }
  const known = cursor.pending[source] ?? [];
  const pending = [...new Set([...known, ...numbers.filter((n) => n > after)])].sort((a, b) => a - b);
  return withSource(cursor, source, after, pending);
}

/**
 * The page of one batch (`GET …/datovy-zdroj/{source}/cislo-davky/{n}`) read from `raw`: the
 * IČOs it names, each once (a subject changed twice in a batch is re-read once), the cursor past
 * the batch, and whether more batches wait. Entries carry no record: the batch says only which
 * subjects changed (`typZmeny` UPD/DEL), so the watched ones are re-read. Subjects without an
 * IČO (`icoId` "ARES_…") cannot be watched and are left out.
 */
export function pageFromBatch(raw: string, body: unknown): FeedPage {
  const cursor = decodeCursor(raw);
  const parsed = batch.safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('ARES sent a notification batch without cisloDavky');
  const { cisloDavky, datovyZdroj, seznamNotifikaci } = parsed.data;
  const expected = nextBatch(cursor);
  if (!expected || expected.source !== datovyZdroj || expected.number !== cisloDavky) {
    throw UpstreamError.invalidResponse(
      `ARES answered batch ${datovyZdroj}/${cisloDavky} where ${expected ? `${expected.source}/${expected.number}` : 'none'} was next`,
    );
  }
  if (!Array.isArray(seznamNotifikaci))
    throw UpstreamError.invalidResponse(`ARES sent batch ${datovyZdroj}/${cisloDavky} without seznamNotifikaci`);
  const seen = new Set<string>();
  const entries: FeedEntry[] = [];
  for (const item of seznamNotifikaci) {
    const ico = typeof item === 'object' && item !== null ? (item as { icoId?: unknown }).icoId : undefined;
    if (typeof ico !== 'string' || !/^\d{8}$/.test(ico.trim()) || seen.has(ico.trim())) continue;
    seen.add(ico.trim());
    entries.push({ registrationNumber: ico.trim() });
  }
  const next = skipBatch(cursor, datovyZdroj, cisloDavky);
  return { entries, cursor: encodeCursor(next), more: nextBatch(next) !== null };
}

/** The cursor past batch `number` of `source` (read, or gone at the register). */
export function skipBatch(cursor: CzFeedCursor, source: string, number: number): CzFeedCursor {
  const pending = (cursor.pending[source] ?? []).filter((n) => n > number);
  return withSource(cursor, source, Math.max(cursor.after[source] ?? number, number), pending);
}

function withSource(cursor: CzFeedCursor, source: string, after: number, pending: number[]): CzFeedCursor {
  const { [source]: _dropped, ...others } = cursor.pending;
  return {
    ...cursor,
    after: { ...cursor.after, [source]: after },
    pending: pending.length > 0 ? { ...others, [source]: pending } : others,
  };
}

function sourceOrder(a: string, b: string): number {
  const rank = (s: string) => {
    const i = (NOTIFICATION_SOURCES as readonly string[]).indexOf(s);
    return i < 0 ? NOTIFICATION_SOURCES.length : i;
  };
  return rank(a) - rank(b) || a.localeCompare(b);
}

/**
 * ARES's notification batches, per source: when no batch is pending, one list request per
 * followed source (`POST /ekonomicke-subjekty-notifikace/vyhledat`); then one request per batch
 * (`GET …/datovy-zdroj/{source}/cislo-davky/{n}`), one page each. The register calls grow with
 * the number of batches ARES releases (about one a day per source), never with the number of
 * watches. All nine sources with batches are followed by default: any of them can be the
 * primary source of a subject's record.
 */
export class CzNotificationFeed implements ChangeFeed {
  readonly url: string;
  private readonly api: AxiosInstance;
  // Deferred: the dataset import loads the register table, and with it this file, without NestJS.
  private readonly logger = new DeferredLogger(CzNotificationFeed.name);

  constructor(
    { settings, http }: Pick<ChangeSourceDeps, 'settings' | 'http'>,
    private readonly sources: readonly NotificationSource[] = NOTIFICATION_SOURCES,
  ) {
    this.api = http.forRegister('CZ', 'API');
    this.url = `${settings.urls.API}${NOTIFICATION_PATH}`;
  }

  start(now: Date): string {
    return encodeCursor(startCursor(now));
  }

  async read(raw: string): Promise<FeedPage> {
    let cursor = decodeCursor(raw);
    if (!nextBatch(cursor)) {
      for (const source of this.sources) {
        const res = await this.send('post', `${NOTIFICATION_PATH}/vyhledat`, { datovyZdroj: source });
        // NENALEZENO to a list is an empty list, as it is to a search.
        const body = isNotFound(res) ? { notifikacniDavky: [] } : this.answer(res, `the ${source} batch list`);
        cursor = withListedBatches(cursor, source, body, (m) => this.logger.warn(m));
      }
    }
    const next = nextBatch(cursor);
    if (!next) return { entries: [], cursor: encodeCursor(cursor), more: false };
    const res = await this.send('get', `${NOTIFICATION_PATH}/datovy-zdroj/${next.source}/cislo-davky/${next.number}`);
    if (isNotFound(res)) {
      // Listed, then not found: waiting would stop the feed for good, so the batch is passed over.
      this.logger.warn(`ARES answered 404 for notification batch ${next.source}/${next.number}; passed over`);
      const after = skipBatch(cursor, next.source, next.number);
      return { entries: [], cursor: encodeCursor(after), more: nextBatch(after) !== null };
    }
    return pageFromBatch(encodeCursor(cursor), this.answer(res, `batch ${next.source}/${next.number}`));
  }

  private async send(method: 'get' | 'post', path: string, body?: object): Promise<AxiosResponse> {
    try {
      return await this.api.request({
        method,
        url: path,
        data: body,
        // A list request changes nothing: it may be retried like a GET.
        headers: body ? { 'Content-Type': 'application/json', 'X-Idempotent': 'true' } : undefined,
        validateStatus: (s) => (s >= 200 && s < 300) || s === 400 || s === 404,
      });
    } catch (err) {
      throw UpstreamError.from(err);
    }
  }

  private answer(res: AxiosResponse, what: string): unknown {
    if (res.status >= 200 && res.status < 300) return jsonBody(res, 'ARES');
    const error = parseAresError(res.data);
    throw new UpstreamError(
      'http_4xx',
      `ARES answered HTTP ${res.status} to ${what}${error ? `: ${error.message}` : ''}`,
      res.status,
    );
  }
}

function isNotFound(res: AxiosResponse): boolean {
  return res.status === 404 && parseAresError(res.data)?.kod === 'NENALEZENO';
}
