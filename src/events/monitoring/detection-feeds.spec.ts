import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { DataSource } from 'typeorm';
import { Clock } from '../../platform/clock';
import { DetectionHarness, startDetectionHarness, T0, until } from '../../../test/support/detection-harness';
import { fixture } from '../../../test/support/fake-register';
import { RegisterStatusService } from '../../status/register-status.service';
import { ProbeService } from '../../status/probe/probe.service';
import { failRegister } from '../../../test/support/fake-registers';
import { ChangeStreamRunner } from './feeds/change-stream.runner';
import { ChangeSources } from './feeds/change-sources.service';
import { FeedCursorStore } from './feeds/feed-cursor-store';
import { SnapshotStore } from './snapshots/snapshot-store';
import { FeedEntriesService } from './feeds/feed-entries.service';
import { DetectionEventWriter } from './events/detection-event-writer';
import { NOTIFICATION_SOURCES } from '../../registers/cz/ares-code-lists';

jest.setTimeout(60_000);

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };
const changeOf = (e: { data: Record<string, unknown> }) => {
  const c = e.data.change as { field: string; previous: string; current: string };
  return [c.field, c.previous, c.current];
};

/** The recorded update page's items, and the unit ABG SUNDAL COLLIER ASA named by derived entries after them. */
function noUpdates(extra: Array<{ id: number; orgnr: string }>) {
  const page = JSON.parse(fixture('registers/no/brreg-oppdateringer-enheter-page.json'));
  const recorded = page._embedded.oppdaterteEnheter as Array<{ oppdateringsid: number; organisasjonsnummer: string }>;
  const derived = extra.map(({ id, orgnr }) => ({
    oppdateringsid: id,
    dato: '2026-11-22T12:30:00.000Z',
    organisasjonsnummer: orgnr,
    endringstype: 'Endring',
  }));
  return [...recorded, ...derived];
}

