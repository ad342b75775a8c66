import { loadConfig } from '../../app/config';
import { ManualClock } from '../../platform/clock';
import { HttpClientFactory } from '../client/http-client.factory';
import { FakeRegister, FakeResponse, fixture } from '../../../test/support/fake-register';
import type { RegisterConnector } from '../connector';
import { NoRoleFeed } from './no-role-feed';

const F = 'registers/no';

/** The role update page of the fixtures (events 20461001…20461003, Equinor named twice), its events changed by `edit`. */
function rolePage(edit: (events: Array<Record<string, unknown>>) => unknown[] = (events) => events): FakeResponse {
  const events = JSON.parse(fixture(`${F}/brreg-oppdateringer-roller-constructed-from-docs.json`));
  return { body: JSON.stringify(edit(events)), headers: { 'Content-Type': 'application/json' } };
}

describe('NoRoleFeed (/oppdateringer/roller)', () => {
  const fake = new FakeRegister();
  let http: HttpClientFactory;
  let feed: NoRoleFeed;

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
    const clock = new ManualClock(new Date('2026-11-22T12:00:00.000Z'));
    feed = new NoRoleFeed({ settings: registers.of('NO'), config, http, clock, connector: {} as RegisterConnector });
  });
  afterEach(() => http.onApplicationShutdown());

  it('names each unit once and reads on after the last id', async () => {
    fake.get('/oppdateringer/roller', rolePage());
    const page = await feed.read('id:20461000');
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
    const page = await feed.read('id:20461000');
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
    const page = await feed.read('id:20461000');
    expect(page).toEqual({
      entries: [{ registrationNumber: '923609016' }, { registrationNumber: '914375916' }],
      cursor: 'id:20461002',
      more: false,
    });
  });

  it('never moves the cursor back, and keeps it when no event has an id', async () => {
    fake.get('/oppdateringer/roller', rolePage());
    await expect(feed.read('id:20461500')).resolves.toMatchObject({ cursor: 'id:20461500' });
    fake.get(
      '/oppdateringer/roller',
      rolePage((events) => events.map(({ id: _id, ...rest }) => rest)),
    );
    await expect(feed.read('id:20461000')).resolves.toMatchObject({ cursor: 'id:20461000', more: false });
  });

  it('still fails an answer that is not a list of events', async () => {
    fake.get('/oppdateringer/roller', { body: '{"events":[]}', headers: { 'Content-Type': 'application/json' } });
    await expect(feed.read('id:20461000')).rejects.toMatchObject({ errorClass: 'invalid_response' });
  });
});
