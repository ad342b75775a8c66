import type { ServerResponse } from 'node:http';
import { Clock } from '../../platform/clock';
import { DetectionHarness, startDetectionHarness, until } from '../../../test/support/detection-harness';
import { fixture } from '../../../test/support/fake-register';
import { RegisterStatusService } from '../../status/register-status.service';
import { ChangeStreamRunner } from './feeds/change-stream.runner';
import { ChangeSources } from './feeds/change-sources.service';
import { FeedCursorStore } from './feeds/feed-cursor-store';
import { SnapshotStore } from './snapshots/snapshot-store';
import { FeedEntriesService } from './feeds/feed-entries.service';
import { DetectionEventWriter } from './events/detection-event-writer';

jest.setTimeout(60_000);

const JSON_HEADERS = { 'Content-Type': 'application/json' };
/** A recorded stream event as the register sends it: one compact line. */
const line = (file: string) => JSON.stringify(JSON.parse(fixture(`registers/gb/${file}`))) + '\n';
const cursorOf = async (h: DetectionHarness, feed: string) =>
  (await h.dataSource.query(`SELECT cursor FROM feed_cursor WHERE feed = $1`, [feed]))[0]?.cursor as string | undefined;

/** The harness's stream runner, reading and writing its positions through `cursors`. */
const streamRunner = (h: DetectionHarness, cursors = h.ctx.get(FeedCursorStore)) =>
  new ChangeStreamRunner(
    h.dataSource,
    h.ctx.get(ChangeSources),
    cursors,
    h.ctx.get(SnapshotStore),
    h.ctx.get(FeedEntriesService),
    h.ctx.get(RegisterStatusService),
    h.ctx.get(DetectionEventWriter),
    h.ctx.get(Clock),
  );

/** Stops the runner, the streams it held open and the harness. */
async function closeStreams(h: DetectionHarness, runner: ChangeStreamRunner | undefined, open: ServerResponse[]) {
  await runner?.beforeApplicationShutdown();
  for (const res of open) res.destroy();
  await h.close();
}

