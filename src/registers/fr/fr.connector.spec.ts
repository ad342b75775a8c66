import { loadConfig } from '../../app/config';
import { ManualClock } from '../../platform/clock';
import { HttpClientFactory } from '../client/http-client.factory';
import { FakeRegister, FakeResponse, fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import { FrConnector } from './fr.connector';
import { FR_FEED_PAGE_SIZE, FrInseeFeed, parisLocal } from './fr-insee-feed';
import { parseDirigeants } from './recherche-entreprises-parsers';

const NOW = '2026-05-04T14:20:00.042Z';
const F = 'registers/fr';
const KEY = 'insee-key-0a9b8c';
const INSEE = '/api-sirene/3.11';
const REGISTER = "Répertoire Sirene de l'INSEE";

/**
 * The recherche-entreprises fixtures were saved as {searchTerms, result}: the register's
 * answer is `result`, and that is all the fake register serves.
 */
function mirror(file: string): FakeResponse {
  return {
    body: JSON.stringify(JSON.parse(fixture(`${F}/${file}`)).result),
    headers: { 'Content-Type': 'application/json' },
  };
}

describe('FrConnector', () => {
  const fake = new FakeRegister();
  let http: HttpClientFactory;
  let clock: ManualClock;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    clock = new ManualClock(new Date(NOW));
  });
  afterEach(() => http.onApplicationShutdown());

  function connector(env: Record<string, string> = {}): FrConnector {
    const { app: config, registers } = loadConfig({
      REGISTER_FR_API_URL: `${fake.url}${INSEE}`,
      REGISTER_FR_MIRROR_URL: fake.url,
      REGISTER_TIMEOUT_MS: '300',
      PROBE_TIMEOUT_MS: '300',
      ...env,
    });
    http = new HttpClientFactory(config, registers);
    return new FrConnector({ settings: registers.of('FR'), config, http, clock });
  }

  describe('without a key: the recherche-entreprises mirror (not official)', () => {
    let fr: FrConnector;
    beforeEach(() => {
      fr = connector();
    });

    it('reports the mirror as its source, so the register shows degraded', () => {
      expect(fr.source()).toEqual({
        kind: 'public_mirror:recherche-entreprises',
        official: false,
        description: expect.stringContaining('rather than INSEE itself'),
      });
      expect(fr.unavailableReason()).toBeNull();
    });

    it('searches by name', async () => {
      fake.get('/search', mirror('recherche-entreprises-search-q-ganymede.json'));
      const results = await fr.searchByName('Ganymede', 10);
      expect(Object.fromEntries(fake.requests[0].query)).toEqual({ q: 'Ganymede', per_page: '10', page: '1' });
      expect(results).toHaveLength(10);
      expect(results[0]).toEqual({
        name: 'GANYMEDE',
        registrationNumber: '901723403',
        country: 'FR',
        status: 'Active',
        statusCategory: 'active',
        legalForm: 'Société civile immobilière',
        address: '58 BOULEVARD ARISTIDE BRIAND, 63000 CLERMONT-FERRAND',
        city: 'CLERMONT-FERRAND',
        incorporationDate: '2021-07-23',
        extra: { natureJuridique: '6540', siretSiege: '90172340300019' },
        source: {
          register: REGISTER,
          url: 'https://annuaire-entreprises.data.gouv.fr/entreprise/901723403',
          official: false,
          kind: 'public_mirror:recherche-entreprises',
          retrievedAt: NOW,
        },
      });
      const bySiren = Object.fromEntries(results.map((r) => [r.registrationNumber, r]));
      expect(bySiren['510973431'].address).toBe(
        'RES LES CAPUCINES BATD, 3 TRAVERSE DES PENITENTS NOIRS, 13600 LA CIOTAT',
      );
      expect(bySiren['940221229'].legalForm).toBe('Autre société civile');
      expect(bySiren['449544444'].legalForm).toBe('Société à responsabilité limitée (sans autre indication)');
      expect(bySiren['981195464']).toMatchObject({
        name: 'GANYMEDE',
        legalForm: 'SAS, société par actions simplifiée',
      });
    });

    it('asks at most 25 per page, the mirror maximum', async () => {
      fake.get('/search', mirror('recherche-entreprises-search-q-ganymede.json'));
      await fr.searchByName('Ganymede', 100);
      expect(fake.requests[0].query.get('per_page')).toBe('25');
    });

    it('looks a SIREN up, with officers from dirigeants', async () => {
      fake.get('/search', mirror('recherche-entreprises-search-q-siren-552032534.json'));
      const detail = await fr.lookup('552032534');
      expect(fake.requests[0].query.get('q')).toBe('552032534');
      expect(detail).toMatchObject({
        name: 'DANONE',
        status: 'Active',
        legalForm: "SA à conseil d'administration (s.a.i.)",
        address: '59-61 RUE LA FAYETTE, 75009 PARIS',
        city: 'PARIS',
        incorporationDate: '1955-01-01',
        source: { official: false, retrievedAt: NOW },
      });
      expect(detail!.officers).toHaveLength(13);
      expect(detail!.officers![0]).toEqual({
        name: 'ANTOINE BERNARD DE SAINT AFFRIQUE',
        role: 'Directeur Général',
        kind: 'person',
        appointedOn: null,
        resignedOn: null,
      });
      expect(detail!.officers).toContainEqual({
        name: 'GÉRALDINE PICAUD (ROAUX)',
        role: 'Administrateur',
        kind: 'person',
        appointedOn: null,
        resignedOn: null,
      });
      expect(detail!.officers!.slice(-2)).toEqual([
        {
          name: 'ERNST & YOUNG AUDIT',
          role: 'Commissaire aux comptes titulaire',
          kind: 'company',
          appointedOn: null,
          resignedOn: null,
        },
        {
          name: 'FORVIS MAZARS SA',
          role: 'Commissaire aux comptes titulaire',
          kind: 'company',
          appointedOn: null,
          resignedOn: null,
        },
      ]);
    });

    it('reads a ceased unit as Cessée (dissolved), with its liquidator', async () => {
      fake.get('/search', mirror('recherche-entreprises-search-q-siren-880878145-cessee.json'));
      await expect(fr.lookup('880878145')).resolves.toMatchObject({
        name: 'GANYMEDE',
        status: 'Cessée',
        statusCategory: 'dissolved',
        legalForm: 'SAS, société par actions simplifiée',
        address: '128 RUE LA BOETIE, 75008 PARIS 8',
        extra: { dateFermeture: '2022-10-22' },
        officers: [
          {
            name: 'XAVIER MARIE ERWAN JOUPPE',
            role: 'Liquidateur',
            kind: 'person',
            appointedOn: null,
            resignedOn: null,
          },
        ],
      });
    });

    it('looks a SIRET up as its unit', async () => {
      fake.get('/search', mirror('recherche-entreprises-search-q-siret-88087814500015.json'));
      const detail = await fr.lookup('88087814500015');
      expect(fake.requests[0].query.get('q')).toBe('88087814500015');
      expect(detail).toMatchObject({ registrationNumber: '880878145', status: 'Cessée' });
    });

    it('answers an unknown number (200 with no results) with null', async () => {
      fake.get('/search', mirror('recherche-entreprises-search-q-siret-no-result.json'));
      await expect(fr.lookup('12345678900003')).resolves.toBeNull();
      await expect(fr.searchByName('nothing like it', 10)).resolves.toEqual([]);
    });

    it('refuses to answer a number with another unit', async () => {
      fake.get('/search', mirror('recherche-entreprises-search-q-siren-552032534.json'));
      await expect(fr.lookup('880878145')).resolves.toBeNull();
    });

    describe('register failures', () => {
      it('HTTP 500 → http_5xx', async () => {
        fake.get('/search', { status: 500, body: '{"erreur":"Internal Server Error"}' });
        await expect(fr.lookup('552032534')).rejects.toMatchObject({ errorClass: 'http_5xx', httpStatus: 500 });
      });

      it('an HTML 429 from the front proxy → rate_limited', async () => {
        fake.get('/search', { status: 429, body: '<html><head><title>429 Too Many Requests</title></head></html>' });
        await expect(fr.searchByName('Ganymede', 5)).rejects.toMatchObject({ errorClass: 'rate_limited' });
      });

      it('a 400 {"erreur"} → http_4xx', async () => {
        fake.get('/search', {
          status: 400,
          body: '{"erreur":"Veuillez indiquer au moins un paramètre de recherche."}',
        });
        await expect(fr.searchByName('a', 5)).rejects.toMatchObject({ errorClass: 'http_4xx', httpStatus: 400 });
      });

      it('timeout, reset and garbage are upstream errors', async () => {
        fake.get('/search', { delayMs: 1_500, ...mirror('recherche-entreprises-search-q-ganymede.json') });
        await expect(fr.searchByName('Ganymede', 5)).rejects.toMatchObject({ errorClass: 'timeout' });
        fake.get('/search', { reset: true });
        await expect(fr.searchByName('Ganymede', 5)).rejects.toMatchObject({ errorClass: 'connection_reset' });
        fake.get('/search', {
          body: '<html><body>Maintenance</body></html>',
          headers: { 'Content-Type': 'text/html' },
        });
        await expect(fr.searchByName('Ganymede', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
        // The wrapped fixture as it is stored is not the register's answer: refused, not misread.
        fake.get('/search', { fixture: `${F}/recherche-entreprises-search-q-ganymede.json` });
        await expect(fr.searchByName('Ganymede', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
      });
    });

    it('probes DANONE on the mirror', async () => {
      fake.get('/search', mirror('recherche-entreprises-search-q-siren-552032534.json'));
      await expect(fr.probe()).resolves.toEqual({ httpStatus: 200 });
      expect(fake.requests[0].query.get('q')).toBe('552032534');
    });
  });

  describe('with REGISTER_FR_API_KEY: INSEE API Sirene (official)', () => {
    let fr: FrConnector;
    beforeEach(() => {
      fr = connector({ REGISTER_FR_API_KEY: KEY });
    });
    /** INSEE's change feed, reading through this connector. */
    const inseeFeed = () => {
      const { app: config, registers } = loadConfig({
        REGISTER_FR_API_URL: `${fake.url}${INSEE}`,
        REGISTER_FR_API_KEY: KEY,
        REGISTER_TIMEOUT_MS: '300',
      });
      return new FrInseeFeed({ settings: registers.of('FR'), config, http, clock, connector: fr });
    };

    it('reports INSEE itself as its source', () => {
      expect(fr.source()).toMatchObject({ kind: 'native_official', official: true });
    });

    it('looks a SIREN up: the unit, then its head office for the address', async () => {
      fake.get(`${INSEE}/siren/130025265`, { fixture: `${F}/insee-sirene-siren-130025265-derived-from-siret.json` });
      fake.get(`${INSEE}/siret/13002526500013`, { fixture: `${F}/insee-sirene-siret-13002526500013.json` });
      const detail = await fr.lookup('130025265');
      expect(fake.requests.map((r) => r.path)).toEqual([`${INSEE}/siren/130025265`, `${INSEE}/siret/13002526500013`]);
      expect(fake.requests.every((r) => r.headers['x-insee-api-key-integration'] === KEY)).toBe(true);
      expect(detail).toEqual({
        name: 'DIRECTION INTERMINISTERIELLE DU NUMERIQUE',
        registrationNumber: '130025265',
        country: 'FR',
        status: 'Active',
        statusCategory: 'active',
        legalForm: "Service central d'un ministère",
        address: '20 AVENUE DE SEGUR, 75007 PARIS 7',
        city: 'PARIS 7',
        incorporationDate: '2017-05-24',
        extra: { categorieJuridique: '7120', siret: '13002526500013' },
        officers: null,
        source: {
          register: REGISTER,
          url: 'https://annuaire-entreprises.data.gouv.fr/entreprise/130025265',
          official: true,
          kind: 'native_official',
          retrievedAt: NOW,
        },
      });
    });

    it('looks a SIRET up in one read', async () => {
      fake.get(`${INSEE}/siret/13002526500013`, { fixture: `${F}/insee-sirene-siret-13002526500013.json` });
      await expect(fr.lookup('13002526500013')).resolves.toMatchObject({
        registrationNumber: '130025265',
        address: '20 AVENUE DE SEGUR, 75007 PARIS 7',
      });
      expect(fake.requests).toHaveLength(1);
    });

    it('searches head offices by name', async () => {
      fake.get(`${INSEE}/siret`, { fixture: `${F}/insee-sirene-siret-search-siege-derived-from-siret.json` });
      const results = await fr.searchByName('Direction interministérielle "du" numérique', 5);
      expect(fake.requests[0].query.get('q')).toBe(
        'raisonSociale:"Direction interministérielle  du  numérique" AND etablissementSiege:true',
      );
      expect(fake.requests[0].query.get('nombre')).toBe('5');
      expect(results).toEqual([
        expect.objectContaining({
          name: 'DIRECTION INTERMINISTERIELLE DU NUMERIQUE',
          source: expect.objectContaining({ official: true }),
        }),
      ]);
    });

    it('feed: leaves out a head office it cannot read and moves on past the page', async () => {
      // Derived from the recorded answer: DINUM between a head office whose siren is 8 digits and one
      // of a natural person under partial diffusion (name "[ND]"), both of which once failed the page.
      const answer = JSON.parse(fixture(`${F}/insee-sirene-siret-search-siege-derived-from-siret.json`));
      const dinum = answer.etablissements[0];
      const shortSiren = { ...dinum, siren: '13002526', siret: '1300252600013' };
      const partial = {
        ...dinum,
        siren: '130025273',
        siret: '13002527300013',
        uniteLegale: {
          ...dinum.uniteLegale,
          statutDiffusionUniteLegale: 'P',
          categorieJuridiqueUniteLegale: '1000',
          denominationUniteLegale: null,
          sigleUniteLegale: null,
          nomUniteLegale: '[ND]',
          prenom1UniteLegale: '[ND]',
          prenomUsuelUniteLegale: '[ND]',
        },
      };
      fake.get(`${INSEE}/siret`, {
        body: JSON.stringify({
          header: { ...answer.header, total: 3, nombre: 3, curseur: '*', curseurSuivant: 'AoEpMTMwMDI1MjY1MDAwMTM=' },
          etablissements: [shortSiren, dinum, partial],
        }),
        headers: { 'Content-Type': 'application/json' },
      });
      const feed = inseeFeed();
      const from = '2026-05-04T16:00:00';
      const page = await feed.read(JSON.stringify({ from }));
      expect(page.entries).toEqual([
        {
          registrationNumber: '130025265',
          record: expect.objectContaining({ name: 'DIRECTION INTERMINISTERIELLE DU NUMERIQUE' }),
        },
      ]);
      // The run is over: the next one starts where this one did, not at the same page again.
      const run = parisLocal(new Date(new Date(NOW).getTime() - 10 * 60_000));
      expect(page).toMatchObject({ cursor: JSON.stringify({ from: run }), more: false });
      await expect(fr.searchByName('Direction interministérielle du numérique', 5)).resolves.toEqual([
        expect.objectContaining({ registrationNumber: '130025265' }),
      ]);
    });

    it('feed: a full page is not the last, however many of its units it leaves out', async () => {
      // Derived from the recorded answer: a page of FR_FEED_PAGE_SIZE head offices, DINUM's with
      // new numbers, the first under partial diffusion (left out, as a natural person's often are).
      const answer = JSON.parse(fixture(`${F}/insee-sirene-siret-search-siege-derived-from-siret.json`));
      const dinum = answer.etablissements[0];
      const units = Array.from({ length: FR_FEED_PAGE_SIZE }, (_, i) => {
        const siren = String(200_000_000 + i);
        return { ...dinum, siren, siret: `${siren}00013` };
      });
      units[0] = { ...units[0], uniteLegale: { ...dinum.uniteLegale, denominationUniteLegale: '[ND]' } };
      fake.get(`${INSEE}/siret`, {
        body: JSON.stringify({
          header: { ...answer.header, nombre: FR_FEED_PAGE_SIZE, curseur: '*', curseurSuivant: 'NEXT' },
          etablissements: units,
        }),
        headers: { 'Content-Type': 'application/json' },
      });
      const feed = inseeFeed();
      const page = await feed.read(JSON.stringify({ from: '2026-05-04T16:00:00' }));
      expect(page.entries).toHaveLength(FR_FEED_PAGE_SIZE - 1);
      expect(page.more).toBe(true);
      expect(JSON.parse(page.cursor)).toMatchObject({ from: '2026-05-04T16:00:00', page: 'NEXT' });
    });

    it('reads 404 as no such unit / no match', async () => {
      fake.get(/\/siren\//, { status: 404, body: '{"header":{"statut":404,"message":"Aucun élément trouvé"}}' });
      fake.get(`${INSEE}/siret`, { status: 404, body: '{"header":{"statut":404,"message":"Aucun élément trouvé"}}' });
      await expect(fr.lookup('552032534')).resolves.toBeNull();
      await expect(fr.searchByName('zzzz', 5)).resolves.toEqual([]);
    });

    it('a rejected key → unauthorized, without the key in the message; 503 → http_5xx', async () => {
      fake.get(/\/siren\//, { status: 401, body: '{"code":"900901","message":"Invalid Credentials"}' });
      const err = (await fr.lookup('552032534').catch((e: unknown) => e)) as UpstreamError;
      expect(err).toMatchObject({ errorClass: 'unauthorized' });
      expect(err.message).not.toContain(KEY);
      fake.get(/\/siren\//, { status: 503, body: 'Service Unavailable' });
      await expect(fr.lookup('552032534')).rejects.toMatchObject({ errorClass: 'http_5xx' });
    });

    it('never reads the mirror while a key is set, and probes INSEE', async () => {
      fake.get(`${INSEE}/siren/552032534`, { fixture: `${F}/insee-sirene-siren-130025265-derived-from-siret.json` });
      await expect(fr.probe()).resolves.toEqual({ httpStatus: 200 });
      expect(fake.requestsTo('/search')).toHaveLength(0);
      expect(fake.requests[0].headers['x-insee-api-key-integration']).toBe(KEY);
    });
  });
});

describe('parseDirigeants', () => {
  it('keeps a legal person listed without qualité under the list name', () => {
    const ganymede = JSON.parse(fixture(`${F}/recherche-entreprises-search-q-ganymede.json`)).result.results;
    const unit = ganymede.find((r: { siren: string }) => r.siren === '940583776');
    expect(parseDirigeants(unit.dirigeants)).toEqual([
      { name: 'MARC TROUCHAUD', role: 'Président de SAS', kind: 'person', appointedOn: null, resignedOn: null },
      { name: 'ADVOLIS', role: 'Dirigeant', kind: 'company', appointedOn: null, resignedOn: null },
    ]);
  });
});