describe('NO: the update feed from a stored cursor', () => {
  let dir: string;
  let h: DetectionHarness;
  let published: ReturnType<typeof noUpdates>;

  const route = (harness: DetectionHarness) => {
    harness.fakes.NO_API.get('/enheter/883603362', {
      fixture: 'registers/no/brreg-enhet-883603362-extracted-from-asa-search.json',
    });
    harness.fakes.NO_API.get('/oppdateringer/enheter', (req) => {
      const from = Number(req.query.get('oppdateringsid') ?? 0);
      const items = req.query.get('dato') ? published : published.filter((i) => i.oppdateringsid >= from);
      return {
        body: JSON.stringify(
          items.length
            ? { _embedded: { oppdaterteEnheter: items }, page: { size: 1000, number: 0 } }
            : { page: { size: 1000 } },
        ),
        headers: JSON_HEADERS,
      };
    });
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rl-detect-'));
    h = await startDetectionHarness({ DATA_DIR: dir });
    route(h);
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-reads only the watched units the feed names; a duplicate entry and a restart give no duplicate event', async () => {
    await h.setReadable('NO', true);
    await h.watch('acc_a', 'NO', '883603362');
    await h.watch('acc_b', 'NO', '883603362');
    await h.runDueChecks();
    const baselineReads = h.fakes.NO_API.requestsTo('/enheter/883603362').length;
    expect(baselineReads).toBe(1);

    // The recorded entries (units nobody watches) and one derived entry for the watched unit.
    published = noUpdates([{ id: 9400400, orgnr: '883603362' }]);
    h.fakes.NO_API.get('/enheter/883603362', {
      fixture: 'registers/no/brreg-enhet-883603362-derived-renamed-moved.json',
    });
    const first = await h.feeds.poll('NO');
    expect(first).toMatchObject({ entries: 21, requested: 1, caughtUp: true });
    expect(h.fakes.NO_API.requestsTo('/oppdateringer/enheter')[0].query.get('dato')).toBe('2026-11-22T12:00:00.000Z');
    await h.runDueChecks();
    // One re-read (the unit and its roles), of the watched unit only: none of the 20 units nobody watches was read.
    expect(h.fakes.NO_API.requests.filter((r) => /^\/enheter\/\d+$/.test(r.path)).length).toBe(2);
    expect(h.fakes.NO_API.requests.filter((r) => r.path === '/enheter/883603362/roller').length).toBe(2);
    const events = await h.takeEvents();
    expect(events.map((e) => [e.accountId, ...changeOf(e)])).toEqual([
      ['acc_a', 'name', 'ABG SUNDAL COLLIER ASA', 'ABG SUNDAL COLLIER GROUP ASA'],
      ['acc_b', 'name', 'ABG SUNDAL COLLIER ASA', 'ABG SUNDAL COLLIER GROUP ASA'],
      ['acc_a', 'address', 'Rusel<U+00F8>kkveien 26, 0251 OSLO', 'Munkedamsveien 45, 0250 OSLO'],
      ['acc_b', 'address', 'Rusel<U+00F8>kkveien 26, 0251 OSLO', 'Munkedamsveien 45, 0250 OSLO'],
    ]);

    // A restart: the process goes, a new one comes on the same database and resumes from the stored cursor.
    await h.close();
    h = await startDetectionHarness({ DATA_DIR: dir }, { now: '2026-11-22T12:05:00.000Z' });
    route(h);
    h.fakes.NO_API.get('/enheter/883603362', {
      fixture: 'registers/no/brreg-enhet-883603362-derived-renamed-moved.json',
    });
    // The register repeats the entry (a duplicate) and adds a later one for the same unit.
    published = noUpdates([
      { id: 9400400, orgnr: '883603362' },
      { id: 9400401, orgnr: '883603362' },
    ]);
    const second = await h.feeds.poll('NO');
    expect(h.fakes.NO_API.requestsTo('/oppdateringer/enheter')[0].query.get('oppdateringsid')).toBe('9400401');
    expect(second).toMatchObject({ entries: 1, requested: 1 });
    await h.runDueChecks();
    expect(await h.takeEvents()).toEqual([]);

    // Nothing new: the cursor stays after the last entry.
    published = noUpdates([
      { id: 9400400, orgnr: '883603362' },
      { id: 9400401, orgnr: '883603362' },
    ]);
    await h.feeds.poll('NO');
    expect(h.fakes.NO_API.requestsTo('/oppdateringer/enheter')[1].query.get('oppdateringsid')).toBe('9400402');
  });
});

