import { loadConfig } from '../../app/config';
import { HttpClientFactory } from '../client/http-client.factory';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import { NOTIFICATION_SOURCES } from './ares-code-lists';
import {
  CzNotificationFeed,
  decodeCursor,
  encodeCursor,
  nextBatch,
  pageFromBatch,
  skipBatch,
  startCursor,
  withListedBatches,
} from './cz-notification-feed';

// Requests keep the register table's politeness (about four a second): the spec waits for it.
jest.setTimeout(30_000);

const F = 'registers/cz';
const LIST = `${F}/ares-ekonomicke-subjekty-notifikace-vyhledat-vr-trimmed-2-batches.json`;
const BATCH_671 = `${F}/ares-ekonomicke-subjekty-notifikace-davka-vr-671-derived.json`;
const BATCH_680 = `${F}/ares-ekonomicke-subjekty-notifikace-davka-vr-680-derived.json`;
const NOT_FOUND = `${F}/ares-error-404-nenalezeno.json`;
const load = (path: string): any => JSON.parse(fixture(path));
const cursorAt = (since: string) => startCursor(new Date(`${since}T08:00:00.000Z`));

describe('the CZ feed cursor', () => {
  it('starts on the day detection starts, with no position in any source', () => {
    const raw = encodeCursor(startCursor(new Date('2026-07-20T23:59:59.000Z')));
    expect(JSON.parse(raw)).toEqual({ v: 1, since: '2026-07-20', after: {}, pending: {} });
  });

  it('reads back what it wrote, in the sources’ order', () => {
    const cursor = {
      v: 1 as const,
      since: '2026-07-20',
      after: { rzp: 12, vr: 671 },
      pending: { rzp: [13], vr: [680] },
    };
    const raw = encodeCursor(cursor);
    expect(raw).toBe('{"v":1,"since":"2026-07-20","after":{"vr":671,"rzp":12},"pending":{"vr":[680],"rzp":[13]}}');
    expect(decodeCursor(raw)).toEqual(cursor);
    expect(nextBatch(cursor)).toEqual({ source: 'vr', number: 680 });
  });

  it.each([['not json'], ['{}'], ['{"v":2,"since":"2026-07-20","after":{},"pending":{}}'], ['{"v":1,"since":"x"}']])(
    'refuses a stored cursor it cannot read: %p',
    (raw) => {
      expect(() => decodeCursor(raw)).toThrow('stored CZ feed cursor is not readable');
    },
  );
});

describe('withListedBatches (POST /ekonomicke-subjekty-notifikace/vyhledat)', () => {
  const list = load(LIST);

  it('anchors a new source after the last batch released before detection started', () => {
    expect(withListedBatches(cursorAt('2026-07-20'), 'vr', list)).toEqual({
      v: 1,
      since: '2026-07-20',
      after: { vr: 671 },
      pending: { vr: [680] },
    });
    expect(withListedBatches(cursorAt('2026-07-30'), 'vr', list)).toMatchObject({ after: { vr: 680 }, pending: {} });
  });

  it('reads every listed batch when all were released since (a batch of the first day included)', () => {
    expect(withListedBatches(cursorAt('2026-07-01'), 'vr', list)).toMatchObject({
      after: { vr: 670 },
      pending: { vr: [671, 680] },
    });
    expect(withListedBatches(cursorAt('2026-07-15'), 'vr', list)).toMatchObject({ pending: { vr: [671, 680] } });
  });

  it('adds only the batches after the position of a known source, once', () => {
    const at671 = { ...cursorAt('2026-01-01'), after: { vr: 671 } };
    expect(withListedBatches(at671, 'vr', list)).toMatchObject({ after: { vr: 671 }, pending: { vr: [680] } });
    const listedTwice = withListedBatches(withListedBatches(at671, 'vr', list), 'vr', list);
    expect(listedTwice.pending).toEqual({ vr: [680] });
    const at680 = { ...cursorAt('2026-01-01'), after: { vr: 680 } };
    expect(withListedBatches(at680, 'vr', list).pending).toEqual({});
  });

  it('leaves a source that lists nothing without a position, and ignores batches of another source', () => {
    const cursor = cursorAt('2026-07-20');
    expect(withListedBatches(cursor, 'rzp', { notifikacniDavky: [] })).toEqual(cursor);
    expect(withListedBatches(cursor, 'rzp', list)).toEqual(cursor);
  });

  it('throws invalid_response on a list of the wrong shape', () => {
    for (const body of [null, [], { notifikacniDavky: 'x' }]) {
      expect(() => withListedBatches(cursorAt('2026-07-20'), 'vr', body)).toThrow(
        expect.objectContaining({ errorClass: 'invalid_response' }),
      );
    }
  });

  it('leaves out a listed item without a batch number (it cannot be asked for) and reads the others', () => {
    const [b671, b680] = list.notifikacniDavky;
    const { cisloDavky: _number, ...unnumbered } = b680;
    const warn = jest.fn();
    for (const items of [
      [b671, unnumbered, b680],
      [unnumbered, b671, null, { ...b680, cisloDavky: '680' }, b680],
    ]) {
      expect(withListedBatches(cursorAt('2026-07-01'), 'vr', { notifikacniDavky: items }, warn)).toEqual(
        withListedBatches(cursorAt('2026-07-01'), 'vr', list),
      );
    }
    expect(warn).toHaveBeenLastCalledWith(expect.stringContaining('list had 3 item(s) without a cisloDavky'));
    expect(withListedBatches(cursorAt('2026-07-20'), 'vr', { notifikacniDavky: [unnumbered] })).toEqual(
      cursorAt('2026-07-20'),
    );
  });
});