describe('GB: the officers and filings streams', () => {
  let h: DetectionHarness;
  let runner: ChangeStreamRunner;
  const open: ServerResponse[] = [];
  const officerConnections: Array<string | null> = [];
  let officers: Array<(res: ServerResponse) => void> = [];
  let filings: (res: ServerResponse) => void = () => undefined;

  beforeAll(async () => {
    h = await startDetectionHarness({ REGISTER_GB_API_KEY: 'k', REGISTER_GB_STREAM_KEY: 'stream-key' });
    h.fakes.GB_API.get('/company/10345936', {
      fixture: 'registers/gb/ch-company-profile-10345936-derived-from-05954546.json',
    });
    h.fakes.GB_API.get('/company/10345936/officers', {
      fixture: 'registers/gb/ch-company-officers-10345936-derived-from-stream-events.json',
    });
    h.fakes.GB_API.get('/company/12317301', {
      fixture: 'registers/gb/ch-company-profile-12317301-derived-from-05954546.json',
    });
    h.fakes.GB_API.get('/company/12317301/officers', {
      body: '{"items":[],"total_results":0,"kind":"officer-list"}',
      headers: JSON_HEADERS,
    });
    const stream = (path: string, serve: (timepoint: string | null, res: ServerResponse) => void) =>
      h.fakes.GB_STREAM.get(path, (req) => ({
        raw: (res) => {
          open.push(res);
          serve(req.query.get('timepoint'), res);
        },
      }));
    // The companies stream only beats.
    stream('/companies', (_tp, res) => {
      res.writeHead(200, JSON_HEADERS);
      res.write('\n');
    });
    stream('/officers', (tp, res) => {
      officerConnections.push(tp);
      const next = officers.shift();
      if (next) next(res);
      else {
        res.writeHead(200, JSON_HEADERS);
        res.write('\n');
      }
    });
    stream('/filings', (_tp, res) => {
      res.writeHead(200, JSON_HEADERS);
      res.write('\n');
      filings(res);
    });
  });
  afterAll(() => closeStreams(h, runner, open));

  it('one event per real officer change and per new filing: none for re-sends, unwatched companies, other kinds or broken lines; a 416 re-reads', async () => {
    await h.setReadable('GB', true);
    await h.watch('acc_a', 'GB', '10345936');
    await h.watch('acc_b', 'GB', '10345936');
    await h.watch('acc_a', 'GB', '12317301');
    await h.runDueChecks();
    const baseline = await h.dataSource.query(
      `SELECT officers FROM company_snapshot WHERE entity_id = 'ent_gb_10345936'`,
    );
    expect(baseline[0].officers).toEqual([
      {
        name: 'NORRIS, Anthony Carmelo',
        role: 'Director',
        kind: 'person',
        appointedOn: '2016-08-25',
        resignedOn: null,
      },
    ]);

    const appointment = line('ch-streaming-officers-event-10345936-appointment.json');
    const resignation = line('ch-streaming-officers-event-10345936-resignation.json');
    officers = [
      // A heartbeat, the appointment in three chunks, a line cut short, then half a line and the connection drops.
      (res) => {
        res.writeHead(200, JSON_HEADERS);
        res.write('\n');
        res.write(appointment.slice(0, 40));
        setTimeout(() => res.write(appointment.slice(40, 300)), 10);
        setTimeout(() => res.write(appointment.slice(300) + '\n'), 20);
        setTimeout(() => res.write('{"resource_kind":"company-officers","resource_uri":"/company/1034\n'), 30);
        setTimeout(() => res.write(resignation.slice(0, 120)), 40);
        setTimeout(() => res.destroy(), 60);
      },
      // From the stored timepoint: the appointment again (asked for again, dropped), an unwatched
      // company, the same appointment re-sent at a later timepoint, an event of another kind; then a drop.
      (res) => {
        res.writeHead(200, JSON_HEADERS);
        res.write(appointment);
        res.write(line('ch-streaming-officers-event-01448826-no-appointed-on.json'));
        res.write(line('ch-streaming-officers-event-10345936-appointment-derived-resent.json'));
        res.write(line('ch-streaming-psc-event-14101021-individual.json'));
        setTimeout(() => res.destroy(), 30);
      },
      // The stored timepoint is too old: the resignation was missed.
      (res) => {
        res.writeHead(416, JSON_HEADERS);
        res.end('{"error":"Requested Range Not Satisfiable"}');
      },
    ];
    filings = (res) => {
      res.write(line('ch-streaming-filings-event-12317301-cs01-timepoint-49094846.json'));
      res.write('\n');
      res.write(line('ch-streaming-filings-event-12317301-cs01-timepoint-49095333-with-annotation.json'));
      res.write(line('ch-streaming-filings-event-10620794.json'));
    };

    runner = streamRunner(h);
    runner.backoff = { initialMs: 20, maxMs: 100 };
    runner.idleRetryMs = 20;
    runner.onApplicationBootstrap();

    await until(async () => officerConnections.length >= 4, 10_000, 'the reconnection after the 416');
    // Resumed from the last whole line each time; after the 416, from now.
    expect(officerConnections).toEqual([null, '2240349', '4989097', null]);
    await until(async () => (await cursorOf(h, 'GB:filings')) === '140062688', 10_000, 'the filings read');

    const streamed = await h.takeEvents();
    const officerEvents = streamed.filter((e) => e.kind === 'company.officers_changed');
    expect(officerEvents.map((e) => [e.accountId, (e.data.change as { action: string }).action])).toEqual([
      ['acc_a', 'appointed'],
      ['acc_b', 'appointed'],
    ]);
    expect(officerEvents[0].data).toMatchObject({
      entity_id: 'ent_gb_10345936',
      registration_number: '10345936',
      change: {
        field: 'officers',
        action: 'appointed',
        previous: null,
        current: 'BAILEY, Michael William, Director, appointed 2021-08-19',
      },
      officer: {
        name: 'BAILEY, Michael William',
        role: 'Director',
        kind: 'person',
        appointed_on: '2021-08-19',
        resigned_on: null,
      },
      provenance: { source_mode: 'live', source_url: expect.stringMatching(/\/company\/10345936\/officers$/) },
    });
    const filingEvents = streamed.filter((e) => e.kind === 'company.filing_published');
    expect(filingEvents.map((e) => e.accountId)).toEqual(['acc_a']);
    expect(filingEvents[0].data).toMatchObject({
      entity_id: 'ent_gb_12317301',
      change: {
        field: 'filings',
        action: 'published',
        previous: null,
        current: '14/11/20 Statement of Capital gbp 300.00 (CS01, 2020-11-16)',
      },
      filing: {
        id: 'MzI4MzUzMjgyMGFkaXF6a2N4',
        category: 'confirmation-statement',
        type: 'CS01',
        date: '2020-11-16',
        description: '14/11/20 Statement of Capital gbp 300.00',
        description_code: 'confirmation-statement',
        url: expect.stringMatching(
          /\/company\/12317301\/filing-history\/MzI4MzUzMjgyMGFkaXF6a2N4\/document\?format=pdf&download=0$/,
        ),
      },
    });
    expect(streamed).toHaveLength(3);

    // The 416 asked for a re-read of the watched companies: the officer list now shows the missed resignation.
    h.fakes.GB_API.get('/company/10345936/officers', {
      fixture: 'registers/gb/ch-company-officers-10345936-derived-after-stream-events.json',
    });
    await h.runDueChecks();
    const caughtUp = await h.takeEvents();
    expect(caughtUp.map((e) => [e.accountId, e.kind, (e.data.change as { action: string }).action])).toEqual([
      ['acc_a', 'company.officers_changed', 'resigned'],
      ['acc_b', 'company.officers_changed', 'resigned'],
    ]);
    expect(caughtUp[0].data).toMatchObject({
      change: {
        previous: 'NORRIS, Anthony Carmelo, Director, appointed 2016-08-25',
        current: 'NORRIS, Anthony Carmelo, Director, appointed 2016-08-25, resigned 2021-08-19',
      },
      officer: { name: 'NORRIS, Anthony Carmelo', resigned_on: '2021-08-19' },
    });
    // Nothing more on a second re-read.
    await h.dataSource.query(`UPDATE company_snapshot SET read_requested_at = now() WHERE country = 'GB'`);
    await h.runDueChecks();
    expect(await h.takeEvents()).toEqual([]);
  });
});