describe('CZ: ARES notification batches from a stored cursor', () => {
  const HELLA = '25834151';
  const LISTS = '/ekonomicke-subjekty-notifikace/vyhledat';
  const batch = (n: number) => `/ekonomicke-subjekty-notifikace/datovy-zdroj/vr/cislo-davky/${n}`;
  let dir: string;
  let h: DetectionHarness;
  const stored = async () =>
    JSON.parse((await h.dataSource.query(`SELECT cursor FROM feed_cursor WHERE feed = 'CZ:changes'`))[0].cursor);
  const subjectReads = () => h.fakes.CZ_API.requestsTo(`/ekonomicke-subjekty/${HELLA}`).length;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'rl-detect-cz-'));
    // Detection starts before both recorded batches were released (2026-07-15, 2026-07-25): both are read.
    h = await startDetectionHarness({ DATA_DIR: dir }, { now: '2026-07-01T08:00:00.000Z' });
  });
  afterAll(async () => {
    await h.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('re-reads only the watched subjects a batch names, once for an IČO named twice; a restart mid-cursor resumes at the next batch', async () => {
    await h.setReadable('CZ', true);
    await h.watch('acc_a', 'CZ', HELLA);
    await h.watch('acc_b', 'CZ', HELLA);
    await h.runDueChecks();
    expect(subjectReads()).toBe(1);

    // ARES fails on the second batch: the poll stops after the first one, whose cursor is stored.
    h.fakes.CZ_API.get(batch(680), { status: 503, body: 'Service Unavailable' });
    const first = await h.feeds.poll('CZ');
    expect(first).toMatchObject({ pages: 1, entries: 2, requested: 0, caughtUp: false });
    expect(h.fakes.CZ_API.requestsTo(LISTS)).toHaveLength(NOTIFICATION_SOURCES.length);
    expect(await stored()).toEqual({ v: 1, since: '2026-07-01', after: { vr: 671 }, pending: { vr: [680] } });
    // Batch 671 names two subjects nobody watches: nothing is read for them.
    await h.runDueChecks();
    expect(subjectReads()).toBe(1);
    expect(await h.takeEvents()).toEqual([]);

    // A restart: a new process on the same database; ARES answers again, HELLA renamed (derived).
    await h.close();
    h = await startDetectionHarness({ DATA_DIR: dir }, { now: '2026-07-26T08:00:00.000Z' });
    h.fakes.CZ_API.get(`/ekonomicke-subjekty/${HELLA}`, {
      fixture: 'registers/cz/ares-ekonomicke-subjekty-ico-25834151-derived-renamed-v-likvidaci.json',
    });
    const second = await h.feeds.poll('CZ');
    // Straight to the pending batch: no list asked again, batch 671 not read again, none skipped.
    expect(h.fakes.CZ_API.requests.map((r) => r.path)).toEqual([batch(680)]);
    expect(second).toMatchObject({ pages: 1, entries: 3, requested: 1, caughtUp: true });
    await h.runDueChecks();
    // HELLA is named twice in batch 680: one re-read, one event per watching account.
    expect(subjectReads()).toBe(1);
    const events = await h.takeEvents();
    expect(events.map((e) => [e.accountId, e.kind, ...changeOf(e)])).toEqual([
      [
        'acc_a',
        'company.name_changed',
        'name',
        'HELLA AUTOTECHNIK NOVA, s.r.o.',
        'HELLA AUTOTECHNIK NOVA, s.r.o. v likvidaci',
      ],
      [
        'acc_b',
        'company.name_changed',
        'name',
        'HELLA AUTOTECHNIK NOVA, s.r.o.',
        'HELLA AUTOTECHNIK NOVA, s.r.o. v likvidaci',
      ],
    ]);
    expect(events[0].data).toMatchObject({
      country: 'CZ',
      registration_number: HELLA,
      provenance: { source_mode: 'live', source_url: `https://ares.gov.cz/ekonomicke-subjekty?ico=${HELLA}` },
    });

    // Caught up: the next poll lists the sources again and reads no batch; nothing is said twice.
    const third = await h.feeds.poll('CZ');
    expect(third).toMatchObject({ pages: 1, entries: 0, caughtUp: true });
    expect(h.fakes.CZ_API.requestsTo(/cislo-davky/)).toHaveLength(1);
    expect(h.fakes.CZ_API.requestsTo(LISTS)).toHaveLength(NOTIFICATION_SOURCES.length);
    expect(await stored()).toEqual({ v: 1, since: '2026-07-01', after: { vr: 680 }, pending: {} });
    await h.runDueChecks();
    expect(await h.takeEvents()).toEqual([]);
  });
});