describe('pageFromBatch (GET …/datovy-zdroj/{source}/cislo-davky/{n})', () => {
  const both = encodeCursor(withListedBatches(cursorAt('2026-07-01'), 'vr', load(LIST)));

  it('names each changed IČO once, leaves out subjects without one, and says more batches wait', () => {
    const first = pageFromBatch(both, load(BATCH_671));
    expect(first).toEqual({
      entries: [{ registrationNumber: '25063677' }, { registrationNumber: '27074358' }],
      cursor: '{"v":1,"since":"2026-07-01","after":{"vr":671},"pending":{"vr":[680]}}',
      more: true,
    });
    const second = pageFromBatch(first.cursor, load(BATCH_680));
    expect(second).toEqual({
      // 25834151 is named twice (folded); DEL 25063677 is re-read like any change; ARES_00369838 has no IČO.
      entries: [
        { registrationNumber: '25834151' },
        { registrationNumber: '27074358' },
        { registrationNumber: '25063677' },
      ],
      cursor: '{"v":1,"since":"2026-07-01","after":{"vr":680},"pending":{}}',
      more: false,
    });
  });

  it('refuses a batch that is not the one due', () => {
    expect(() => pageFromBatch(both, load(BATCH_680))).toThrow(
      expect.objectContaining({ errorClass: 'invalid_response' }),
    );
    const rzp = { ...load(BATCH_671), datovyZdroj: 'rzp' };
    expect(() => pageFromBatch(both, rzp)).toThrow('ARES answered batch rzp/671 where vr/671 was next');
    expect(() => pageFromBatch(encodeCursor(cursorAt('2026-07-01')), load(BATCH_671))).toThrow(UpstreamError);
  });

  it('throws invalid_response on a batch of the wrong shape, and skips items of the wrong shape', () => {
    const { seznamNotifikaci: _items, ...withoutItems } = load(BATCH_671);
    for (const body of [null, load(LIST), withoutItems, { ...load(BATCH_671), cisloDavky: '671' }]) {
      expect(() => pageFromBatch(both, body)).toThrow(expect.objectContaining({ errorClass: 'invalid_response' }));
    }
    const odd = { ...load(BATCH_671), seznamNotifikaci: [null, 'x', { icoId: 25063677 }, { icoId: ' 27074358 ' }, {}] };
    expect(pageFromBatch(both, odd).entries).toEqual([{ registrationNumber: '27074358' }]);
  });

  it('passes over a batch without touching the other sources', () => {
    const cursor = { ...decodeCursor(both), after: { vr: 670, rzp: 3 }, pending: { vr: [671, 680], rzp: [4] } };
    expect(skipBatch(cursor, 'vr', 671)).toMatchObject({
      after: { vr: 671, rzp: 3 },
      pending: { vr: [680], rzp: [4] },
    });
    expect(nextBatch(skipBatch(skipBatch(cursor, 'vr', 671), 'vr', 680))).toEqual({ source: 'rzp', number: 4 });
  });
});

