import type { AxiosInstance, AxiosResponse } from 'axios';
import type { Clock } from '../../platform/clock';
import type { ChangeFeed, ChangeSourceDeps, FeedEntry, FeedPage } from '../change-detection';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { parseKrsProblem } from './krs-parsers';
import { PL } from './pl.definition';
import { padKrs } from './pl.identifier';

/**
 * An hour is read this long after it ends: an entry made at 10:59:59 may reach the bulletin a
 * little later. What still slips past is caught by the daily bulletin of the day.
 */
export const PL_FEED_SETTLE_MS = 10 * 60_000;

/** The bulletin's days and hours are Polish civil time (the courts' clock): UNVERIFIED, no source states it. */
const ZONE = 'Europe/Warsaw';

/** The next hour of a Warsaw day the feed reads: `YYYY-MM-DDTHH` (hour 00–23). */
export interface BiuletynCursor {
  day: string;
  hour: number;
}

/**
 * One read: an hour of a day (`BiuletynGodzinowy/{day}?godzinaOd=H&godzinaDo=H+1`, the form of
 * the recorded request), or a whole finished day (`Biuletyn/{day}`).
 */
export type BiuletynRead = { kind: 'hour'; day: string; hour: number } | { kind: 'day'; day: string };

export function formatCursor(c: BiuletynCursor): string {
  return `${c.day}T${String(c.hour).padStart(2, '0')}`;
}

export function parseCursor(raw: string): BiuletynCursor {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})$/.exec(raw);
  const hour = m ? Number(m[2]) : -1;
  if (!m || hour > 23 || nextDay(m[1]) === null)
    throw new Error(`stored PL feed cursor is not readable: ${raw.slice(0, 80)}`);
  return { day: m[1], hour };
}

/** The Warsaw day and hour of an instant. */
export function warsawHour(at: Date): BiuletynCursor {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** Where a feed without a stored cursor starts: the hour under way, read once it has ended. */
export function startCursor(now: Date): BiuletynCursor {
  return warsawHour(now);
}

/**
 * What to read next from `cursor` at `now`, or null when nothing is complete yet. A day that
 * has ended (as seen PL_FEED_SETTLE_MS late) is read whole from the daily bulletin, which
 * covers its last hour (godzinaDo cannot name the end of hour 23) and whatever the hourly reads
 * of that day missed; an hour of the current day is read once it has ended. The hour under way
 * is never read.
 */
export function nextRead(cursor: BiuletynCursor, now: Date): BiuletynRead | null {
  const settled = warsawHour(new Date(now.getTime() - PL_FEED_SETTLE_MS));
  if (cursor.day < settled.day) return { kind: 'day', day: cursor.day };
  if (cursor.day === settled.day && cursor.hour < settled.hour)
    return { kind: 'hour', day: cursor.day, hour: cursor.hour };
  return null;
}

/** The cursor once `read` is applied: the next hour, or the first hour of the next day. */
export function afterRead(read: BiuletynRead): BiuletynCursor {
  if (read.kind === 'hour') return { day: read.day, hour: read.hour + 1 };
  return { day: nextDay(read.day)!, hour: 0 };
}

function nextDay(day: string): string | null {
  const t = Date.parse(`${day}T00:00:00Z`);
  if (Number.isNaN(t) || new Date(t).toISOString().slice(0, 10) !== day) return null;
  return new Date(t + 86_400_000).toISOString().slice(0, 10);
}

/**
 * A bulletin answer: a JSON array of changed KRS numbers, as strings without leading zeros,
 * with duplicates. Returned zero-padded as the register keys them, each once, in the
 * register's order. An element that is no KRS number is left out; an array of nothing but
 * such elements, or anything but an array, is not a bulletin.
 */
export function parseBiuletyn(body: unknown): string[] {
  if (!Array.isArray(body)) throw UpstreamError.invalidResponse('KRS sent a bulletin that is not a list of numbers');
  const seen = new Set<string>();
  for (const item of body) {
    const digits = typeof item === 'number' && Number.isInteger(item) ? String(item) : item;
    if (typeof digits !== 'string' || !/^\d{1,10}$/.test(digits.trim()) || /^0+$/.test(digits.trim())) continue;
    seen.add(padKrs(digits.trim()));
  }
  if (body.length > 0 && seen.size === 0)
    throw UpstreamError.invalidResponse('KRS sent a bulletin without a single KRS number');
  return [...seen];
}

/** The page a bulletin answer makes: its numbers, the cursor after it, and whether the next read is due now. */
export function biuletynPage(body: unknown, read: BiuletynRead, now: Date): FeedPage {
  const entries: FeedEntry[] = parseBiuletyn(body).map((registrationNumber) => ({ registrationNumber }));
  const cursor = afterRead(read);
  return { entries, cursor: formatCursor(cursor), more: nextRead(cursor, now) !== null };
}

/**
 * The KRS change bulletins, polled from a stored `YYYY-MM-DDTHH` cursor: each finished hour of
 * the current day from `BiuletynGodzinowy`, each finished day from `Biuletyn`. Entries carry no
 * record: the watched entities named are re-read (one `OdpisAktualny` each). A watched entity
 * changed on a day may be named twice (by its hour and by its day); the second re-read finds
 * nothing new, so no event is repeated.
 */
export class PlBiuletynFeed implements ChangeFeed {
  readonly url: string;

  constructor(
    private readonly api: AxiosInstance,
    baseUrl: string,
    private readonly clock: Clock,
  ) {
    this.url = `${baseUrl}/BiuletynGodzinowy`;
  }

  static fromDeps({ settings, http, clock }: ChangeSourceDeps): PlBiuletynFeed {
    return new PlBiuletynFeed(http.forRegister(PL, 'API'), settings.urls.API, clock);
  }

  start(now: Date): string {
    return formatCursor(startCursor(now));
  }

  async read(raw: string): Promise<FeedPage> {
    const now = this.clock.now();
    const read = nextRead(parseCursor(raw), now);
    if (!read) return { entries: [], cursor: raw, more: false };
    const res = await this.get(read);
    return biuletynPage(bulletinBody(res), read, now);
  }

  private async get(read: BiuletynRead): Promise<AxiosResponse> {
    const [path, params] =
      read.kind === 'hour'
        ? [`/BiuletynGodzinowy/${read.day}`, { godzinaOd: read.hour, godzinaDo: read.hour + 1 }]
        : [`/Biuletyn/${read.day}`, undefined];
    try {
      return await this.api.get(path, {
        params,
        validateStatus: (s) => s === 200 || s === 204 || s === 404,
      });
    } catch (err) {
      throw UpstreamError.from(err);
    }
  }
}

/**
 * 204, or the register's own 404 answer, is an empty bulletin (as the known client reads
 * them); a 404 without the register's problem body is a wrong address, not an empty hour.
 */
function bulletinBody(res: AxiosResponse): unknown {
  if (res.status === 204) return [];
  if (res.status === 404) {
    if (parseKrsProblem(res.data)?.status === 404) return [];
    throw new UpstreamError('http_4xx', 'KRS answered HTTP 404 to a bulletin without its not-found body', 404);
  }
  return jsonBody(res, 'KRS');
}