describe('CZ: re-reads for what no ARES batch announces', () => {
  const HELLA = '25834151';
  let h: DetectionHarness;
  beforeAll(async () => {
    h = await startDetectionHarness();
  });
  afterAll(() => h.close());

  it('confirms a subject against the feed for a day, then re-reads it: an insolvency (no batches) is found', async () => {
    const reads = () => h.fakes.CZ_API.requestsTo(`/ekonomicke-subjekty/${HELLA}`).length;
    const snapshot = async () =>
      (
        await h.dataSource.query(
          `SELECT next_check_at, check_outcome, retrieved_at FROM company_snapshot WHERE entity_id = 'ent_cz_${HELLA}'`,
        )
      )[0];
    await h.setReadable('CZ', true);
    await h.watch('acc_a', 'CZ', HELLA);
    await h.watch('acc_b', 'CZ', HELLA, true);
    await h.runDueChecks();
    expect(reads()).toBe(1);
    // HELLA enters the insolvency register (derived), which publishes no notification batch.
    h.fakes.CZ_API.get(`/ekonomicke-subjekty/${HELLA}`, {
      fixture: 'registers/cz/ares-ekonomicke-subjekty-ico-25834151-derived-ir-aktivni.json',
    });

    // Within the day: every scheduled check is confirmed against the feed, without a request.
    for (const hour of [1, 12, 23]) {
      h.clock.set(new Date(Date.parse(T0) + hour * 3_600_000 + 1_000));
      await h.feeds.poll('CZ');
      await h.runDueChecks();
    }
    expect(reads()).toBe(1);
    expect((await snapshot()).check_outcome).toBe('no_change');
    const quiet = await h.takeEvents();
    expect(quiet.length).toBeGreaterThan(0);
    expect(quiet.every((e) => e.accountId === 'acc_b' && e.kind === 'company.no_change')).toBe(true);
    expect(quiet[0].data.provenance).toMatchObject({
      source_url: `${h.registers.of('CZ').urls.API}/ekonomicke-subjekty-notifikace`,
    });

    // A day after the last read, the next scheduled check reads ARES: the insolvency is a status change.
    const due = (await snapshot()).next_check_at as Date;
    h.clock.set(new Date(Math.max(due.getTime(), Date.parse(T0) + 86_400_000) + 1_000));
    await h.feeds.poll('CZ');
    await h.runDueChecks();
    expect(reads()).toBe(2);
    const events = await h.takeEvents();
    expect(events.map((e) => [e.accountId, ...changeOf(e)])).toEqual([
      ['acc_a', 'status', 'Aktivní', 'Aktivní, v insolvenčním rejstříku'],
      ['acc_b', 'status', 'Aktivní', 'Aktivní, v insolvenčním rejstříku'],
    ]);
    expect(events[0].data.provenance).toMatchObject({
      source_mode: 'live',
      source_url: `https://ares.gov.cz/ekonomicke-subjekty?ico=${HELLA}`,
    });

    // Read again, it is trusted to the feed for another day.
    const next = (await snapshot()).next_check_at as Date;
    h.clock.set(new Date(next.getTime() + 1_000));
    await h.feeds.poll('CZ');
    await h.runDueChecks();
    expect(reads()).toBe(2);
  });
});

describe('DK: the sidstOpdateret query', () => {
  let h: DetectionHarness;
  beforeAll(async () => {
    h = await startDetectionHarness();
  });
  afterAll(() => h.close());

  it('re-reads the watched companies the query names, participants included; a document seen again gives nothing', async () => {
    let feedAnswer = 'registers/dk/cvr-es-virksomhed-search-no-hits-derived.json';
    let current = 'registers/dk/cvr-es-virksomhed-by-cvr-25052943-magenta-aps.json';
    h.fakes.DK_API.post('/cvr-permanent/virksomhed/_search', (req) => {
      const body = JSON.parse(req.body);
      return { fixture: body.query.range ? feedAnswer : current };
    });
    const feedRequests = () => h.fakes.DK_API.requests.filter((r) => JSON.parse(r.body).query.range);
    const reads = () => h.fakes.DK_API.requests.filter((r) => JSON.parse(r.body).query.term);
    await h.setReadable('DK', true);
    await h.watch('acc_a', 'DK', '25052943');
    await h.runDueChecks();
    // The baseline is the whole lookup: the record and its participants.
    expect(JSON.parse(reads().at(-1)!.body)._source).toContain('Vrvirksomhed.deltagerRelation');
    await h.feeds.poll('DK');
    // The query asks for the numbers and stamps only, not the companies' documents.
    const feedRequest = JSON.parse(feedRequests().at(-1)!.body);
    expect(feedRequest.query.range['Vrvirksomhed.sidstOpdateret'].gte).toBe('2026-11-22T12:00:00.000Z');
    expect(feedRequest._source).toEqual(['Vrvirksomhed.cvrNummer', 'Vrvirksomhed.sidstOpdateret']);

    const changedTo = async (fixture: string) => {
      feedAnswer = current = fixture;
      const before = reads().length;
      await h.feeds.poll('DK');
      await h.runDueChecks();
      expect(reads().length - before).toBe(1);
      return h.takeEvents();
    };
    expect(
      (await changedTo('registers/dk/cvr-es-virksomhed-by-cvr-25052943-derived-renamed-moved.json')).map(changeOf),
    ).toEqual([
      ['name', 'MAGENTA ApS', 'MAGENTA DIGITAL ApS'],
      ['address', 'Pilestræde 43, 3., 1112 København K', 'Vesterbrogade 10, 3., 1620 København V'],
    ]);
    const cursor = JSON.parse(
      (await h.dataSource.query(`SELECT cursor FROM feed_cursor WHERE feed = 'DK:changes'`))[0].cursor,
    );
    expect(cursor).toEqual({ from: '2026-11-22T12:30:00.000+01:00', skip: 1 });

    // The same document again (gte keeps the last second): read again, nothing new, no duplicate event.
    await h.feeds.poll('DK');
    await h.runDueChecks();
    expect(await h.takeEvents()).toEqual([]);
    expect(JSON.parse(feedRequests().at(-1)!.body).from).toBe(1);

    expect(
      (await changedTo('registers/dk/cvr-es-virksomhed-by-cvr-25052943-derived-dissolved-legal-form-changed.json')).map(
        changeOf,
      ),
    ).toEqual([
      ['status', 'NORMAL', 'OPLØST EFTER FRIVILLIG LIKVIDATION'],
      ['legal_form', 'Anpartsselskab', 'Aktieselskab'],
    ]);

    // The managing director's role ends: one company.officers_changed, and nothing else.
    const events = await changedTo('registers/dk/cvr-es-virksomhed-by-cvr-25052943-derived-director-resigned.json');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      accountId: 'acc_a',
      kind: 'company.officers_changed',
      data: {
        change: { field: 'officers', action: 'resigned' },
        officer: { name: 'Morten Kjærsgaard', role: 'adm. dir', appointed_on: '2009-10-28', resigned_on: '2026-11-20' },
        provenance: { source_mode: 'live' },
      },
    });
  });
});