describe('CzNotificationFeed against a fake ARES', () => {
  const fake = new FakeRegister();
  let w: ReturnType<typeof wiring>;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    w = wiring(fake.url);
    fake.post('/ekonomicke-subjekty-notifikace/vyhledat', (req) =>
      JSON.parse(req.body).datovyZdroj === 'vr' ? { fixture: LIST } : { status: 404, fixture: NOT_FOUND },
    );
    fake.get('/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/671', { fixture: BATCH_671 });
    fake.get('/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/680', { fixture: BATCH_680 });
  });
  afterEach(() => w.http.onApplicationShutdown());

  it('lists the batches of every source, then reads them one page each, growing with batches and not with watches', async () => {
    const feed = new CzNotificationFeed(w.deps);
    expect(feed.url).toBe(`${fake.url}/ekonomicke-subjekty-notifikace`);
    const first = await feed.read(feed.start(new Date('2026-07-01T06:00:00.000Z')));
    expect(fake.requests.map((r) => `${r.method} ${r.path} ${r.body}`)).toEqual([
      ...NOTIFICATION_SOURCES.map((s) => `POST /ekonomicke-subjekty-notifikace/vyhledat {"datovyZdroj":"${s}"}`),
      'GET /ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/671 ',
    ]);
    expect(first.entries.map((e) => e.registrationNumber)).toEqual(['25063677', '27074358']);
    expect(first.more).toBe(true);
    fake.requests.length = 0;
    const second = await feed.read(first.cursor);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/680',
    ]);
    expect(second).toMatchObject({ more: false });
    expect(second.entries).toHaveLength(3);
    fake.requests.length = 0;
    // Caught up: the next poll asks for the lists again and finds nothing new.
    await expect(feed.read(second.cursor)).resolves.toEqual({ entries: [], cursor: second.cursor, more: false });
    expect(fake.requests).toHaveLength(NOTIFICATION_SOURCES.length);
  });

  it('goes on after a restart where the stored cursor stopped', async () => {
    const first = await new CzNotificationFeed(w.deps).read(encodeCursor(cursorAt('2026-07-01')));
    fake.requests.length = 0;
    const restarted = new CzNotificationFeed(wiring(fake.url).deps);
    const second = await restarted.read(first.cursor);
    expect(fake.requests.map((r) => r.path)).toEqual([
      '/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/680',
    ]);
    expect(decodeCursor(second.cursor).after).toEqual({ vr: 680 });
  });

  it('passes over a listed batch ARES no longer finds', async () => {
    fake.get('/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/671', { status: 404, fixture: NOT_FOUND });
    const feed = new CzNotificationFeed(w.deps, ['vr']);
    const page = await feed.read(encodeCursor(cursorAt('2026-07-01')));
    expect(page).toEqual({
      entries: [],
      cursor: '{"v":1,"since":"2026-07-01","after":{"vr":671},"pending":{"vr":[680]}}',
      more: true,
    });
  });

  it('reads on past a list item without a batch number instead of stopping every source', async () => {
    const listed = load(LIST);
    const { cisloDavky: _number, ...unnumbered } = listed.notifikacniDavky[1];
    const body = JSON.stringify({ notifikacniDavky: [unnumbered, ...listed.notifikacniDavky] });
    fake.post('/ekonomicke-subjekty-notifikace/vyhledat', {
      body,
      headers: { 'Content-Type': 'application/json' },
    });
    const page = await new CzNotificationFeed(w.deps).read(encodeCursor(cursorAt('2026-07-01')));
    expect(page.entries.map((e) => e.registrationNumber)).toEqual(['25063677', '27074358']);
    expect(decodeCursor(page.cursor).pending).toEqual({ vr: [680] });
  });

  it('checks its requests against the ARES OpenAPI document', async () => {
    const openapi = load(`${F}/ares-openapi-rest-verejne-1.3.0.json`);
    await new CzNotificationFeed(w.deps, ['vr']).read(encodeCursor(cursorAt('2026-07-01')));
    expect(openapi.paths['/ekonomicke-subjekty-notifikace/vyhledat']).toHaveProperty('post');
    expect(
      openapi.paths['/ekonomicke-subjekty-notifikace/datovy-zdroj/{datovyZdroj}/cislo-davky/{cisloDavky}'],
    ).toHaveProperty('get');
    const filter = openapi.components.schemas.EkonomickeSubjektyNotifikaceFiltr;
    for (const key of Object.keys(JSON.parse(fake.requests[0].body))) expect(filter.properties).toHaveProperty(key);
    for (const source of NOTIFICATION_SOURCES)
      expect(filter.properties.datovyZdroj.description).toContain(`${source} - `);
    expect(fake.requests[0].headers['content-type']).toContain('application/json');
    expect(fake.requests[0].headers['user-agent']).toBeTruthy();
  });

  describe('register failures', () => {
    it('HTTP 500 on a list (after one safe retry) → http_5xx', async () => {
      fake.post('/ekonomicke-subjekty-notifikace/vyhledat', {
        status: 500,
        fixture: `${F}/ares-error-500-obecna-chyba-bad-vyhledat-body.json`,
      });
      const feed = new CzNotificationFeed(w.deps, ['vr']);
      await expect(feed.read(feed.start(new Date()))).rejects.toMatchObject({
        errorClass: 'http_5xx',
        httpStatus: 500,
      });
      expect(fake.requests).toHaveLength(2);
    });

    it('HTTP 429 → rate_limited', async () => {
      fake.post('/ekonomicke-subjekty-notifikace/vyhledat', { status: 429, body: '', headers: { 'Retry-After': '0' } });
      const feed = new CzNotificationFeed(w.deps, ['vr']);
      await expect(feed.read(feed.start(new Date()))).rejects.toMatchObject({ errorClass: 'rate_limited' });
    });

    it('400 with an ARES error body → http_4xx with its message', async () => {
      fake.post('/ekonomicke-subjekty-notifikace/vyhledat', {
        status: 400,
        fixture: `${F}/ares-error-400-chyba-vstupu-ico-7-digits.json`,
      });
      const feed = new CzNotificationFeed(w.deps, ['vr']);
      await expect(feed.read(feed.start(new Date()))).rejects.toMatchObject({
        errorClass: 'http_4xx',
        message: expect.stringContaining('CHYBA_VSTUPU'),
      });
    });

    it('a 404 that is not NENALEZENO (a moved endpoint) is a failure, not an empty list', async () => {
      fake.post('/ekonomicke-subjekty-notifikace/vyhledat', {
        status: 404,
        body: '{"status":404,"error":"Not Found"}',
      });
      const feed = new CzNotificationFeed(w.deps, ['vr']);
      await expect(feed.read(feed.start(new Date()))).rejects.toMatchObject({
        errorClass: 'http_4xx',
        httpStatus: 404,
      });
    });

    it('an HTML page, or truncated JSON, where a batch was expected → invalid_response', async () => {
      const feed = new CzNotificationFeed(w.deps, ['vr']);
      const due = encodeCursor(withListedBatches(cursorAt('2026-07-01'), 'vr', load(LIST)));
      fake.get('/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/671', {
        body: '<!DOCTYPE html><html><body>Údržba</body></html>',
        headers: { 'Content-Type': 'text/html' },
      });
      await expect(feed.read(due)).rejects.toMatchObject({ errorClass: 'invalid_response' });
      fake.get('/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/671', {
        body: fixture(BATCH_671).slice(0, 60),
        headers: { 'Content-Type': 'application/json' },
      });
      await expect(feed.read(due)).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });
  });
});

/** The configuration and HTTP client factory of the application, with ARES at `apiUrl`. */
function wiring(apiUrl: string) {
  const { app: config, registers } = loadConfig({
    REGISTER_CZ_API_URL: apiUrl,
    REGISTER_TIMEOUT_MS: '500',
    PROBE_TIMEOUT_MS: '500',
  });
  const http = new HttpClientFactory(config, registers);
  return { config, http, deps: { settings: registers.of('CZ'), http } };
}
