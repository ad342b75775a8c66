import { ManualClock } from '../../platform/clock';
import { connectorBuilder } from '../../../test/support/connectors';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import { QueryTooBroadError } from '../query-too-broad.error';
import { UpstreamError } from '../upstream-error';
import { CZ_PROBE_ICO, CzConnector } from './cz.connector';

const NOW = '2026-07-30T09:15:30.250Z';
const LATER = '2026-07-30T09:15:31.875Z';
const F = 'registers/cz';
const SUBJECT = '/ekonomicke-subjekty';
const VR = '/ekonomicke-subjekty-vr';
const NOT_FOUND = { status: 404, fixture: `${F}/ares-error-404-nenalezeno.json` };
// ARES's body as third-party tests quote it from live answers (no recording of ours: MANIFEST.md).
const TOO_BROAD = 'ares-error-400-vystup-prilis-mnoho-vysledku-constructed-from-third-party-tests.json';
const load = (file: string): any => JSON.parse(fixture(`${F}/${file}`));

// Requests keep the register table's politeness (about four a second): the spec waits for it.
jest.setTimeout(30_000);

describe('CzConnector (ARES) against recorded responses', () => {
  const fake = new FakeRegister();
  const clock = new ManualClock(new Date(NOW));
  const connectors = connectorBuilder('CZ', CzConnector, clock, () => ({
    REGISTER_CZ_API_URL: fake.url,
    REGISTER_TIMEOUT_MS: '300',
    PROBE_TIMEOUT_MS: '300',
  }));
  let connector: CzConnector;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    clock.set(NOW);
    connector = connectors.build();
  });
  afterEach(() => connectors.shutdown());

  it('reads live from the register itself and needs no credential', () => {
    expect(connector.country).toBe('CZ');
    expect(connector.source()).toMatchObject({ kind: 'native_official', official: true });
    expect(connector.unavailableReason()).toBeNull();
  });

  describe('searchByName', () => {
    it('posts the name to /ekonomicke-subjekty/vyhledat and reads the hits (derived page)', async () => {
      fake.post(`${SUBJECT}/vyhledat`, { fixture: `${F}/ares-ekonomicke-subjekty-vyhledat-derived-3-hits.json` });
      const results = await connector.searchByName('  Asseco ', 2);
      expect(JSON.parse(fake.requests[0].body)).toEqual({ obchodniJmeno: 'Asseco', start: 0, pocet: 2 });
      expect(results).toHaveLength(2);
      expect(results[0]).toEqual({
        name: 'Asseco Central Europe, a.s.',
        registrationNumber: '27074358',
        country: 'CZ',
        status: 'Aktivní',
        statusCategory: 'active',
        legalForm: 'Akciová společnost',
        address: 'Budějovická 778/3a, Michle, 14000 Praha 4',
        city: 'Praha',
        incorporationDate: '2003-08-06',
        extra: { pravniForma: '121', primarniZdroj: 'vr', dic: 'CZ27074358', datumAktualizace: '2024-01-26' },
        source: {
          register: 'ARES – Administrativní registr ekonomických subjektů (Ministerstvo financí)',
          url: 'https://ares.gov.cz/ekonomicke-subjekty?ico=27074358',
          official: true,
          kind: 'native_official',
          retrievedAt: NOW,
        },
      });
      expect(results[1]).toMatchObject({ name: 'SAD s.r.o.', registrationNumber: '25063677' });
    });

    it('sends only fields of the OpenAPI search filter', async () => {
      fake.post(`${SUBJECT}/vyhledat`, { fixture: `${F}/ares-ekonomicke-subjekty-vyhledat-derived-3-hits.json` });
      await connector.searchByName('Asseco', 5_000);
      const openapi = load('ares-openapi-rest-verejne-1.3.0.json');
      const schemas = openapi.components.schemas;
      const allowed = {
        ...schemas.StrankovaniARazeni.properties,
        ...schemas.EkonomickeSubjektyZakladFiltr.allOf[1].properties,
      };
      const sent = JSON.parse(fake.requests[0].body);
      for (const key of Object.keys(sent)) expect(allowed).toHaveProperty(key);
      expect(sent.pocet).toBe(1_000);
      expect(openapi.paths[`${SUBJECT}/vyhledat`]).toHaveProperty('post');
    });

    it('answers NENALEZENO (404) with no results', async () => {
      fake.post(`${SUBJECT}/vyhledat`, NOT_FOUND);
      await expect(connector.searchByName('jibberish', 10)).resolves.toEqual([]);
    });

    it('says plainly that ARES refused a search matching more than 1,000 subjects: too broad, not a failure', async () => {
      fake.post(`${SUBJECT}/vyhledat`, { status: 400, fixture: `${F}/${TOO_BROAD}` });
      const err = await connector.searchByName('s.r.o.', 10).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(QueryTooBroadError);
      expect(err).toMatchObject({
        country: 'CZ',
        message:
          '"s.r.o." is too broad for ARES, which refuses a name search matching more than 1,000 subjects: add words of the name, or search by IČO.',
      });
      // Answered at once: a refusal is not retried.
      expect(fake.requests).toHaveLength(1);
    });
  });

  describe('lookup', () => {
    it('reads the subject and its officers from VR, taking the reading time when the subject arrives', async () => {
      fake.get(`${SUBJECT}/25063677`, () => {
        clock.set(LATER);
        return { fixture: `${F}/ares-ekonomicke-subjekty-ico-25063677-sad-sro.json` };
      });
      fake.get(`${VR}/25063677`, { fixture: `${F}/ares-ekonomicke-subjekty-vr-ico-25063677-sad-sro.json` });
      const detail = await connector.lookup('25063677');
      expect(detail).toMatchObject({
        name: 'SAD s.r.o.',
        registrationNumber: '25063677',
        status: 'Aktivní',
        legalForm: 'Společnost s ručením omezeným',
        address: 'Daminěves 35, 27704 Cítov',
        city: 'Cítov',
        incorporationDate: '1996-07-08',
        source: { url: 'https://ares.gov.cz/ekonomicke-subjekty?ico=25063677', retrievedAt: LATER },
      });
      expect(detail!.officers).toHaveLength(6);
      expect(detail!.officers![1]).toEqual({
        name: 'Koen Quaghebeur',
        role: 'jednatel',
        kind: 'person',
        appointedOn: '2010-09-15',
        resignedOn: null,
      });
      expect(fake.requests.map((r) => r.path)).toEqual([`${SUBJECT}/25063677`, `${VR}/25063677`]);
    });

    it('does not ask VR for a subject ARES says is not in it (a sole trader): officers null', async () => {
      fake.get(`${SUBJECT}/01603094`, { fixture: `${F}/ares-ekonomicke-subjekty-ico-01603094-fyzicka-osoba.json` });
      const detail = await connector.lookup('01603094');
      expect(detail).toMatchObject({ name: 'Bc. Kristýna Vokálová', officers: null });
      expect(fake.requests).toHaveLength(1);
    });

    it('reads officers as null when VR answers NENALEZENO', async () => {
      fake.get(`${SUBJECT}/27074358`, { fixture: `${F}/ares-ekonomicke-subjekty-ico-27074358-asseco.json` });
      fake.get(`${VR}/27074358`, NOT_FOUND);
      await expect(connector.lookup('27074358')).resolves.toMatchObject({
        name: 'Asseco Central Europe, a.s.',
        officers: null,
      });
    });

    it('reads a ceased subject (derived) as dissolved', async () => {
      fake.get(`${SUBJECT}/25063677`, { fixture: `${F}/ares-ekonomicke-subjekty-ico-25063677-derived-zanikly.json` });
      fake.get(`${VR}/25063677`, { fixture: `${F}/ares-ekonomicke-subjekty-vr-ico-25063677-sad-sro.json` });
      await expect(connector.lookup('25063677')).resolves.toMatchObject({
        status: 'Zaniklý',
        statusCategory: 'dissolved',
      });
    });

    it('answers NENALEZENO with null and asks nothing more', async () => {
      fake.get(`${SUBJECT}/25596641`, NOT_FOUND);
      await expect(connector.lookup('25596641')).resolves.toBeNull();
      expect(fake.requests).toHaveLength(1);
    });

    it('asks nothing for a number that is not 8 digits', async () => {
      await expect(connector.lookup('1603094')).resolves.toBeNull();
      await expect(connector.readRecord('../ekonomicke-subjekty-vr/25063677')).resolves.toBeNull();
      expect(fake.requests).toHaveLength(0);
    });

    it('refuses a subject, or a VR record, that is not the one asked for', async () => {
      fake.get(`${SUBJECT}/25834151`, { fixture: `${F}/ares-ekonomicke-subjekty-ico-25063677-sad-sro.json` });
      await expect(connector.lookup('25834151')).rejects.toMatchObject({ errorClass: 'invalid_response' });
      fake.get(`${SUBJECT}/25834151`, { fixture: `${F}/ares-ekonomicke-subjekty-ico-25834151-hella.json` });
      fake.get(`${VR}/25834151`, { fixture: `${F}/ares-ekonomicke-subjekty-vr-ico-25063677-sad-sro.json` });
      await expect(connector.lookup('25834151')).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });

    it('fails the lookup when VR fails, rather than answer without officers', async () => {
      fake.get(`${SUBJECT}/25834151`, { fixture: `${F}/ares-ekonomicke-subjekty-ico-25834151-hella.json` });
      fake.get(`${VR}/25834151`, { status: 503, body: 'Service Unavailable' });
      await expect(connector.lookup('25834151')).rejects.toMatchObject({ errorClass: 'http_5xx', httpStatus: 503 });
    });
  });

  it('readRecord reads the subject alone, in one request', async () => {
    fake.get(`${SUBJECT}/25834151`, { fixture: `${F}/ares-ekonomicke-subjekty-ico-25834151-hella.json` });
    const record = await connector.readRecord('25834151');
    expect(record).toMatchObject({
      name: 'HELLA AUTOTECHNIK NOVA, s.r.o.',
      address: 'Družstevní 338/16, 78985 Mohelnice',
    });
    expect(record).not.toHaveProperty('officers');
    expect(fake.requests.map((r) => r.path)).toEqual([`${SUBJECT}/25834151`]);
  });

  it('reads only paths of the ARES OpenAPI document', () => {
    const paths = load('ares-openapi-rest-verejne-1.3.0.json').paths;
    for (const path of [`${SUBJECT}/{ico}`, `${VR}/{ico}`]) expect(paths[path]).toHaveProperty('get');
  });

  describe('register failures', () => {
    it('HTTP 500 (after one safe retry) → http_5xx, with what ARES said but no Java exception', async () => {
      fake.post(`${SUBJECT}/vyhledat`, {
        status: 500,
        fixture: `${F}/ares-error-500-obecna-chyba-bad-vyhledat-body.json`,
      });
      const err = await connector.searchByName('Asseco', 5).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err).toMatchObject({
        errorClass: 'http_5xx',
        httpStatus: 500,
        message: 'register answered HTTP 500: ARES answered OBECNA_CHYBA, a general server error.',
      });
      expect(fake.requests).toHaveLength(2);
    });

    it('HTTP 429 → rate_limited', async () => {
      fake.get(`${SUBJECT}/25834151`, { status: 429, body: '', headers: { 'Retry-After': '0' } });
      await expect(connector.readRecord('25834151')).rejects.toMatchObject({ errorClass: 'rate_limited' });
    });

    it('a 404 that is not NENALEZENO (a moved endpoint) → http_4xx, not "no such company"', async () => {
      fake.get(`${SUBJECT}/25834151`, { status: 404, body: '{"status":404,"error":"Not Found","path":"/x"}' });
      await expect(connector.readRecord('25834151')).rejects.toMatchObject({ errorClass: 'http_4xx', httpStatus: 404 });
    });

    it('400 CHYBA_VSTUPU → http_4xx with the reason', async () => {
      fake.get(`${SUBJECT}/25834151`, { status: 400, fixture: `${F}/ares-error-400-chyba-vstupu-ico-7-digits.json` });
      await expect(connector.readRecord('25834151')).rejects.toMatchObject({
        errorClass: 'http_4xx',
        message: expect.stringContaining('Není vyplněn správný formát IČO.'),
      });
    });

    it('no answer within REGISTER_TIMEOUT_MS → timeout', async () => {
      fake.get(`${SUBJECT}/25834151`, {
        delayMs: 1_500,
        fixture: `${F}/ares-ekonomicke-subjekty-ico-25834151-hella.json`,
      });
      await expect(connector.readRecord('25834151')).rejects.toMatchObject({ errorClass: 'timeout' });
    });

    it('connection reset → connection_reset', async () => {
      fake.post(`${SUBJECT}/vyhledat`, { reset: true });
      await expect(connector.searchByName('Asseco', 5)).rejects.toMatchObject({ errorClass: 'connection_reset' });
    });

    it('an HTML page where JSON was expected → invalid_response', async () => {
      fake.get(`${SUBJECT}/25834151`, {
        body: '<!DOCTYPE html><html><body>Probíhá údržba</body></html>',
        headers: { 'Content-Type': 'text/html' },
      });
      await expect(connector.readRecord('25834151')).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });

    it('truncated JSON → invalid_response', async () => {
      const text = fixture(`${F}/ares-ekonomicke-subjekty-vr-ico-25834151-hella.json`).slice(0, 4_000);
      fake.get(`${SUBJECT}/25834151`, { fixture: `${F}/ares-ekonomicke-subjekty-ico-25834151-hella.json` });
      fake.get(`${VR}/25834151`, { body: text, headers: { 'Content-Type': 'application/json' } });
      await expect(connector.lookup('25834151')).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });

    it('JSON without the fields needed → invalid_response', async () => {
      fake.post(`${SUBJECT}/vyhledat`, { body: '{"pocetCelkem":1,"ekonomickeSubjekty":[{"obchodniJmeno":"X"}]}' });
      await expect(connector.searchByName('X', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
      fake.post(`${SUBJECT}/vyhledat`, { body: '{"results":[]}' });
      await expect(connector.searchByName('X', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });
  });

  describe('probe', () => {
    it(`reads Ministerstvo financí (${CZ_PROBE_ICO}) and checks the shape of the answer`, async () => {
      // No recorded answer for 00006947: Asseco's recorded subject stands in; the probe checks only its shape.
      fake.get(`${SUBJECT}/${CZ_PROBE_ICO}`, { fixture: `${F}/ares-ekonomicke-subjekty-ico-27074358-asseco.json` });
      await expect(connector.probe()).resolves.toEqual({ httpStatus: 200 });
      expect(fake.requests.map((r) => r.path)).toEqual([`${SUBJECT}/00006947`]);
    });

    it('fails on 503 without retrying', async () => {
      fake.get(`${SUBJECT}/${CZ_PROBE_ICO}`, { status: 503, body: 'Service Unavailable' });
      await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'http_5xx', httpStatus: 503 });
      expect(fake.requests).toHaveLength(1);
    });

    it('fails on NENALEZENO: the probe subject must exist', async () => {
      fake.get(`${SUBJECT}/${CZ_PROBE_ICO}`, NOT_FOUND);
      await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'http_4xx', httpStatus: 404 });
    });
  });
});