describe('FR with an INSEE key: the dateDernierTraitementUniteLegale query', () => {
  let h: DetectionHarness;
  beforeAll(async () => {
    h = await startDetectionHarness({ REGISTER_FR_API_KEY: 'insee-key' });
  });
  afterAll(() => h.close());

  it('asks for head offices processed since the last run and applies them as read', async () => {
    let feedAnswer: string | null = null;
    h.fakes.FR_API.get('/siret', (req) => {
      const q = req.query.get('q') ?? '';
      if (q.startsWith('(dateDernierTraitement'))
        return feedAnswer
          ? { fixture: feedAnswer }
          : { status: 404, body: '{"header":{"statut":404,"message":"Aucun élément trouvé"}}' };
      return { fixture: 'registers/fr/insee-sirene-siret-search-siege-derived-from-siret.json' };
    });
    await h.setReadable('FR', true);
    await h.watch('acc_a', 'FR', '130025265');
    await h.runDueChecks();
    expect(h.fakes.FR_API.requests[0].query.get('q')).toBe('siren:130025265 AND etablissementSiege:true');
    expect(await h.feeds.poll('FR')).toMatchObject({ pages: 1, entries: 0, caughtUp: true });

    feedAnswer = 'registers/fr/insee-sirene-siret-search-siege-130025265-derived-renamed-moved.json';
    h.clock.advance(3_600_000);
    await h.feeds.poll('FR');
    const request = h.fakes.FR_API.requests.at(-1)!;
    // From the previous run's start less 10 minutes, Paris time (13:00 - 0:10 UTC+1).
    expect(request.query.get('q')).toBe(
      '(dateDernierTraitementUniteLegale:[2026-11-22T12:50:00 TO *] OR dateDernierTraitementEtablissement:[2026-11-22T12:50:00 TO *]) AND etablissementSiege:true',
    );
    expect(request.headers['x-insee-api-key-integration']).toBe('insee-key');
    const events = await h.takeEvents();
    expect(events.map(changeOf)).toEqual([
      ['name', 'DIRECTION INTERMINISTERIELLE DU NUMERIQUE', 'AGENCE NATIONALE DU NUMERIQUE'],
      ['address', '20 AVENUE DE SEGUR, 75007 PARIS 7', '139 AVENUE DE BERCY, 75012 PARIS 12'],
    ]);
    expect(events[0].data.provenance).toMatchObject({ source_mode: 'live' });

    feedAnswer = 'registers/fr/insee-sirene-siret-search-siege-130025265-derived-ceased-legal-form-changed.json';
    await h.feeds.poll('FR');
    expect((await h.takeEvents()).map(changeOf)).toEqual([
      ['status', 'Active', 'Cessée'],
      ['legal_form', "Service central d'un ministère", 'Établissement public national à caractère administratif'],
    ]);
  });
});

