import { loadConfig } from '../../app/config';
import { ManualClock } from '../../platform/clock';
import { HttpClientFactory } from '../client/http-client.factory';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import { NoConnector } from './no.connector';

const NOW = '2026-05-04T09:15:30.250Z';
const LATER = '2026-05-04T09:15:31.875Z';
const F = 'registers/no';

/** The recorded ASA filter search; its items are full Enhet objects, the same object `/enheter/{orgnr}` answers with. */
function asaSearchItem(orgnr: string): string {
  const page = JSON.parse(fixture(`${F}/brreg-enheter-search-organisasjonsform-asa-size5.json`));
  return JSON.stringify(
    page._embedded.enheter.find((e: { organisasjonsnummer: string }) => e.organisasjonsnummer === orgnr),
  );
}

describe('NoConnector (Enhetsregisteret) against recorded responses', () => {
  const fake = new FakeRegister();
  let http: HttpClientFactory;
  let clock: ManualClock;
  let connector: NoConnector;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    const { app: config, registers } = loadConfig({
      REGISTER_NO_API_URL: fake.url,
      REGISTER_TIMEOUT_MS: '300',
      PROBE_TIMEOUT_MS: '300',
    });
    http = new HttpClientFactory(config, registers);
    clock = new ManualClock(new Date(NOW));
    connector = new NoConnector({ settings: registers.of('NO'), config, http, clock });
  });
  afterEach(() => http.onApplicationShutdown());

  it('reads live from the register itself and needs no credential', () => {
    expect(connector.source()).toMatchObject({ kind: 'native_official', official: true });
    expect(connector.unavailableReason()).toBeNull();
  });

  it('searches by name', async () => {
    fake.get('/enheter', { fixture: `${F}/brreg-enheter-search-navn-sesam-page1.json` });
    const results = await connector.searchByName('Sesam', 2);
    expect(fake.requests[0].query.get('navn')).toBe('Sesam');
    expect(fake.requests[0].query.get('size')).toBe('2');
    expect(results).toEqual([
      {
        name: 'SESAM AS',
        registrationNumber: '976030788',
        country: 'NO',
        status: 'Registrert',
        statusCategory: 'active',
        legalForm: 'Aksjeselskap',
        address: 'Elgeseter gate 1, 7030 TRONDHEIM',
        city: 'TRONDHEIM',
        incorporationDate: '1995-12-12',
        extra: { organisasjonsform: 'AS', registreringsdatoEnhetsregisteret: '1996-01-25' },
        source: {
          register: 'Enhetsregisteret (Brønnøysundregistrene)',
          url: 'https://virksomhet.brreg.no/nb/oppslag/enheter/976030788',
          official: true,
          kind: 'native_official',
          retrievedAt: NOW,
        },
      },
      expect.objectContaining({
        name: 'SESAM FAMILIEBARNEHAGE',
        registrationNumber: '971497017',
        legalForm: 'Forening/lag/innretning',
      }),
    ]);
  });

  it('answers an empty search (no _embedded key) with no results', async () => {
    fake.get('/enheter', { fixture: `${F}/brreg-enheter-search-no-hits.json` });
    await expect(connector.searchByName('jibberish', 10)).resolves.toEqual([]);
  });

  it('looks a unit up by number, taking the reading time when the answer arrives', async () => {
    fake.get('/enheter/883603362', () => {
      clock.set(LATER);
      return { body: asaSearchItem('883603362'), headers: { 'Content-Type': 'application/json' } };
    });
    const detail = await connector.lookup('883603362');
    expect(detail).toMatchObject({
      name: 'ABG SUNDAL COLLIER ASA',
      registrationNumber: '883603362',
      status: 'Registrert',
      statusCategory: 'active',
      legalForm: 'Allmennaksjeselskap',
      // Recorded re-serialised by R: literal "<U+00F8>" text, parsed as it is.
      address: 'Rusel<U+00F8>kkveien 26, 0251 OSLO',
      city: 'OSLO',
      incorporationDate: '2001-07-19',
      officers: [],
      source: { url: 'https://virksomhet.brreg.no/nb/oppslag/enheter/883603362', retrievedAt: LATER },
    });
    expect(fake.requestsTo('/enheter/883603362/roller')).toHaveLength(1);
  });

  it('skips null and empty address lines', async () => {
    fake.get('/enheter/112233445', { fixture: `${F}/brreg-enhet-by-orgnr-docs-example-sesam-stasjon.json` });
    const detail = await connector.lookup('112233445');
    expect(detail).toMatchObject({ address: 'Tyvholmen 1, 0101 OSLO', city: 'OSLO', incorporationDate: '2017-10-20' });
  });

  it("reads officers from the roles, persons and companies, in the register's words", async () => {
    // No recorded /enheter/923609016 exists: the recorded Equinor roles are served behind
    // brreg's documentation-example unit; roles are parsed independently of the unit.
    fake.get('/enheter/112233445', { fixture: `${F}/brreg-enhet-by-orgnr-docs-example-sesam-stasjon.json` });
    fake.get('/enheter/112233445/roller', { fixture: `${F}/brreg-enhet-roller-923609016-equinor.json` });
    const detail = await connector.lookup('112233445');
    const officers = detail!.officers!;
    expect(officers).toHaveLength(16);
    expect(officers[0]).toEqual({
      name: 'Anders Opedal',
      role: 'Daglig leder',
      kind: 'person',
      appointedOn: null,
      resignedOn: null,
    });
    expect(officers).toContainEqual({
      name: 'Jon Erik Reinhardsen',
      role: 'Styrets leder',
      kind: 'person',
      appointedOn: null,
      resignedOn: null,
    });
    expect(officers).toContainEqual(
      expect.objectContaining({ name: 'Frank Indreland Gundersen', role: 'Styremedlem' }),
    );
    expect(officers).toContainEqual(expect.objectContaining({ name: 'Finn Bj<U+00F8>rn Ruyter' }));
    expect(officers).toContainEqual(expect.objectContaining({ name: 'Hans Einar Haldorsen', role: 'Varamedlem' }));
    expect(officers[officers.length - 1]).toEqual({
      name: 'ERNST & YOUNG AS',
      role: 'Revisor',
      kind: 'company',
      appointedOn: null,
      resignedOn: null,
    });
    expect(detail!.extra).not.toHaveProperty('fratraadteRoller');
  });

  it('keeps roles marked fratraadt out of the current officers and lists them apart', async () => {
    // Derived from the recorded Equinor roles: one role flagged fratraadt: true.
    const roles = JSON.parse(fixture(`${F}/brreg-enhet-roller-923609016-equinor.json`));
    roles.rollegrupper[1].roller[1].fratraadt = true;
    fake.get('/enheter/112233445', { fixture: `${F}/brreg-enhet-by-orgnr-docs-example-sesam-stasjon.json` });
    fake.get('/enheter/112233445/roller', {
      body: JSON.stringify(roles),
      headers: { 'Content-Type': 'application/json' },
    });
    const detail = await connector.lookup('112233445');
    expect(detail!.officers).toHaveLength(15);
    expect(detail!.officers).not.toContainEqual(expect.objectContaining({ name: 'Anne Drinkwater' }));
    expect(detail!.extra!.fratraadteRoller).toEqual([
      { name: 'Anne Drinkwater', role: 'Styremedlem', kind: 'person', appointedOn: null, resignedOn: null },
    ]);
  });

  it('reads the older roles shape without fratraadt', async () => {
    fake.get('/enheter/112233445', { fixture: `${F}/brreg-enhet-by-orgnr-docs-example-sesam-stasjon.json` });
    fake.get('/enheter/112233445/roller', { fixture: `${F}/brreg-enhet-roller-person-test-env.json` });
    const detail = await connector.lookup('112233445');
    expect(detail!.officers).toEqual([
      { name: 'Ove Olsen', role: 'Styrets leder', kind: 'person', appointedOn: null, resignedOn: null },
    ]);
  });

  it('reads a deleted unit (200 with slettedato) as a dissolved record', async () => {
    fake.get('/enheter/123456789', { fixture: `${F}/brreg-enhet-by-orgnr-deleted-slettedato.json` });
    const detail = await connector.lookup('123456789');
    expect(detail).toMatchObject({
      name: 'SLETTET ENHET AS',
      status: 'Slettet',
      statusCategory: 'dissolved',
      legalForm: 'Frivillig registrert utleiebygg',
      address: null,
      city: null,
      incorporationDate: null,
      extra: { slettedato: '2017-10-20', organisasjonsform: 'UTBG' },
      officers: [],
    });
  });

  it('reads HTTP 410 (removed for legal reasons) as a dissolved record, not "not found"', async () => {
    fake.get('/enheter/999999997', { status: 410, fixture: `${F}/brreg-enhet-410-fjernet-constructed-from-docs.json` });
    const detail = await connector.lookup('999999997');
    expect(detail).toMatchObject({
      name: '999999997',
      registrationNumber: '999999997',
      status: 'Fjernet',
      statusCategory: 'dissolved',
      officers: null,
      extra: { slettedato: '2020-01-01', removedForLegalReasons: true, nameWithheld: true },
      source: { official: true, retrievedAt: NOW },
    });
    expect(fake.requestsTo('/enheter/999999997/roller')).toHaveLength(0);
  });

  it('answers 404 with null and asks nothing more', async () => {
    fake.get('/enheter/976030788', { status: 404, body: '{"status":404,"error":"Not Found"}' });
    await expect(connector.lookup('976030788')).resolves.toBeNull();
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses a unit that is not the one asked for', async () => {
    fake.get('/enheter/976030788', { fixture: `${F}/brreg-enhet-by-orgnr-docs-example-sesam-stasjon.json` });
    await expect(connector.lookup('976030788')).rejects.toMatchObject({ errorClass: 'invalid_response' });
  });

  describe('register failures', () => {
    it('HTTP 500 (after one safe retry) → http_5xx', async () => {
      fake.get('/enheter', { status: 500, body: 'Internal Server Error' });
      const err = await connector.searchByName('Sesam', 5).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err).toMatchObject({ errorClass: 'http_5xx', httpStatus: 500 });
      expect(fake.requests).toHaveLength(2);
    });

    it('no answer within REGISTER_TIMEOUT_MS → timeout', async () => {
      fake.get('/enheter/976030788', {
        delayMs: 1_500,
        fixture: `${F}/brreg-enhet-by-orgnr-docs-example-sesam-stasjon.json`,
      });
      await expect(connector.lookup('976030788')).rejects.toMatchObject({ errorClass: 'timeout' });
    });

    it('connection reset → connection_reset', async () => {
      fake.get('/enheter', { reset: true });
      await expect(connector.searchByName('Sesam', 5)).rejects.toMatchObject({ errorClass: 'connection_reset' });
    });

    it('an HTML page where JSON was expected → invalid_response', async () => {
      fake.get('/enheter/976030788', {
        body: '<!DOCTYPE html><html><body>Vedlikehold</body></html>',
        headers: { 'Content-Type': 'text/html' },
      });
      await expect(connector.lookup('976030788')).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });

    it('JSON without the fields needed → invalid_response', async () => {
      fake.get('/enheter', { body: '{"_embedded":{"enheter":[{"navn":"SESAM AS"}]},"page":{"totalElements":1}}' });
      await expect(connector.searchByName('Sesam', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
      fake.get('/enheter', { body: '{"results":[]}' });
      await expect(connector.searchByName('Sesam', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });

    it('truncated JSON → invalid_response', async () => {
      fake.get('/enheter', { body: fixture(`${F}/brreg-enheter-search-navn-sesam-page1.json`).slice(0, 400) });
      await expect(connector.searchByName('Sesam', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });
  });

  describe('probe', () => {
    it('reads Equinor (923609016)', async () => {
      fake.get('/enheter/923609016', { fixture: `${F}/brreg-enhet-by-orgnr-docs-example-sesam-stasjon.json` });
      await expect(connector.probe()).resolves.toEqual({ httpStatus: 200 });
      expect(fake.requests.map((r) => r.path)).toEqual(['/enheter/923609016']);
    });

    it('fails on 503 without retrying', async () => {
      fake.get('/enheter/923609016', { status: 503, body: 'Service Unavailable' });
      await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'http_5xx', httpStatus: 503 });
      expect(fake.requests).toHaveLength(1);
    });
  });
});