describe('GB: a gap in the filings stream', () => {
  let h: DetectionHarness;
  let runner: ChangeStreamRunner;
  const open: ServerResponse[] = [];
  const filingConnections: Array<string | null> = [];
  const HISTORY = '/company/12317301/filing-history';

  beforeAll(async () => {
    h = await startDetectionHarness(
      { REGISTER_GB_API_KEY: 'k', REGISTER_GB_STREAM_KEY: 'stream-key' },
      { now: '2020-11-10T12:00:00.000Z' },
    );
    h.fakes.GB_API.get('/company/12317301', {
      fixture: 'registers/gb/ch-company-profile-12317301-derived-from-05954546.json',
    });
    h.fakes.GB_API.get('/company/12317301/officers', {
      body: '{"items":[],"total_results":0,"kind":"officer-list"}',
      headers: JSON_HEADERS,
    });
    h.fakes.GB_API.get(HISTORY, { fixture: 'registers/gb/ch-filing-history-12317301-derived-from-stream-events.json' });
    const beat = (res: ServerResponse) => {
      res.writeHead(200, JSON_HEADERS);
      res.write('\n');
    };
    for (const path of ['/companies', '/officers'])
      h.fakes.GB_STREAM.get(path, () => ({ raw: (res) => (open.push(res), beat(res)) }));
    h.fakes.GB_STREAM.get('/filings', (req) => ({
      raw: (res) => {
        open.push(res);
        const timepoint = req.query.get('timepoint');
        filingConnections.push(timepoint);
        if (filingConnections.length === 1) {
          // The CS01 of 2020-11-16, then the connection drops.
          beat(res);
          res.write(line('ch-streaming-filings-event-12317301-cs01-timepoint-49094846.json'));
          setTimeout(() => res.destroy(), 30);
        } else if (filingConnections.length === 2) {
          // The register no longer has that timepoint: whatever was filed since is missed.
          res.writeHead(416, JSON_HEADERS);
          res.end('{"error":"Requested Range Not Satisfiable"}');
        } else beat(res);
      },
    }));
  });
  afterAll(() => closeStreams(h, runner, open));

  it('reads the watched companies’ filings since the gap from their filing history: one event per filing the stream missed', async () => {
    await h.setReadable('GB', true);
    await h.watch('acc_a', 'GB', '12317301');
    await h.runDueChecks();
    expect(h.fakes.GB_API.requestsTo(HISTORY)).toHaveLength(0);

    runner = streamRunner(h);
    runner.backoff = { initialMs: 20, maxMs: 100 };
    runner.idleRetryMs = 20;
    runner.onApplicationBootstrap();
    await until(async () => filingConnections.length >= 3, 10_000, 'the reconnection after the 416');
    expect(filingConnections).toEqual([null, '49094846', null]);
    const streamed = await h.takeEvents();
    expect(streamed.map((e) => [e.kind, (e.data.filing as { id: string }).id])).toEqual([
      ['company.filing_published', 'MzI4MzUzMjgyMGFkaXF6a2N4'],
    ]);
    const [gap] = await h.dataSource.query(
      `SELECT filings_gap_since, read_requested_at FROM company_snapshot WHERE entity_id = 'ent_gb_12317301'`,
    );
    // Since the stream was last known to be read (the manual clock has not moved).
    expect(new Date(gap.filings_gap_since).toISOString()).toBe('2020-11-10T12:00:00.000Z');
    expect(gap.read_requested_at).not.toBeNull();

    // The re-read: the profile, then the filing history. The AA of 2020-11-25 was missed; the
    // CS01 the stream sent is known; the accounts of 2020-08-10 are from before the watch; an
    // item without a transaction id cannot be told from another.
    h.clock.set(new Date('2020-11-30T09:00:00.000Z'));
    await h.runDueChecks();
    expect(h.fakes.GB_API.requestsTo(HISTORY)).toHaveLength(1);
    const recovered = await h.takeEvents();
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ accountId: 'acc_a', kind: 'company.filing_published' });
    expect(recovered[0].data).toMatchObject({
      entity_id: 'ent_gb_12317301',
      change: { field: 'filings', action: 'published', previous: null },
      filing: {
        id: 'MzI4NDAwMDAwMGFkaXF6a2N4',
        category: 'accounts',
        type: 'AA',
        date: '2020-11-25',
        url: expect.stringMatching(/\/company\/12317301\/filing-history\/MzI4NDAwMDAwMGFkaXF6a2N4\/document/),
      },
      provenance: { source_mode: 'live', source_url: expect.stringMatching(/\/company\/12317301\/filing-history$/) },
    });
    const [after] = await h.dataSource.query(
      `SELECT filings_gap_since FROM company_snapshot WHERE entity_id = 'ent_gb_12317301'`,
    );
    expect(after.filings_gap_since).toBeNull();

    // A later read does not read the history again, and says nothing more.
    await h.dataSource.query(`UPDATE company_snapshot SET read_requested_at = now() WHERE country = 'GB'`);
    await h.runDueChecks();
    expect(h.fakes.GB_API.requestsTo(HISTORY)).toHaveLength(1);
    expect(await h.takeEvents()).toEqual([]);

    // A read asked for while the history was being read (another gap may have begun after it):
    // the gap is kept for that read, which reads the history again.
    const gapOf = async () =>
      (
        await h.dataSource.query(`SELECT filings_gap_since FROM company_snapshot WHERE entity_id = 'ent_gb_12317301'`)
      )[0].filings_gap_since;
    await h.dataSource.query(
      `UPDATE company_snapshot SET filings_gap_since = '2020-11-10T12:00:00Z', read_requested_at = '2020-12-01T00:00:00Z'
       WHERE entity_id = 'ent_gb_12317301'`,
    );
    await h.runDueChecks();
    expect(h.fakes.GB_API.requestsTo(HISTORY)).toHaveLength(2);
    expect(await gapOf()).not.toBeNull();
    h.clock.set(new Date('2020-12-02T09:00:00.000Z'));
    await h.runDueChecks();
    expect(h.fakes.GB_API.requestsTo(HISTORY)).toHaveLength(3);
    expect(await gapOf()).toBeNull();
    expect(await h.takeEvents()).toEqual([]);
  });
});