describe('GB: the companies stream', () => {
  let h: DetectionHarness;
  const connections: Array<{ timepoint: string | null; res: ServerResponse }> = [];
  let script: (timepoint: string | null, res: ServerResponse) => void = () => undefined;
  const line = (file: string) => JSON.stringify(JSON.parse(fixture(`registers/gb/${file}`))) + '\n';

  const runner = () => {
    const r = new ChangeStreamRunner(
      h.dataSource,
      h.ctx.get(ChangeSources),
      h.ctx.get(FeedCursorStore),
      h.ctx.get(SnapshotStore),
      h.ctx.get(FeedEntriesService),
      h.ctx.get(RegisterStatusService),
      h.ctx.get(DetectionEventWriter),
      h.ctx.get(Clock),
    );
    r.backoff = { initialMs: 20, maxMs: 100 };
    r.idleRetryMs = 20;
    return r;
  };

  beforeAll(async () => {
    h = await startDetectionHarness({ REGISTER_GB_API_KEY: 'k', REGISTER_GB_STREAM_KEY: 'stream-key' });
    h.fakes.GB_API.get('/company/05954546', {
      fixture: 'registers/gb/ch-company-profile-05954546-derived-from-stream-event.json',
    });
    h.fakes.GB_STREAM.get('/companies', (req) => ({
      raw: (res) => {
        connections.push({ timepoint: req.query.get('timepoint'), res });
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.write('\n');
        script(req.query.get('timepoint'), res);
      },
    }));
  });
  afterAll(async () => {
    for (const c of connections) c.res.destroy();
    await h.close();
  });

  it('applies profiles as they stream, resumes from the stored timepoint after a drop and after a restart, and never emits an entry twice', async () => {
    await h.setReadable('GB', true);
    await h.watch('acc_a', 'GB', '05954546');
    await h.runDueChecks();
    expect(h.fakes.GB_STREAM.requests).toHaveLength(0);

    // First connection: the recorded event (the baseline itself: nothing), the renamed one, then the register drops the connection.
    script = (_tp, res) => {
      res.write(line('ch-streaming-companies-event-05954546.json'));
      res.write('\n');
      res.write(line('ch-streaming-companies-event-05954546-derived-renamed.json'));
      setTimeout(() => res.destroy(), 50);
    };
    let r = runner();
    r.onApplicationBootstrap();
    await until(async () => connections.length >= 2, 10_000, 'a reconnection');
    expect(h.fakes.GB_STREAM.requests[0].headers.authorization).toBe(
      `Basic ${Buffer.from('stream-key:').toString('base64')}`,
    );
    expect(connections[0].timepoint).toBeNull();
    expect(connections[1].timepoint).toBe('68805562');
    const renamed = await h.takeEvents();
    expect(renamed.map(changeOf)).toEqual([
      ['name', 'GLENCOYNE ENGINEERING LTD', 'GLENCOYNE ENGINEERING SERVICES LTD'],
    ]);

    // Reconnected: the register repeats the stored timepoint (dropped as seen), then a new event; the connection stays up.
    script = (_tp, res) => {
      res.write(line('ch-streaming-companies-event-05954546-derived-renamed.json'));
      res.write(line('ch-streaming-companies-event-05954546-derived-liquidation.json'));
    };
    await until(
      async () =>
        (await h.dataSource.query(`SELECT cursor FROM feed_cursor WHERE feed = 'GB:changes'`))[0]?.cursor ===
        '68805563',
      10_000,
      'timepoint 68805563',
    );
    expect((await h.takeEvents()).map(changeOf)).toEqual([['status', 'Active', 'Liquidation']]);

    // A restart of the worker: a new follower resumes from the stored timepoint; the repeated event gives nothing.
    await r.beforeApplicationShutdown();
    const before = connections.length;
    script = (_tp, res) => res.write(line('ch-streaming-companies-event-05954546-derived-liquidation.json'));
    r = runner();
    r.onApplicationBootstrap();
    await until(async () => connections.length > before, 10_000, 'the restarted follower');
    expect(connections.at(-1)!.timepoint).toBe('68805563');
    await new Promise((res) => setTimeout(res, 200));
    expect(await h.takeEvents()).toEqual([]);
    await r.beforeApplicationShutdown();
  });
});

