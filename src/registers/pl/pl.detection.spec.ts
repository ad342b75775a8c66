import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DetectionHarness, startDetectionHarness } from '../../../test/support/detection-harness';
import type { RecordedRequest } from '../../../test/support/fake-register';
import { PL_BULLETIN_DAY, PL_GYM, plCurrent } from '../../../test/support/fake-pl-register';

jest.setTimeout(90_000);

const RENAMED = 'registers/pl/krs-odpisaktualny-P-0001268296-derived-renamed-moved.json';
/** A Warsaw wall-clock time of the recorded bulletin's day (CEST, UTC+2) as an instant. */
const warsaw = (local: string) => new Date(`${local}+02:00`).toISOString();

const changeOf = (e: { data: Record<string, unknown> }) => {
  const c = e.data.change as { field: string; previous: string; current: string };
  return [c.field, c.previous, c.current];
};

/**
 * PL change detection through the real feed poll, checks and snapshots (the detection harness:
 * PGlite on disk, so that a second process can take over), against the fake KRS: the hourly
 * bulletins from a stored day-and-hour cursor, a restart mid-cursor after a failed hour, and the
 * day's bulletin naming a watched entity twice → one re-read of the (derived) changed extract
 * → one event per change and account.
 */
describe('PL: the KRS bulletins from a stored cursor', () => {
  let dir: string;
  let h: DetectionHarness;

  const bulletins = (harness: DetectionHarness) =>
    harness.fakes.PL_API.requests
      .filter((r) => r.path.startsWith('/Biuletyn'))
      .map((r: RecordedRequest) =>
        r.path.startsWith('/BiuletynGodzinowy/')
          ? `${r.path.slice('/BiuletynGodzinowy/'.length)} ${r.query.get('godzinaOd')}-${r.query.get('godzinaDo')}`
          : r.path.slice('/Biuletyn/'.length),
      );
  const gymReads = (harness: DetectionHarness) => harness.fakes.PL_API.requests.filter(plCurrent(PL_GYM, 'P')).length;
  const storedCursor = async () =>
    (await h.dataSource.query(`SELECT cursor FROM feed_cursor WHERE feed = 'PL:changes'`))[0]?.cursor;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rl-detect-pl-'));
    h = await startDetectionHarness({ DATA_DIR: dir }, { now: warsaw(`${PL_BULLETIN_DAY}T10:05:00`) });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads each finished hour once across a restart, folds a number named twice into one re-read, and emits each change once', async () => {
    await h.setReadable('PL', true);
    await h.watch('acc_a', 'PL', PL_GYM);
    await h.watch('acc_b', 'PL', PL_GYM);
    await h.runDueChecks();
    expect(gymReads(h)).toBe(1);

    // The hour under way is not read: the feed starts on it and stores where it is.
    expect(await h.feeds.poll('PL')).toMatchObject({ entries: 0, requested: 0, caughtUp: true });
    expect(bulletins(h)).toEqual([]);
    expect(await storedCursor()).toBe(`${PL_BULLETIN_DAY}T10`);

    // Hour 10 ended (and settled): the recorded hourly bulletin, 372 distinct numbers, none watched.
    h.clock.set(warsaw(`${PL_BULLETIN_DAY}T11:15:00`));
    expect(await h.feeds.poll('PL')).toMatchObject({ pages: 1, entries: 372, requested: 0, caughtUp: true });
    expect(await storedCursor()).toBe(`${PL_BULLETIN_DAY}T11`);

    // At 14:15 hours 11–13 are due; hour 12 fails: hour 11 is kept, the cursor stays on 12.
    h.fakes.PL_API.get((r) => r.path === `/BiuletynGodzinowy/${PL_BULLETIN_DAY}` && r.query.get('godzinaOd') === '12', {
      status: 503,
      body: 'Service Unavailable',
    });
    h.clock.set(warsaw(`${PL_BULLETIN_DAY}T14:15:00`));
    await h.feeds.poll('PL');
    expect(await storedCursor()).toBe(`${PL_BULLETIN_DAY}T12`);
    const firstProcess = bulletins(h);

    // A restart: a new process on the same database resumes at hour 12 — nothing skipped, nothing read twice.
    await h.close();
    h = await startDetectionHarness({ DATA_DIR: dir }, { now: warsaw(`${PL_BULLETIN_DAY}T14:15:00`) });
    await h.setReadable('PL', true);
    expect(await h.feeds.poll('PL')).toMatchObject({ pages: 2, entries: 0, caughtUp: true });
    expect([...firstProcess, ...bulletins(h)]).toEqual([
      `${PL_BULLETIN_DAY} 10-11`,
      `${PL_BULLETIN_DAY} 11-12`,
      `${PL_BULLETIN_DAY} 12-13`, // 503, retried once by the client
      `${PL_BULLETIN_DAY} 12-13`,
      `${PL_BULLETIN_DAY} 12-13`, // after the restart
      `${PL_BULLETIN_DAY} 13-14`,
    ]);
    expect(await storedCursor()).toBe(`${PL_BULLETIN_DAY}T14`);

    // The entity changes at the register; after midnight the day's bulletin names it twice.
    h.fakes.PL_API.get(plCurrent(PL_GYM, 'P'), { fixture: RENAMED });
    h.clock.set(warsaw('2026-09-23T00:20:00'));
    const day = await h.feeds.poll('PL');
    expect(day).toMatchObject({ pages: 1, entries: 373, requested: 1, caughtUp: true });
    expect(bulletins(h).at(-1)).toBe(PL_BULLETIN_DAY);
    expect(await storedCursor()).toBe('2026-09-23T00');
    await h.runDueChecks();
    expect(gymReads(h)).toBe(1);
    const events = await h.takeEvents();
    expect(events.map((e) => [e.accountId, ...changeOf(e)])).toEqual([
      [
        'acc_a',
        'name',
        'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
        'GYM CENTER 9.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      ],
      [
        'acc_b',
        'name',
        'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
        'GYM CENTER 9.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      ],
      ['acc_a', 'address', 'UL. OSTATNIA 1D, 31-444 KRAKÓW', 'UL. PIERWSZA 2/5, 31-445 KRAKÓW'],
      ['acc_b', 'address', 'UL. OSTATNIA 1D, 31-444 KRAKÓW', 'UL. PIERWSZA 2/5, 31-445 KRAKÓW'],
    ]);
    expect(events[0].data).toMatchObject({
      country: 'PL',
      registration_number: PL_GYM,
      provenance: {
        source_mode: 'live',
        source_url: `${h.registers.of('PL').urls.API}/OdpisAktualny/${PL_GYM}?rejestr=P&format=json`,
      },
    });

    // Nothing more to read until the next hour has ended; nothing is said twice.
    expect(await h.feeds.poll('PL')).toMatchObject({ entries: 0, caughtUp: true });
    await h.runDueChecks();
    expect(await h.takeEvents()).toEqual([]);
    expect(gymReads(h)).toBe(1);
  });
});