describe('NO: the role update feed', () => {
  let h: DetectionHarness;
  beforeAll(async () => {
    h = await startDetectionHarness();
  });
  afterAll(() => h.close());

  it('re-reads the roles of the watched units it names, once each, and sends one event per officer who changed', async () => {
    // Derived: the recorded unit under EQUINOR's number (no recorded unit of Equinor exists).
    const equinor = {
      ...JSON.parse(fixture('registers/no/brreg-enhet-883603362-extracted-from-asa-search.json')),
      organisasjonsnummer: '923609016',
      navn: 'EQUINOR ASA',
    };
    h.fakes.NO_API.get('/enheter/923609016', { body: JSON.stringify(equinor), headers: JSON_HEADERS });
    h.fakes.NO_API.get('/enheter/923609016/roller', {
      fixture: 'registers/no/brreg-enhet-roller-923609016-equinor.json',
    });
    h.fakes.NO_API.get('/oppdateringer/enheter', { body: '{"page":{"size":0}}', headers: JSON_HEADERS });
    let roleEvents = '[]';
    h.fakes.NO_API.get('/oppdateringer/roller', (req) => ({
      body: req.query.get('afterId') === '20461003' ? '[]' : roleEvents,
      headers: JSON_HEADERS,
    }));
    await h.setReadable('NO', true);
    await h.watch('acc_a', 'NO', '923609016');
    await h.runDueChecks();
    const snapshot = await h.dataSource.query(
      `SELECT officers FROM company_snapshot WHERE entity_id = 'ent_no_923609016'`,
    );
    expect(snapshot[0].officers.length).toBeGreaterThan(10);

    // The first poll starts from now; the next one gets the feed's events (Equinor named twice).
    await h.feeds.poll('NO');
    expect(h.fakes.NO_API.requests.find((r) => r.path === '/oppdateringer/roller')?.query.get('afterTime')).toBe(
      '2026-11-22T12:00:00.000Z',
    );
    roleEvents = fixture('registers/no/brreg-oppdateringer-roller-constructed-from-docs.json');
    h.fakes.NO_API.get('/enheter/923609016/roller', {
      fixture: 'registers/no/brreg-enhet-roller-923609016-derived-board-member-left.json',
    });
    await h.feeds.poll('NO');
    expect((await h.dataSource.query(`SELECT cursor FROM feed_cursor WHERE feed = 'NO:roles'`))[0].cursor).toBe(
      'id:20461003',
    );
    const rolesRead = () => h.fakes.NO_API.requests.filter((r) => r.path === '/enheter/923609016/roller').length;
    const before = rolesRead();
    await h.runDueChecks();
    expect(rolesRead()).toBe(before + 1);
    const events = await h.takeEvents();
    expect(events.map((e) => [e.accountId, e.kind])).toEqual([['acc_a', 'company.officers_changed']]);
    expect(events[0].data).toMatchObject({
      entity_id: 'ent_no_923609016',
      change: {
        field: 'officers',
        action: 'resigned',
        previous: 'Anne Drinkwater, Styremedlem',
        current: null,
      },
      officer: { name: 'Anne Drinkwater', role: 'Styremedlem', appointed_on: null, resigned_on: null },
      provenance: { source_mode: 'live' },
    });
    // Polled again: nothing new, nothing read.
    await h.feeds.poll('NO');
    await h.runDueChecks();
    expect(rolesRead()).toBe(before + 1);
    expect(await h.takeEvents()).toEqual([]);
  });
});