describe('a register going down mid-cycle', () => {
  let h: DetectionHarness;
  beforeAll(async () => {
    h = await startDetectionHarness();
  });
  afterAll(() => h.close());

  it('sends register.unavailable once, reads nothing while it is down (no change from anything but an official read), and catches up after recovery', async () => {
    const probes = h.ctx.get(ProbeService);
    const probe = (minute: number) =>
      probes.run({ country: 'AU', slotStart: new Date(Date.UTC(2026, 10, 22, 12, minute)).toISOString() });
    await probe(0);
    await h.watch('acc_a', 'AU', '26154482283', true);
    await h.watch('acc_b', 'AU', '26154482283');
    await h.watch('acc_c', 'CA', '1007');
    await h.runDueChecks();
    expect(await h.takeEvents()).toEqual([]);

    // The register fails its probes: one register.unavailable per account watching it, not more.
    failRegister(h.fakes, 'AU');
    h.clock.set('2026-11-22T12:20:00.000Z');
    await probe(20);
    await probe(25);
    const outage = await h.takeEvents();
    expect(outage.map((e) => [e.accountId, e.kind])).toEqual([
      ['acc_a', 'register.unavailable'],
      ['acc_b', 'register.unavailable'],
    ]);
    expect(outage[0].data).toMatchObject({
      country: 'AU',
      status: 'degraded',
      since: '2026-11-22T12:20:00.000Z',
      reason: expect.stringContaining('probe failed'),
      status_url: expect.stringMatching(/\/api\/public\/v1\/status$/),
      watched_companies: 1,
    });

    // The company falls due during the outage: it is not read, and nothing is said about it.
    const reads = h.fakes.AU_API.requests.length;
    h.clock.set('2026-11-22T13:30:00.000Z');
    expect((await h.runDueChecks()).filter((r) => r.entityId.startsWith('ent_au'))).toEqual([
      { entityId: 'ent_au_26154482283', outcome: 'skipped' },
    ]);
    expect(h.fakes.AU_API.requests.length).toBe(reads + 0);
    expect(await h.takeEvents()).toEqual([]);

    // The register comes back, renamed meanwhile: two good probes, then the held-back check runs.
    h.fakes.AU_API.reset();
    h.fakes.AU_API.get('/json/AbnDetails.aspx', {
      fixture: 'registers/au/abr-json-abndetails-26154482283-derived-renamed-moved.jsonp',
    });
    h.clock.set('2026-11-22T13:40:00.000Z');
    await probe(40);
    h.clock.set('2026-11-22T13:45:00.000Z');
    await probe(45);
    // Readable again: register.available, with the outage's start, end and duration, before any catching up.
    const back = await h.takeEvents();
    expect(back.map((e) => [e.accountId, e.kind])).toEqual([
      ['acc_a', 'register.available'],
      ['acc_b', 'register.available'],
    ]);
    expect(back[0].data).toMatchObject({
      country: 'AU',
      status: 'live',
      outage: {
        started_at: '2026-11-22T12:20:00.000Z',
        ended_at: '2026-11-22T13:45:00.000Z',
        duration_seconds: 5100,
      },
      status_url: expect.stringMatching(/\/api\/public\/v1\/status$/),
      watched_companies: 1,
    });
    // A probe that keeps succeeding says nothing more.
    await probe(50);
    expect(await h.takeEvents()).toEqual([]);
    h.clock.set('2026-11-22T13:46:00.000Z');
    await h.runDueChecks();
    const caughtUp = await h.takeEvents();
    expect(caughtUp.map((e) => [e.accountId, e.kind])).toEqual([
      ['acc_a', 'company.name_changed'],
      ['acc_b', 'company.name_changed'],
      ['acc_a', 'company.address_changed'],
      ['acc_b', 'company.address_changed'],
    ]);
    expect((caughtUp[0].data.change as { observed_at: string }).observed_at).toBe('2026-11-22T13:46:00.000Z');
    expect(h.dataSource).toBeInstanceOf(DataSource);
  });
});

