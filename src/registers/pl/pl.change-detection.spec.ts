import { loadConfig } from '../../app/config';
import { ManualClock } from '../../platform/clock';
import { comparisonKeys, diffSnapshot, watchedValues } from '../../events/monitoring/snapshots/company-diff';
import { normalizeName } from '../../dataset/normalize-name';
import { FakeRegister } from '../../../test/support/fake-register';
import { PL_BULLETIN_DAY, PL_GYM, plCurrent, routeFakePlRegister } from '../../../test/support/fake-pl-register';
import { HttpClientFactory } from '../client/http-client.factory';
import type { ChangeSourceDeps } from '../change-detection';
import { REGISTERS } from '../registers';
import { KRS_REGISTERED } from './krs-parsers';
import { PlBiuletynFeed } from './pl-biuletyn-feed';
import { PL_CHANGE_DETECTION } from './pl.change-detection';
import { PlConnector } from './pl.connector';
import { PL_DEFINITION } from './pl.definition';
import { PL_REGISTER } from './pl.register';

const F = 'registers/pl';

describe('PL register and change detection plan', () => {
  const fake = new FakeRegister();
  let http: HttpClientFactory;
  let deps: ChangeSourceDeps;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    routeFakePlRegister(fake);
    const { app: config, registers } = loadConfig({ REGISTER_PL_API_URL: fake.url });
    http = new HttpClientFactory(config, registers);
    // Just after midnight in Warsaw: the day of the recorded bulletin is over.
    const clock = new ManualClock(new Date('2026-09-23T00:20:00+02:00'));
    const settings = registers.of('PL');
    deps = { settings, config, http, clock, connector: new PlConnector({ settings, config, http, clock }) };
  });
  afterEach(() => http.onApplicationShutdown());

  it('is a keyless feed read through the API endpoint', () => {
    expect(PL_CHANGE_DETECTION.mode(deps.settings)).toBe('feed');
    expect(PL_CHANGE_DETECTION.readEndpoint(deps.settings)).toBe('API');
    expect(PL_CHANGE_DETECTION.readme.credentials).toBe('none');
    expect(Object.keys(PL_DEFINITION.endpoints)).toEqual([PL_CHANGE_DETECTION.readEndpoint(deps.settings)]);
    const feed = PL_CHANGE_DETECTION.createFeed!(deps);
    expect(feed).toBeInstanceOf(PlBiuletynFeed);
    expect(feed.url).toBe(`${fake.url}/BiuletynGodzinowy`);
  });

  it.each([
    ['krs-odpisaktualny-P-0001268296-derived-renamed-moved.json', ['name', 'address']],
    ['krs-odpisaktualny-P-0001268296-derived-w-likwidacji.json', ['name', 'status']],
  ])('finds a watched entity named by the daily bulletin and its changes on re-read (%s)', async (changed, fields) => {
    const before = watchedValues((await deps.connector.readRecord(PL_GYM))!);
    expect(before.status).toBe(KRS_REGISTERED);

    const page = await PL_CHANGE_DETECTION.createFeed!(deps).read(`${PL_BULLETIN_DAY}T23`);
    expect(fake.requests.at(-1)!.path).toBe(`/Biuletyn/${PL_BULLETIN_DAY}`);
    expect(page.cursor).toBe('2026-09-23T00');
    // Named twice by the bulletin, once among the entries.
    expect(page.entries.filter((e) => e.registrationNumber === PL_GYM)).toEqual([{ registrationNumber: PL_GYM }]);

    fake.get(plCurrent(PL_GYM, 'P'), { fixture: `${F}/${changed}` });
    const after = (await deps.connector.readRecord(PL_GYM))!;
    const changes = diffSnapshot({ values: before, keys: comparisonKeys(before) }, watchedValues(after));
    expect(changes.map((c) => c.field)).toEqual(fields);
    for (const c of changes) expect(c.previous).not.toBe(c.current);
  });

  it('is in the register table, with its definition, connector, identifiers, (no) bulk files, name words and detection', () => {
    expect(REGISTERS.PL).toBe(PL_REGISTER);
    expect(PL_REGISTER.definition).toBe(PL_DEFINITION);
    expect(PL_REGISTER.createConnector(deps)).toBeInstanceOf(PlConnector);
    expect(PL_REGISTER.recognizeIdentifier('0000028860')).toMatchObject({ kind: 'number', scheme: 'krs' });
    expect(PL_REGISTER.bulkFormats).toEqual([]);
    expect(PL_REGISTER.changeDetection).toBe(PL_CHANGE_DETECTION);
    expect(normalizeName('SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ').split(' ')).toEqual(
      expect.arrayContaining(['spolka', 'ograniczona', 'odpowiedzialnoscia']),
    );
  });

  it('gives the simulator the wording the parsers give the register (statuses, legal forms, officer roles)', () => {
    expect(PL_REGISTER.simulation).toEqual({
      status: { active: KRS_REGISTERED, inactive: 'W LIKWIDACJI' },
      legalFormPairs: [['SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ', 'SPÓŁKA AKCYJNA']],
      officer: { name: 'Jan Kowalski', role: 'PREZES ZARZĄDU' },
    });
  });

  it('describes the register as the table needs it', () => {
    expect(PL_DEFINITION).toMatchObject({
      country: 'PL',
      countryName: 'Poland',
      short: 'KRS',
      provides: { officers: true, filings: false, monitoring: true },
      credentials: {},
      requiredCredentials: [],
    });
    expect(PL_DEFINITION.endpoints.API.defaultUrl).toBe('https://api-krs.ms.gov.pl/api/krs');
    expect(PL_DEFINITION.officersNote).toMatch(/masked by the Ministry of Justice/);
    expect(PL_DEFINITION.doesNotPublish).toMatch(/Name search and lookup by NIP or REGON/);
  });
});