describe('GB: a stream whose lease cannot be written when it connects', () => {
  let h: DetectionHarness;
  let runner: ChangeStreamRunner;
  const open: ServerResponse[] = [];
  let connections = 0;

  beforeAll(async () => {
    h = await startDetectionHarness({ REGISTER_GB_API_KEY: 'k', REGISTER_GB_STREAM_KEY: 'stream-key' });
    for (const path of ['/companies', '/officers', '/filings'])
      h.fakes.GB_STREAM.get(path, () => ({
        raw: (res) => {
          connections++;
          open.push(res);
          res.writeHead(200, JSON_HEADERS);
          res.write('\n');
        },
      }));
  });
  afterAll(() => closeStreams(h, runner, open));

  it('goes on streaming: the failed write is not an unhandled rejection that would end the worker', async () => {
    await h.setReadable('GB', true);
    await h.watch('acc_a', 'GB', '10345936');
    const cursors = h.ctx.get(FeedCursorStore);
    // The database fails this one write (a stalled or restarting Postgres); reads still answer.
    const failing = Object.create(cursors) as FeedCursorStore;
    let renewals = 0;
    failing.renew = () => {
      renewals++;
      return Promise.reject(new Error('connection terminated unexpectedly'));
    };
    runner = streamRunner(h, failing);
    runner.onApplicationBootstrap();
    await until(async () => connections >= 3 && renewals >= 3, 10_000, 'the three streams connected');
    // Jest fails this test on an unhandled rejection from here on, as Node would end the worker.
    await new Promise((r) => setTimeout(r, 500));
    expect(renewals).toBeGreaterThanOrEqual(3);
  });
});