describe('scheduled checks of a feed register', () => {
  let h: DetectionHarness;
  beforeAll(async () => {
    h = await startDetectionHarness();
  });
  afterAll(() => h.close());

  it('cost no request: confirmed against the feed, no_change only where asked for, each company at its place in the interval', async () => {
    h.fakes.NO_API.get('/enheter/883603362', {
      fixture: 'registers/no/brreg-enhet-883603362-extracted-from-asa-search.json',
    });
    // Derived: the recorded unit under EQUINOR's number (no recorded unit of Equinor exists).
    const equinor = {
      ...JSON.parse(fixture('registers/no/brreg-enhet-883603362-extracted-from-asa-search.json')),
      organisasjonsnummer: '923609016',
      navn: 'EQUINOR ASA',
    };
    h.fakes.NO_API.get('/enheter/923609016', { body: JSON.stringify(equinor), headers: JSON_HEADERS });
    h.fakes.NO_API.get('/oppdateringer/enheter', { body: '{"page":{"size":0}}', headers: JSON_HEADERS });
    await h.setReadable('NO', true);
    await h.watch('acc_quiet', 'NO', '883603362');
    await h.watch('acc_asks', 'NO', '883603362', true);
    await h.runDueChecks();
    const unitReads = () => h.fakes.NO_API.requests.filter((r) => /^\/enheter\/\d+$/.test(r.path)).length;
    expect(unitReads()).toBe(1);
    const due = async () =>
      (
        await h.dataSource.query(
          `SELECT next_check_at, check_outcome FROM company_snapshot WHERE entity_id = 'ent_no_883603362'`,
        )
      )[0];
    const first = await due();

    // Due, but the feed has not been read past the due time: nothing is confirmed yet.
    h.clock.set(new Date(first.next_check_at.getTime() + 1_000));
    await h.runDueChecks();
    expect((await due()).check_outcome).toBe('baseline');
    expect(await h.takeEvents()).toEqual([]);

    await h.feeds.poll('NO');
    await h.runDueChecks();
    const events = await h.takeEvents();
    expect(events.map((e) => [e.accountId, e.kind])).toEqual([['acc_asks', 'company.no_change']]);
    expect(events[0].data).toMatchObject({
      change: null,
      provenance: { source_mode: 'live', source_url: `${h.registers.of('NO').urls.API}/oppdateringer/enheter` },
    });
    const after = await due();
    expect(after.check_outcome).toBe('no_change');
    expect(after.next_check_at.getTime() - first.next_check_at.getTime()).toBe(3_600_000);
    expect(unitReads()).toBe(1);

    // A company nobody asked no_change of is confirmed in bulk, without an event.
    await h.watch('acc_quiet', 'NO', '923609016');
    await h.runDueChecks();
    const second = (
      await h.dataSource.query(`SELECT next_check_at FROM company_snapshot WHERE entity_id = 'ent_no_923609016'`)
    )[0].next_check_at as Date;
    h.clock.set(new Date(second.getTime() + 1_000));
    await h.feeds.poll('NO');
    await h.runDueChecks();
    const quiet = (
      await h.dataSource.query(
        `SELECT next_check_at, check_outcome, check_detail FROM company_snapshot WHERE entity_id = 'ent_no_923609016'`,
      )
    )[0];
    expect(quiet).toMatchObject({
      check_outcome: 'no_change',
      check_detail: expect.stringMatching(/^no entry in the register's change feed up to 20\d\d-/),
    });
    expect(quiet.next_check_at.getTime() - second.getTime()).toBe(3_600_000);
    expect(await h.takeEvents()).toEqual([]);
    expect(unitReads()).toBe(2);
  });
});
