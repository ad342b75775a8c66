import { readFileSync } from 'node:fs';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import axios from 'axios';
import fc from 'fast-check';
import { ManualClock } from '../../platform/clock';
import { UpstreamError } from '../upstream-error';
import {
  afterRead,
  BiuletynCursor,
  BiuletynRead,
  biuletynPage,
  formatCursor,
  nextRead,
  parseBiuletyn,
  parseCursor,
  PL_FEED_SETTLE_MS,
  PlBiuletynFeed,
  startCursor,
  warsawHour,
} from './pl-biuletyn-feed';

const DIR = join(__dirname, '../../../test/fixtures/registers/pl');
const fixture = (file: string) => readFileSync(join(DIR, file), 'utf8');
const HOURLY = fixture('krs-biuletyngodzinowy-2026-09-22-godzinaod-10-godzinado-11.json');
const DAILY = fixture('krs-biuletyn-2026-09-22-derived-from-hourly-10-11.json');
const NOT_FOUND = fixture('krs-error-404-not-found.json');

/** Warsaw is UTC+2 in September (CEST). */
const warsaw = (local: string) => new Date(`${local}+02:00`);

describe('the bulletin answer (pure)', () => {
  it('pads the recorded hourly numbers and folds their duplicates, in the register order', () => {
    const raw: string[] = JSON.parse(HOURLY);
    const numbers = parseBiuletyn(raw);
    expect(raw).toHaveLength(511);
    expect(numbers).toHaveLength(372);
    expect(numbers.slice(0, 3)).toEqual(['0000005204', '0000005755', '0000007045']);
    expect(numbers.at(-1)).toBe('0001268215');
    expect(numbers.every((n) => /^\d{10}$/.test(n))).toBe(true);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('makes a page of the recorded hour: one entry per entity, the cursor on the next hour', () => {
    const read: BiuletynRead = { kind: 'hour', day: '2026-09-22', hour: 10 };
    const page = biuletynPage(JSON.parse(HOURLY), read, warsaw('2026-09-22T11:15:00'));
    expect(page.entries).toHaveLength(372);
    expect(page.entries[0]).toEqual({ registrationNumber: '0000005204' });
    expect(page.cursor).toBe('2026-09-22T11');
    expect(page.more).toBe(false);
    expect(biuletynPage(JSON.parse(HOURLY), read, warsaw('2026-09-22T13:15:00')).more).toBe(true);
  });

  it('skips elements that are no KRS number, reads integers, and refuses what is no bulletin', () => {
    expect(parseBiuletyn(['28860', 30897, ' 1268296 ', '0', 'abc', null, '12345678901', { krs: '1' }])).toEqual([
      '0000028860',
      '0000030897',
      '0001268296',
    ]);
    expect(parseBiuletyn([])).toEqual([]);
    for (const body of [{ krs: ['1'] }, '<html></html>', null, [{ krs: '1' }, 'x']]) {
      expect(() => parseBiuletyn(body)).toThrow(UpstreamError);
    }
  });
});

describe('the cursor (pure)', () => {
  it('starts on the hour under way, in Warsaw time', () => {
    expect(formatCursor(startCursor(warsaw('2026-09-22T10:20:00')))).toBe('2026-09-22T10');
    expect(formatCursor(startCursor(new Date('2026-12-31T23:30:00Z')))).toBe('2027-01-01T00');
  });

  it('survives a restart: it is a plain string read back to the same position', () => {
    for (const raw of ['2026-09-22T00', '2026-09-22T23', '2024-02-29T07'])
      expect(formatCursor(parseCursor(raw))).toBe(raw);
    for (const raw of ['', '2026-09-22', '2026-09-22T24', '2026-02-30T10', 'id:12', '2026-09-22T1']) {
      expect(() => parseCursor(raw)).toThrow('stored PL feed cursor is not readable');
    }
  });

  it('does not read the hour under way, nor an ended hour before it has settled', () => {
    const cursor = parseCursor('2026-09-22T10');
    expect(nextRead(cursor, warsaw('2026-09-22T10:59:00'))).toBeNull();
    expect(nextRead(cursor, new Date(warsaw('2026-09-22T11:00:00').getTime() + PL_FEED_SETTLE_MS - 1))).toBeNull();
    expect(nextRead(cursor, new Date(warsaw('2026-09-22T11:00:00').getTime() + PL_FEED_SETTLE_MS))).toEqual({
      kind: 'hour',
      day: '2026-09-22',
      hour: 10,
    });
  });

  it('reads a finished day whole from the daily bulletin, its last hour included, then goes on with the next day', () => {
    const cursor = parseCursor('2026-09-22T23');
    expect(nextRead(cursor, warsaw('2026-09-22T23:59:00'))).toBeNull();
    const read = nextRead(cursor, warsaw('2026-09-23T00:15:00'))!;
    expect(read).toEqual({ kind: 'day', day: '2026-09-22' });
    expect(formatCursor(afterRead(read))).toBe('2026-09-23T00');
    expect(formatCursor(afterRead({ kind: 'day', day: '2026-12-31' }))).toBe('2027-01-01T00');
    expect(formatCursor(afterRead({ kind: 'day', day: '2028-02-28' }))).toBe('2028-02-29T00');
  });

  it('waits through the repeated hour when clocks go back (25 October 2026) and reads the skipped one when they go forward', () => {
    // 02:15 CET, the second 02:xx of the night: hour 2 is not over yet.
    expect(warsawHour(new Date('2026-10-25T01:15:00Z'))).toEqual({ day: '2026-10-25', hour: 2 });
    expect(nextRead(parseCursor('2026-10-25T02'), new Date('2026-10-25T01:15:00Z'))).toBeNull();
    expect(nextRead(parseCursor('2026-10-25T02'), new Date('2026-10-25T02:15:00Z'))).toEqual({
      kind: 'hour',
      day: '2026-10-25',
      hour: 2,
    });
    // 29 March 2026 has no 02:xx: at 03:15 CEST hour 2 is read (and is empty), not skipped.
    expect(nextRead(parseCursor('2026-03-29T02'), new Date('2026-03-29T01:15:00Z'))).toEqual({
      kind: 'hour',
      day: '2026-03-29',
      hour: 2,
    });
  });

  it('reads every hour once, never one under way, across days, whenever it is polled (property)', () => {
    const start = new Date('2026-10-23T21:37:00Z');
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 7 * 3600_000 }), { minLength: 1, maxLength: 40 }), (gaps) => {
        let cursor: BiuletynCursor = startCursor(start);
        const first = { ...cursor };
        const hoursRead = new Set<string>();
        const daysRead = new Set<string>();
        let now = start.getTime();
        for (const gap of gaps) {
          now += gap;
          const settled = warsawHour(new Date(now - PL_FEED_SETTLE_MS));
          for (let read = nextRead(cursor, new Date(now)); read; read = nextRead(cursor, new Date(now))) {
            if (read.kind === 'hour') {
              const key = formatCursor(read);
              expect(hoursRead.has(key)).toBe(false);
              // Never the hour under way: the day is today and the hour has ended (settled).
              expect(read.day).toBe(settled.day);
              expect(read.hour).toBeLessThan(settled.hour);
              hoursRead.add(key);
            } else {
              expect(daysRead.has(read.day)).toBe(false);
              expect(read.day < settled.day).toBe(true);
              daysRead.add(read.day);
            }
            cursor = afterRead(read);
          }
          // Caught up: the cursor is on the settled hour, nothing before it is left unread.
          expect(formatCursor(cursor)).toBe(formatCursor(settled.day < first.day ? first : maxCursor(first, settled)));
        }
        // Coverage: each day from the first is read whole, or hour by hour up to the cursor.
        for (let day = first.day; day < cursor.day; day = afterRead({ kind: 'day', day }).day) {
          expect(daysRead.has(day)).toBe(true);
        }
        for (let h = cursor.day === first.day ? first.hour : 0; h < cursor.hour; h++) {
          if (!daysRead.has(cursor.day)) expect(hoursRead.has(formatCursor({ day: cursor.day, hour: h }))).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });
});

function maxCursor(a: BiuletynCursor, b: BiuletynCursor): BiuletynCursor {
  return formatCursor(a) >= formatCursor(b) ? a : b;
}

describe('PlBiuletynFeed against a register on loopback', () => {
  let server: Server;
  let base = '';
  const requests: string[] = [];
  let respond: (req: IncomingMessage, res: ServerResponse) => void;

  const route = (req: IncomingMessage, res: ServerResponse) => {
    requests.push(req.url!);
    if (req.url === '/api/krs/BiuletynGodzinowy/2026-09-22?godzinaOd=10&godzinaDo=11') return json(res, 200, HOURLY);
    if (req.url === '/api/krs/Biuletyn/2026-09-22') return json(res, 200, DAILY);
    if (req.url?.startsWith('/api/krs/BiuletynGodzinowy/') || req.url?.startsWith('/api/krs/Biuletyn/'))
      return json(res, 200, '[]');
    return json(res, 404, NOT_FOUND);
  };

  beforeAll(async () => {
    server = createServer((req, res) => respond(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/krs`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    requests.length = 0;
    respond = route;
  });

  function feedAt(local: string): { feed: PlBiuletynFeed; clock: ManualClock } {
    const clock = new ManualClock(warsaw(local));
    return { feed: new PlBiuletynFeed(axios.create({ baseURL: base }), base, clock), clock };
  }

  it('names its address and starts on the hour under way without a request', () => {
    const { feed } = feedAt('2026-09-22T10:20:00');
    expect(feed.url).toBe(`${base}/BiuletynGodzinowy`);
    expect(feed.start(warsaw('2026-09-22T10:20:00'))).toBe('2026-09-22T10');
    expect(requests).toEqual([]);
  });

  it('reads nothing while the hour is under way, then the hour once it has ended', async () => {
    const { feed, clock } = feedAt('2026-09-22T10:40:00');
    await expect(feed.read('2026-09-22T10')).resolves.toEqual({ entries: [], cursor: '2026-09-22T10', more: false });
    expect(requests).toEqual([]);
    clock.set(warsaw('2026-09-22T11:15:00'));
    const page = await feed.read('2026-09-22T10');
    expect(requests).toEqual(['/api/krs/BiuletynGodzinowy/2026-09-22?godzinaOd=10&godzinaDo=11']);
    expect(page.entries).toHaveLength(372);
    expect(page).toMatchObject({ cursor: '2026-09-22T11', more: false });
  });

  it('goes on after a restart from the stored cursor: each poll a new feed, hour after hour, then the day', async () => {
    const poll = async (cursor: string, local: string) =>
      new PlBiuletynFeed(axios.create({ baseURL: base }), base, new ManualClock(warsaw(local))).read(cursor);
    const first = await poll('2026-09-22T21', '2026-09-22T22:30:00');
    expect(first).toEqual({ entries: [], cursor: '2026-09-22T22', more: false });
    const second = await poll(first.cursor, '2026-09-22T23:30:00');
    expect(second.cursor).toBe('2026-09-22T23');
    const third = await poll(second.cursor, '2026-09-23T00:20:00');
    expect(requests).toEqual([
      '/api/krs/BiuletynGodzinowy/2026-09-22?godzinaOd=21&godzinaDo=22',
      '/api/krs/BiuletynGodzinowy/2026-09-22?godzinaOd=22&godzinaDo=23',
      '/api/krs/Biuletyn/2026-09-22',
    ]);
    expect(third.entries).toHaveLength(373);
    expect(third.entries.map((e) => e.registrationNumber)).toContain('0001268296');
    expect(third).toMatchObject({ cursor: '2026-09-23T00', more: false });
  });

  it('catches up after days away, one request per day, then the hours of today', async () => {
    const { feed } = feedAt('2026-09-24T02:30:00');
    let cursor = '2026-09-22T05';
    for (let more = true; more;) {
      const page = await feed.read(cursor);
      cursor = page.cursor;
      more = page.more;
    }
    expect(requests).toEqual([
      '/api/krs/Biuletyn/2026-09-22',
      '/api/krs/Biuletyn/2026-09-23',
      '/api/krs/BiuletynGodzinowy/2026-09-24?godzinaOd=0&godzinaDo=1',
      '/api/krs/BiuletynGodzinowy/2026-09-24?godzinaOd=1&godzinaDo=2',
    ]);
    expect(cursor).toBe('2026-09-24T02');
  });

  it("reads 204 and the register's own 404 as an empty bulletin, and moves on", async () => {
    const { feed } = feedAt('2026-09-22T11:15:00');
    respond = (req, res) => {
      requests.push(req.url!);
      res.writeHead(204).end();
    };
    await expect(feed.read('2026-09-22T10')).resolves.toEqual({ entries: [], cursor: '2026-09-22T11', more: false });
    respond = (req, res) => json(res, 404, NOT_FOUND);
    await expect(feed.read('2026-09-22T10')).resolves.toEqual({ entries: [], cursor: '2026-09-22T11', more: false });
  });

  it.each([
    ['a 404 without the register body', 404, '<html>Not Found</html>', 'http_4xx'],
    ['429', 429, '{"title":"Too Many Requests"}', 'rate_limited'],
    ['503', 503, '<html>Przerwa techniczna</html>', 'http_5xx'],
    ['an HTML page with 200', 200, '<html><body>Przerwa techniczna</body></html>', 'invalid_response'],
    ['a truncated bulletin', 200, HOURLY.slice(0, 200), 'invalid_response'],
    ['an object', 200, '{"odpis":{}}', 'invalid_response'],
  ])(
    'fails with UpstreamError on %s, keeping its cursor for the next poll',
    async (_what, status, body, errorClass) => {
      const { feed } = feedAt('2026-09-22T11:15:00');
      respond = (req, res) => json(res, status, body);
      const err = await feed.read('2026-09-22T10').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect((err as UpstreamError).errorClass).toBe(errorClass);
    },
  );
});

function json(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'Content-Type': body.startsWith('<') ? 'text/html' : 'application/json' }).end(body);
}
