import { loadConfig } from '../../app/config';
import { ManualClock } from '../../platform/clock';
import { HttpClientFactory } from '../client/http-client.factory';
import { FakeRegister, FakeResponse, fixture } from '../../../test/support/fake-register';
import type { RegisterConnector } from '../connector';
import { NoRoleFeed } from './no-role-feed';
import { NoUpdateFeed } from './no-update-feed';

const F = 'registers/no';

/** The recorded update page (20 entries, ids 9400339…9400372), its entries changed by `edit`. */
function recordedPage(edit: (items: Array<Record<string, unknown>>) => unknown[] = (items) => items): FakeResponse {
  const page = JSON.parse(fixture(`${F}/brreg-oppdateringer-enheter-page.json`));
  page._embedded.oppdaterteEnheter = edit(page._embedded.oppdaterteEnheter);
  return { body: JSON.stringify(page), headers: { 'Content-Type': 'application/json' } };
}

const RECORDED_ORGNRS = JSON.parse(
  fixture(`${F}/brreg-oppdateringer-enheter-page.json`),
)._embedded.oppdaterteEnheter.map((i: { organisasjonsnummer: string }) => i.organisasjonsnummer);

/** The role update page of the fixtures (events 20461001…20461003, Equinor named twice), its events changed by `edit`. */
function rolePage(edit: (events: Array<Record<string, unknown>>) => unknown[] = (events) => events): FakeResponse {
  const events = JSON.parse(fixture(`${F}/brreg-oppdateringer-roller-constructed-from-docs.json`));
  return { body: JSON.stringify(edit(events)), headers: { 'Content-Type': 'application/json' } };
}

describe("Brønnøysund's update feeds against recorded pages", () => {
  const fake = new FakeRegister();
  let http: HttpClientFactory;
  let updates: NoUpdateFeed;
  let roles: NoRoleFeed;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    const { app: config, registers } = loadConfig({ REGISTER_NO_API_URL: fake.url, REGISTER_TIMEOUT_MS: '300' });
    http = new HttpClientFactory(config, registers);
    const deps = {
      settings: registers.of('NO'),
      config,
      http,
      clock: new ManualClock(new Date('2026-11-22T12:00:00.000Z')),
      connector: {} as RegisterConnector,
    };
    updates = new NoUpdateFeed(deps);
    roles = new NoRoleFeed(deps);
  });
  afterEach(() => http.onApplicationShutdown());

  describe('units (/oppdateringer/enheter)', () => {
    it('names each unit of the page and reads on from the id after the last', async () => {
      fake.get('/oppdateringer/enheter', recordedPage());
      const page = await updates.read('id:9400339');
      expect(fake.requests[0].query.get('oppdateringsid')).toBe('9400339');
      expect(page.entries.map((e) => e.registrationNumber)).toEqual(RECORDED_ORGNRS);
      expect(page).toMatchObject({ cursor: 'id:9400373', more: false });
    });

    it('passes over an entry without a unit, and still reads on past its id', async () => {
      // The second and the last entries lose their unit.
      fake.get(
        '/oppdateringer/enheter',
        recordedPage((items) =>
          items.map((item, i) =>
            i === 1 || i === items.length - 1
              ? { oppdateringsid: item.oppdateringsid, organisasjonsnummer: null }
              : item,
          ),
        ),
      );
      const page = await updates.read('id:9400339');
      expect(page.entries.map((e) => e.registrationNumber)).toEqual(
        RECORDED_ORGNRS.filter((_: string, i: number) => i !== 1 && i !== RECORDED_ORGNRS.length - 1),
      );
      expect(page).toMatchObject({ cursor: 'id:9400373', more: false });
    });

    it('an entry without an id moves the cursor no further than the ids before it', async () => {
      // The last entry (9400372) loses its id, the one before it (9400362) its whole content.
      fake.get(
        '/oppdateringer/enheter',
        recordedPage((items) => [
          ...items.slice(0, -2),
          { oppdateringsid: items[items.length - 2].oppdateringsid },
          { organisasjonsnummer: items[items.length - 1].organisasjonsnummer },
        ]),
      );
      const page = await updates.read('id:9400339');
      expect(page.entries.map((e) => e.registrationNumber)).toEqual([
        ...RECORDED_ORGNRS.slice(0, -2),
        RECORDED_ORGNRS[RECORDED_ORGNRS.length - 1],
      ]);
      expect(page).toMatchObject({ cursor: 'id:9400363', more: false });
    });

    it('never moves the cursor back, and keeps it when no entry has an id', async () => {
      fake.get('/oppdateringer/enheter', recordedPage());
      await expect(updates.read('id:9400500')).resolves.toMatchObject({ cursor: 'id:9400500' });
      fake.get(
        '/oppdateringer/enheter',
        recordedPage((items) => items.map(({ oppdateringsid: _id, ...rest }) => rest)),
      );
      await expect(updates.read('id:9400339')).resolves.toMatchObject({ cursor: 'id:9400339', more: false });
    });

    it('still fails a page that is no update page', async () => {
      fake.get('/oppdateringer/enheter', {
        body: '{"_embedded":{"oppdaterteEnheter":{}}}',
        headers: { 'Content-Type': 'application/json' },
      });
      await expect(updates.read('id:9400339')).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });
  });

  describe('roles (/oppdateringer/roller)', () => {
    it('names each unit once and reads on after the last id', async () => {
      fake.get('/oppdateringer/roller', rolePage());
      const page = await roles.read('id:20461000');
      expect(fake.requests[0].query.get('afterId')).toBe('20461000');
      expect(page).toEqual({
        entries: [{ registrationNumber: '923609016' }, { registrationNumber: '914375916' }],
        cursor: 'id:20461003',
        more: false,
      });
    });

    it('passes over an event without a unit, and still reads on after its id', async () => {
      fake.get(
        '/oppdateringer/roller',
        rolePage((events) => [...events, { id: 20461004, data: {} }]),
      );
      const page = await roles.read('id:20461000');
      expect(page).toEqual({
        entries: [{ registrationNumber: '923609016' }, { registrationNumber: '914375916' }],
        cursor: 'id:20461004',
        more: false,
      });
    });

    it('an event without an id moves the cursor no further than the ids before it', async () => {
      // The second event loses its unit; the last one its id.
      fake.get(
        '/oppdateringer/roller',
        rolePage(([first, second, third]) => [
          first,
          { ...second, data: {} },
          { ...third, id: undefined, data: { organisasjonsnummer: '914375916' } },
        ]),
      );
      const page = await roles.read('id:20461000');
      expect(page).toEqual({
        entries: [{ registrationNumber: '923609016' }, { registrationNumber: '914375916' }],
        cursor: 'id:20461002',
        more: false,
      });
    });

    it('never moves the cursor back, and keeps it when no event has an id', async () => {
      fake.get('/oppdateringer/roller', rolePage());
      await expect(roles.read('id:20461500')).resolves.toMatchObject({ cursor: 'id:20461500' });
      fake.get(
        '/oppdateringer/roller',
        rolePage((events) => events.map(({ id: _id, ...rest }) => rest)),
      );
      await expect(roles.read('id:20461000')).resolves.toMatchObject({ cursor: 'id:20461000', more: false });
    });

    it('still fails an answer that is not a list of events', async () => {
      fake.get('/oppdateringer/roller', { body: '{"events":[]}', headers: { 'Content-Type': 'application/json' } });
      await expect(roles.read('id:20461000')).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });
  });
});