describe('GB: a stream entry that cannot be applied', () => {
  let h: DetectionHarness;
  let runner: ChangeStreamRunner;
  const open: ServerResponse[] = [];
  const filingConnections: Array<string | null> = [];

  beforeAll(async () => {
    h = await startDetectionHarness({ REGISTER_GB_API_KEY: 'k', REGISTER_GB_STREAM_KEY: 'stream-key' });
    h.fakes.GB_API.get('/company/12317301', {
      fixture: 'registers/gb/ch-company-profile-12317301-derived-from-05954546.json',
    });
    h.fakes.GB_API.get('/company/12317301/officers', {
      body: '{"items":[],"total_results":0,"kind":"officer-list"}',
      headers: JSON_HEADERS,
    });
    for (const path of ['/companies', '/officers'])
      h.fakes.GB_STREAM.get(path, () => ({
        raw: (res) => {
          open.push(res);
          res.writeHead(200, JSON_HEADERS);
          res.write('\n');
        },
      }));
    h.fakes.GB_STREAM.get('/filings', (req) => ({
      raw: (res) => {
        open.push(res);
        filingConnections.push(req.query.get('timepoint'));
        res.writeHead(200, JSON_HEADERS);
        res.write(line('ch-streaming-filings-event-10620794.json'));
        res.write(line('ch-streaming-filings-event-12317301-cs01-timepoint-49094846.json'));
      },
    }));
  });
  afterAll(() => closeStreams(h, runner, open));

  it('is passed over with an error in the log: the stream moves on instead of reading it again for good', async () => {
    await h.setReadable('GB', true);
    await h.watch('acc_a', 'GB', '12317301');
    await h.runDueChecks();
    await h.takeEvents();
    const entries = h.ctx.get(FeedEntriesService);
    // What a refused write of the first entry (an unwatched company's) looks like: not a database that cannot answer.
    const spy = jest
      .spyOn(entries, 'apply')
      .mockRejectedValueOnce(Object.assign(new Error('invalid input syntax for type json'), { code: '22P02' }));
    try {
      runner = streamRunner(h);
      runner.backoff = { initialMs: 20, maxMs: 100 };
      runner.idleRetryMs = 20;
      runner.onApplicationBootstrap();
      await until(async () => (await cursorOf(h, 'GB:filings')) === '49094846', 10_000, 'the filings read');
    } finally {
      spy.mockRestore();
    }
    // One connection: the first entry did not end it, and the next was applied.
    expect(filingConnections).toEqual([null]);
    expect((await h.takeEvents()).map((e) => [e.accountId, e.kind])).toEqual([['acc_a', 'company.filing_published']]);
  });
});
