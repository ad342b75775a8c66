import { ManualClock } from '../../platform/clock';
import { connectorBuilder, upstreamFailure } from '../../../test/support/connectors';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import {
  PL_GYM,
  PL_NOT_FOUND,
  PL_ORLEN,
  PL_ORLEN_NIP,
  PL_REMOVED,
  PL_UNKNOWN,
  PL_WOSP,
  plCurrent,
  plFull,
  routeFakePlRegister,
} from '../../../test/support/fake-pl-register';
import { NameSearchUnsupportedError } from '../name-search-unsupported.error';
import { KRS_REGISTERED, KRS_REMOVED } from './krs-parsers';
import { PlConnector } from './pl.connector';

const NOW = '2026-09-24T08:15:30.250Z';
const NAME = 'Krajowy Rejestr Sądowy (Ministerstwo Sprawiedliwości)';
const GYM_TEXT = fixture('registers/pl/krs-odpisaktualny-P-0001268296-gym-center-sp-zoo.json');

describe('PlConnector (KRS Open API) against the recorded responses on loopback', () => {
  const fake = new FakeRegister();
  const clock = new ManualClock(new Date(NOW));
  const connectors = connectorBuilder('PL', PlConnector, clock, () => ({
    REGISTER_PL_API_URL: fake.url,
    REGISTER_TIMEOUT_MS: '1000',
    PROBE_TIMEOUT_MS: '500',
  }));
  let connector: PlConnector;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    routeFakePlRegister(fake);
    connector = connectors.build();
  });
  afterEach(() => connectors.shutdown());

  /** The extracts asked for, as `Extract/number?register`. */
  const asked = () => fake.requests.map((r) => `${r.path.slice(1)}?${r.query.get('rejestr')}`);

  it('reads live from the register itself, keyless', () => {
    expect(connector.country).toBe('PL');
    expect(connector.source()).toEqual({
      kind: 'native_official',
      official: true,
      description: 'the KRS Open API of the Ministry of Justice',
    });
    expect(connector.unavailableReason()).toBeNull();
  });

  it('answers a name search honestly, without a request: KRS has none, the dataset answers', async () => {
    const err = await connector.searchByName('ORLEN', 10).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NameSearchUnsupportedError);
    expect(err).toMatchObject({
      country: 'PL',
      code: 'name_search_unsupported',
      message:
        'KRS is searched by KRS number only (its open API has no name search): the name was looked for in the data this service holds',
    });
    expect(fake.requests).toEqual([]);
  });

  it('looks an entity of register P up with one request, provenance pointing at the extract', async () => {
    const detail = await connector.lookup(PL_GYM);
    expect(asked()).toEqual([`OdpisAktualny/${PL_GYM}?P`]);
    expect(fake.requests[0].query.get('format')).toBe('json');
    expect(fake.requests[0].headers['user-agent']).toMatch(/^RegistryLookup\//);
    expect(detail).toEqual({
      name: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      registrationNumber: PL_GYM,
      country: 'PL',
      status: KRS_REGISTERED,
      statusCategory: 'active',
      legalForm: 'SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      address: 'UL. OSTATNIA 1D, 31-444 KRAKÓW',
      city: 'KRAKÓW',
      incorporationDate: '2026-09-22',
      extra: {
        krsRegister: 'P',
        krsRegisterName: 'REJESTR PRZEDSIĘBIORCÓW',
        registeredInKrsOn: '2026-09-22',
        nip: '9452336418',
        regon: '545772924',
        otherNumbers: ['9452336418', '545772924'],
      },
      officers: [
        { name: 'D***** K******** M****', role: 'PREZES ZARZĄDU', kind: 'person', appointedOn: null, resignedOn: null },
      ],
      source: {
        register: NAME,
        url: `${fake.url}/OdpisAktualny/${PL_GYM}?rejestr=P&format=json`,
        official: true,
        kind: 'native_official',
        retrievedAt: NOW,
      },
    });
  });

  it('tries register S when P has no such entity (a user does not know which)', async () => {
    const detail = await connector.lookup(PL_WOSP);
    expect(asked()).toEqual([`OdpisAktualny/${PL_WOSP}?P`, `OdpisAktualny/${PL_WOSP}?S`]);
    expect(detail).toMatchObject({
      name: 'FUNDACJA WIELKA ORKIESTRA ŚWIĄTECZNEJ POMOCY',
      legalForm: 'FUNDACJA',
      extra: { krsRegister: 'S', nip: '5213003700' },
      source: { url: `${fake.url}/OdpisAktualny/${PL_WOSP}?rejestr=S&format=json` },
    });
    // Board members as the ministry masks them; the supervisory council is not the board.
    expect(detail?.officers?.map((o) => [o.name, o.role])).toEqual([
      ['J**** Z******* O*****', 'PREZES ZARZĄDU'],
      ['L**** N***********-O*****', 'CZŁONEK ZARZĄDU'],
      ['P**** L***** B*********', 'CZŁONEK ZARZĄDU'],
      ['B***** J******* M**********', 'WICEPREZES ZARZĄDU'],
    ]);
  });

  it('asks the register an entity was found in first the next time', async () => {
    await connector.lookup(PL_WOSP);
    await connector.readRecord(PL_WOSP);
    expect(asked()).toEqual([`OdpisAktualny/${PL_WOSP}?P`, `OdpisAktualny/${PL_WOSP}?S`, `OdpisAktualny/${PL_WOSP}?S`]);
  });

  it('answers null when neither register has the number (the recorded 404 from both)', async () => {
    await expect(connector.lookup(PL_UNKNOWN)).resolves.toBeNull();
    await expect(connector.readRecord(PL_UNKNOWN)).resolves.toBeNull();
    expect(asked()).toEqual([
      `OdpisAktualny/${PL_UNKNOWN}?P`,
      `OdpisAktualny/${PL_UNKNOWN}?S`,
      `OdpisAktualny/${PL_UNKNOWN}?P`,
      `OdpisAktualny/${PL_UNKNOWN}?S`,
    ]);
  });

  it('reads a removed entity (empty current extract) from its full extract as struck off', async () => {
    const detail = await connector.lookup(PL_REMOVED);
    expect(asked()).toEqual([`OdpisAktualny/${PL_REMOVED}?P`, `OdpisPelny/${PL_REMOVED}?P`]);
    expect(detail).toMatchObject({
      registrationNumber: PL_REMOVED,
      status: KRS_REMOVED,
      statusCategory: 'struck_off',
      extra: { removedOn: '2022-08-12', removalFinalOn: '2022-09-02' },
      officers: [],
      source: { url: `${fake.url}/OdpisPelny/${PL_REMOVED}?rejestr=P&format=json`, official: true },
    });
  });

  it('does not guess a status when the current extract is empty but the full one shows no removal', async () => {
    fake.get(plCurrent(PL_GYM, 'P'), { status: 204 });
    await expect(connector.readRecord(PL_GYM)).resolves.toMatchObject({
      name: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
      status: null,
      statusCategory: 'unknown',
      extra: { currentExtractEmpty: true },
    });
    expect(asked()).toEqual([`OdpisAktualny/${PL_GYM}?P`, `OdpisPelny/${PL_GYM}?P`]);
  });

  it('reads the record alone for change detection (same parsing and provenance, no officers)', async () => {
    const record = await connector.readRecord(PL_ORLEN);
    expect(record).not.toHaveProperty('officers');
    expect(record).toMatchObject({ name: 'ORLEN SPÓŁKA AKCYJNA', source: { retrievedAt: NOW } });
  });

  it.each([
    [PL_ORLEN_NIP, 'NIP'],
    ['610188201', 'REGON'],
    ['61018820100000', 'REGON'],
  ])(
    'sends no NIP or REGON to KRS (%s): lookup says why in its own words, readRecord has nothing',
    async (n, label) => {
      const err = await connector.lookup(n).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(NameSearchUnsupportedError);
      expect((err as NameSearchUnsupportedError).message).toContain(`cannot be asked for a ${label}`);
      expect((err as NameSearchUnsupportedError).notFound).toMatch(
        new RegExp(`^KRS is searched by KRS number only, and no KRS number was found for ${label} \\d+ in the data`),
      );
      await expect(connector.readRecord(n)).resolves.toBeNull();
      expect(fake.requests).toEqual([]);
    },
  );

  it('refuses an answer about another entity or register', async () => {
    fake.get(plCurrent(PL_ORLEN, 'P'), { body: GYM_TEXT });
    expect((await upstreamFailure(connector.lookup(PL_ORLEN))).errorClass).toBe('invalid_response');
    fake.get(plCurrent(PL_WOSP, 'P'), { fixture: 'registers/pl/krs-odpisaktualny-S-0000030897-wosp-fundacja.json' });
    expect((await upstreamFailure(connector.lookup(PL_WOSP))).errorClass).toBe('invalid_response');
  });

  it.each([
    ['a 404 without the register body (a wrong address)', { status: 404, body: '<html>404</html>' }, 'http_4xx'],
    ['429', { status: 429, body: '{"title":"Too Many Requests","status":429}' }, 'rate_limited'],
    ['500', { status: 500, body: '{"title":"Internal Server Error","status":500}' }, 'http_5xx'],
    ['503 with an HTML page', { status: 503, body: '<html>Przerwa</html>' }, 'http_5xx'],
    ['an HTML page with 200', { body: '<html><body>Przerwa techniczna</body></html>' }, 'invalid_response'],
    [
      'a truncated extract',
      { body: GYM_TEXT.slice(0, 1500), headers: { 'Content-Type': 'application/json' } },
      'invalid_response',
    ],
    ['an empty 200', { body: '', headers: { 'Content-Type': 'application/json' } }, 'invalid_response'],
    [
      'a bulletin instead of an extract',
      { body: '["28860"]', headers: { 'Content-Type': 'application/json' } },
      'invalid_response',
    ],
  ])('fails with UpstreamError on %s', async (_what, answer, errorClass) => {
    fake.get(plCurrent(PL_ORLEN, 'P'), answer);
    expect((await upstreamFailure(connector.lookup(PL_ORLEN))).errorClass).toBe(errorClass);
  });

  it('retries a 429 once, honouring Retry-After, before failing', async () => {
    fake.get(plCurrent(PL_ORLEN, 'P'), { status: 429, body: '{}', headers: { 'Retry-After': '0' } });
    expect((await upstreamFailure(connector.lookup(PL_ORLEN))).errorClass).toBe('rate_limited');
    expect(asked()).toEqual([`OdpisAktualny/${PL_ORLEN}?P`, `OdpisAktualny/${PL_ORLEN}?P`]);
  });

  it('fails when a removed entity has no full extract', async () => {
    fake.get(plFull(PL_REMOVED, 'P'), PL_NOT_FOUND);
    await expect(connector.lookup(PL_REMOVED)).rejects.toMatchObject({
      errorClass: 'invalid_response',
      httpStatus: 404,
    });
  });

  it('probes one known extract of register P', async () => {
    await expect(connector.probe()).resolves.toEqual({ httpStatus: 200 });
    expect(asked()).toEqual([`OdpisAktualny/${PL_ORLEN}?P`]);
    fake.get(plCurrent(PL_ORLEN, 'P'), PL_NOT_FOUND);
    await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'http_4xx', httpStatus: 404 });
    fake.get(plCurrent(PL_ORLEN, 'P'), { status: 503, body: '' });
    await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'http_5xx' });
    // The probe is not retried: one request per failure.
    expect(fake.requests).toHaveLength(3);
  });
});
