import { COUNTRY_CODES, REGISTERS } from '../../src/registers/registers';
import { Coalescer } from '../../src/search/coalescer';
import { importSample, SAMPLE_PRODUCED_AT } from '../support/datasets';
import { failRegister, FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const NOW = '2026-11-22T10:15:30.123Z';

/**
 * Search and company lookup end to end for every register, against fake registers that
 * replay the recorded responses, with the fallback dataset loaded from the bulk samples.
 */
describe('search and company lookup, end to end', () => {
  let fakes: FakeRegisters;
  let app: TestApp;

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({
      now: NOW,
      env: {
        ...fakes.env,
        REGISTER_GB_API_KEY: 'test-key',
        REGISTER_DK_USERNAME: 'u',
        REGISTER_DK_PASSWORD: 'p',
        REGISTER_AU_GUID: 'test-guid',
      },
    });
    // Every register's bulk sample (KRS publishes none: PL answers from the bundled sample only).
    for (const cc of COUNTRY_CODES) if (REGISTERS[cc].bulkFormats.length > 0) await importSample(app, cc);
  });
  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
  });
  beforeEach(() => resetFakeRegisters(fakes));

  async function get(path: string): Promise<{ status: number; body: any; headers: Headers }> {
    const res = await fetch(app.url + path);
    return { status: res.status, body: await res.json(), headers: res.headers };
  }
  const search = (q: string, country: string) =>
    get(`/api/public/v1/search?q=${encodeURIComponent(q)}&country=${country}`);

  function expectLiveOfficial(body: any) {
    expect(body.register.status).toBe('live');
    expect(body).not.toHaveProperty('warning');
    for (const r of body.results) expect(r.source).toMatchObject({ official: true, retrievedAt: NOW });
  }

  function expectFallback(body: any, country: string) {
    expect(body.register.status).toBe('degraded');
    expect(body.warning).toContain(`"${country.toLowerCase()}-sample"`);
    expect(body.warning).toContain('2026-11-01');
    for (const r of body.results)
      expect(r.source).toMatchObject({
        official: false,
        kind: `dataset:${country.toLowerCase()}-sample`,
        retrievedAt: SAMPLE_PRODUCED_AT,
      });
  }

  describe('Norway (Brønnøysund, open API)', () => {
    it('name search: live, official, ranked by name similarity', async () => {
      const { status, body, headers } = await search('Sesam', 'no');
      expect(status).toBe(200);
      expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
      expect(body).toMatchObject({ query: 'Sesam', country: 'NO', countryName: 'Norway', resolved: true, count: 2 });
      expect(body.register).toMatchObject({
        name: 'Enhetsregisteret (Brønnøysundregistrene)',
        short: 'Brønnøysund',
        officialUrl: 'https://www.brreg.no',
        provides: { officers: true },
      });
      expect(body.attribution).toContain('Registry Lookup');
      expectLiveOfficial(body);
      expect(body.results.map((r: any) => r.name)).toEqual(['SESAM AS', 'SESAM FAMILIEBARNEHAGE']);
      expect(body.results[0]).toMatchObject({
        registrationNumber: '976030788',
        country: 'NO',
        status: 'Registrert',
        statusCategory: 'active',
        legalForm: 'Aksjeselskap',
        city: 'TRONDHEIM',
        incorporationDate: '1995-12-12',
        source: {
          kind: 'native_official',
          url: 'https://virksomhet.brreg.no/nb/oppslag/enheter/976030788',
          register: 'Enhetsregisteret (Brønnøysundregistrene)',
        },
      });
    });

    it('a registration number with spaces is looked up directly', async () => {
      const { body } = await search('883 603 362', 'NO');
      expect(body).toMatchObject({
        resolved: true,
        count: 1,
        results: [{ registrationNumber: '883603362', name: 'ABG SUNDAL COLLIER ASA' }],
      });
      expect(fakes.NO_API.requestsTo('/enheter')).toHaveLength(0);
      expect(fakes.NO_API.requestsTo('/enheter/883603362')).toHaveLength(1);
    });

    it('no match is resolved: false, count 0 — an answer, not an error', async () => {
      const { status, body } = await search('jibberish', 'NO');
      expect(status).toBe(200);
      expect(body).toMatchObject({ resolved: false, count: 0, results: [] });
      expectLiveOfficial(body);
    });

    it('company lookup with officers as the register words them', async () => {
      const { status, body } = await get('/api/public/v1/companies/NO/883603362');
      expect(status).toBe(200);
      expect(body.register.status).toBe('live');
      expect(body.company).toMatchObject({
        registrationNumber: '883603362',
        source: { official: true, retrievedAt: NOW },
      });
      expect(body.company.officers.length).toBeGreaterThan(3);
      for (const o of body.company.officers) {
        expect(o).toEqual({
          name: expect.any(String),
          role: expect.any(String),
          kind: expect.stringMatching(/^(person|company)$/),
          appointedOn: null,
          resignedOn: null,
        });
      }
      expect(body.company.officers.some((o: any) => o.kind === 'company')).toBe(true);
    });

    it('an unknown number is 404 company_not_found on lookup', async () => {
      const { status, body } = await get('/api/public/v1/companies/NO/923974709');
      expect(status).toBe(404);
      expect(body.code).toBe('company_not_found');
    });

    it('register failing: the dataset answers, degraded, not official, with a warning naming it and its date', async () => {
      failRegister(fakes, 'NO');
      const { status, body } = await search('sesam stasjon', 'NO');
      expect(status).toBe(200);
      expectFallback(body, 'NO');
      expect(body.warning).toMatch(/did not answer \(http_5xx\)/);
      expect(body.results[0].name).toBe('SESAM STASJON');
    });

    it('register failing and no match in a complete import of its bulk file: resolved false, the warning naming the dataset', async () => {
      failRegister(fakes, 'NO');
      const { status, body, headers } = await search('Zyxwvut Nonexistent', 'NO');
      expect(status).toBe(200);
      expect(body).toMatchObject({ resolved: false, count: 0, register: { status: 'degraded' } });
      expect(body.warning).toContain('"no-sample" (produced 2026-11-01)');
      expect(body.warning).not.toMatch(/sample of/);
      expect(headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    });
  });

  describe('Great Britain (Companies House API, with a key)', () => {
    it('name search: live and official', async () => {
      const { body } = await search('you', 'GB');
      expectLiveOfficial(body);
      expect(body.count).toBe(15);
      expect(body.results[0].source.kind).toBe('native_official');
      expect(body.results[0].source.url).toBe(
        `${fakes.env.REGISTER_GB_WEB_URL}/company/${body.results[0].registrationNumber}`,
      );
      const dissolved = body.results.filter((r: any) => r.statusCategory === 'dissolved');
      expect(dissolved).toHaveLength(1);
      expect(dissolved[0].status).toMatch(/^Dissolved/);
    });

    it('a company number without its leading zeros is padded and looked up, with officers and their dates', async () => {
      const { body } = await get('/api/public/v1/companies/gb/4475590');
      expect(body.company.registrationNumber).toBe('04475590');
      expect(body.company.officers.length).toBe(7);
      expect(body.company.officers.some((o: any) => o.appointedOn && /^\d{4}-\d\d-\d\d$/.test(o.appointedOn))).toBe(
        true,
      );
      expect(body.company.officers.some((o: any) => o.resignedOn !== null)).toBe(true);
    });

    it('a dissolved company keeps its record, with its status', async () => {
      const { body } = await search('10418261', 'GB');
      expect(body.results[0]).toMatchObject({ registrationNumber: '10418261', statusCategory: 'dissolved' });
    });

    it('register failing: the bulk sample answers', async () => {
      failRegister(fakes, 'GB');
      const { body } = await search('08209948', 'GB');
      expectFallback(body, 'GB');
      expect(body.results[0]).toMatchObject({
        name: '! LTD',
        city: 'LEEDS',
        status: 'Active',
        source: { url: `${fakes.env.REGISTER_GB_WEB_URL}/company/08209948` },
      });
    });
  });

  describe('France (recherche-entreprises mirror, no INSEE key)', () => {
    it('is never official: degraded, a warning about the mirror, official false', async () => {
      const { body } = await search('ganymede', 'FR');
      expect(body.register.status).toBe('degraded');
      expect(body.warning).toMatch(/recherche-entreprises/);
      expect(body.warning).toMatch(/not official/);
      expect(body.count).toBe(10);
      for (const r of body.results)
        expect(r.source).toMatchObject({
          official: false,
          kind: 'public_mirror:recherche-entreprises',
          retrievedAt: NOW,
        });
    });

    it('SIREN lookup with officers from dirigeants', async () => {
      const { body } = await get('/api/public/v1/companies/FR/552%20032%20534');
      expect(body.company).toMatchObject({
        name: 'DANONE',
        registrationNumber: '552032534',
        status: 'Active',
        statusCategory: 'active',
      });
      expect(body.company.officers).toHaveLength(13);
      expect(body.company.source.url).toBe('https://annuaire-entreprises.data.gouv.fr/entreprise/552032534');
    });

    it('a SIRET finds its company; a ceased one is dissolved in Sirene’s own word', async () => {
      const { body } = await search('880 878 145 00015', 'FR');
      expect(body.results[0]).toMatchObject({
        registrationNumber: '880878145',
        status: 'Cessée',
        statusCategory: 'dissolved',
      });
    });

    it('a SIREN with a wrong check digit is refused before any request', async () => {
      const { status, body } = await search('552032535', 'FR');
      expect(status).toBe(400);
      expect(body.detail).toMatch(/check digit|Luhn/i);
      expect(fakes.FR_MIRROR.requests).toHaveLength(0);
    });
  });

  describe('Denmark (CVR distribution, with credentials)', () => {
    it('name search and lookup with officers, reklamebeskyttet carried', async () => {
      const { body } = await search('assure', 'DK');
      expectLiveOfficial(body);
      expect(body.count).toBe(4);
      const { body: detail } = await get('/api/public/v1/companies/DK/25052943');
      expect(detail.company).toMatchObject({
        name: 'MAGENTA ApS',
        status: 'NORMAL',
        statusCategory: 'active',
        incorporationDate: '1999-11-15',
      });
      expect(detail.company.extra).toHaveProperty('reklamebeskyttet');
      expect(detail.company.officers.length).toBeGreaterThan(0);
      expect(detail.company.source.url).toBe('https://datacvr.virk.dk/enhed/virksomhed/25052943');
    });

    it('a CVR number with a wrong check digit is a 400', async () => {
      const { status } = await search('25052944', 'DK');
      expect(status).toBe(400);
    });
  });

  describe('Australia (ABN Lookup, with a GUID)', () => {
    it('looks an ABN up; only state and postcode are published', async () => {
      const { body } = await search('26 154 482 283', 'AU');
      expectLiveOfficial(body);
      expect(body.results[0]).toMatchObject({
        name: 'Oneflare Pty Ltd',
        registrationNumber: '26154482283',
        address: 'NSW 2000',
        city: null,
        incorporationDate: null,
      });
      const { body: detail } = await get('/api/public/v1/companies/AU/26154482283');
      expect(detail.company.officers).toBeNull();
    });
  });

  describe('Canada (Corporations Canada)', () => {
    it('looks a corporation up by number', async () => {
      const { body } = await get('/api/public/v1/companies/CA/1007');
      expect(body.register.status).toBe('live');
      expect(body.company).toMatchObject({
        name: 'Abbotsford Chamber of Commerce',
        status: 'Active',
        statusCategory: 'active',
      });
      expect(body.company.source.url).toBe('https://ised-isde.canada.ca/cc/lgcy/fdrlCrpDtls.html?corpId=1007');
    });

    it('name search: no live name search, so the dataset answers with a warning in the connector’s words', async () => {
      const { status, body } = await search('Abbotsford Chamber', 'CA');
      expect(status).toBe(200);
      expectFallback(body, 'CA');
      expect(body.warning).toMatch(/^Corporations Canada publishes no name search .*dataset\. Results come from/);
      expect(body.results[0].name).toBe('Abbotsford Chamber of Commerce');
    });
  });

  describe('paused registers', () => {
    let paused: TestApp;
    beforeAll(async () => {
      paused = await startTestApp({ env: { ...fakes.env } }); // no DK credentials, no AU GUID
      await importSample(paused, 'DK');
    });
    afterAll(() => paused?.close());

    it('answers from the dataset, status paused, a warning that says why, no request to the register', async () => {
      const res = await fetch(`${paused.url}/api/public/v1/search?q=magenta&country=DK`);
      const body = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(body.register.status).toBe('paused');
      expect(body.warning).toMatch(/paused/);
      expect(body.results[0]).toMatchObject({
        name: 'MAGENTA ApS',
        source: { official: false, kind: 'dataset:dk-sample' },
      });
      expect(fakes.DK_API.requests).toHaveLength(0);
    });

    it('with nothing in the dataset: resolved false, still paused with its warning', async () => {
      const res = await fetch(`${paused.url}/api/public/v1/search?q=oneflare&country=AU`);
      const body = (await res.json()) as any;
      expect(res.status).toBe(200);
      expect(body).toMatchObject({ resolved: false, count: 0, register: { status: 'paused' } });
      expect(body.warning).toMatch(/GUID/);
    });
  });

  describe('a name the fallback dataset does not hold, while a register is down', () => {
    // Only the bundled sample of real records, no import of a bulk file.
    let sampleOnly: TestApp;
    beforeAll(async () => {
      // No AU GUID and no DK credentials: both paused. DK also gets a complete import of its sample file.
      sampleOnly = await startTestApp({ env: { ...fakes.env, DATASET_SEED: 'true' } });
      await importSample(sampleOnly, 'DK');
    });
    afterAll(() => sampleOnly?.close());
    const searchIn = async (app: TestApp, q: string, cc: string) => {
      const res = await fetch(`${app.url}/api/public/v1/search?q=${encodeURIComponent(q)}&country=${cc}`);
      return { status: res.status, body: (await res.json()) as any };
    };

    it('degraded register, only the bundled sample: 502 upstream_error (the sample cannot vouch for a miss)', async () => {
      failRegister(fakes, 'NO');
      const { status, body } = await searchIn(sampleOnly, 'Zyxwvut Nonexistent', 'NO');
      expect(status).toBe(502);
      expect(body.code).toBe('upstream_error');
      expect(body.detail).toMatch(/not a complete copy of the register/);
      // A hit in the sample is still an answer.
      failRegister(fakes, 'NO');
      expect((await searchIn(sampleOnly, 'sesam familiebarnehage', 'NO')).status).toBe(200);
    });

    it('paused register, only the bundled sample: resolved false, the warning saying only a sample was searched', async () => {
      const { status, body } = await searchIn(sampleOnly, 'Zyxwvut Nonexistent', 'AU');
      expect(status).toBe(200);
      expect(body).toMatchObject({ resolved: false, count: 0, register: { status: 'paused' } });
      expect(body.warning).toMatch(
        /Only a sample of (1 company|\d+ companies) was searched, not a complete copy of the register/,
      );
      expect(body.warning).not.toMatch(/\.\./);
      expect(body.warning).toContain('"bundled-sample"');
    });

    it('paused register, a complete import: resolved false, the warning naming the dataset and its date', async () => {
      const { status, body } = await searchIn(sampleOnly, 'Zyxwvut Nonexistent', 'DK');
      expect(status).toBe(200);
      expect(body).toMatchObject({ resolved: false, count: 0, register: { status: 'paused' } });
      expect(body.warning).toContain('"dk-sample" (produced 2026-11-01)');
      expect(body.warning).not.toMatch(/sample of/);
    });
  });

  describe('coalescing', () => {
    it('shares one live read between identical concurrent searches', async () => {
      fakes.NO_API.get('/enheter', {
        delayMs: 300,
        fixture: 'registers/no/brreg-enheter-search-navn-sesam-page1.json',
      });
      const answers = await Promise.all(Array.from({ length: 5 }, () => search('Sesam', 'NO')));
      expect(answers.every((a) => a.body.count === 2)).toBe(true);
      expect(fakes.NO_API.requestsTo('/enheter')).toHaveLength(1);
      // …and never replays it: the next search reads the register again.
      await search('Sesam', 'NO');
      expect(fakes.NO_API.requestsTo('/enheter')).toHaveLength(2);
    });

    it('forgets a read once it settles', async () => {
      const c = new Coalescer();
      let calls = 0;
      const read = () => new Promise<number>((r) => setTimeout(() => r(++calls), 10));
      expect(await Promise.all([c.run('k', read), c.run('k', read)])).toEqual([1, 1]);
      expect(await c.run('k', read)).toBe(2);
      expect(c.size).toBe(0);
    });
  });

  describe('nasty input never becomes a 500', () => {
    it.each([
      'Æ Ø Å',
      'Bronnoysund é ß',
      '😀 Sesam',
      'שלום Sesam',
      'Sesam%',
      '_sesam_',
      "Sesam'; DROP TABLE company;--",
      '100%',
      'a_b',
    ])('q=%s', async (q) => {
      failRegister(fakes, 'NO'); // so the dataset's SQL sees the input
      const { status, body } = await search(q, 'NO');
      expect([200, 502]).toContain(status);
      if (status === 200) expect(body.results.every((r: any) => r.country === 'NO')).toBe(true);
    });

    it('LIKE wildcards are literal: "%%" finds nothing rather than everything', async () => {
      failRegister(fakes, 'NO');
      const { status, body } = await search('%%xyzzy', 'NO');
      expect(status).toBe(200);
      expect(body).toMatchObject({ resolved: false, count: 0 });
    });

    // Node's query parser turned bytes that are not UTF-8 into U+FFFD, and a search for
    // "%C0%AFsesam" answered 200 with the SESAM companies, for a query nobody sent.
    it.each([
      ['/api/public/v1/search?q=%C0%AFsesam&country=NO', 'invalid_query', 'q'],
      ['/api/public/v1/search?q=%ED%A0%80sesam&country=NO', 'invalid_query', 'q'],
      ['/api/public/v1/search?q=sesam%&country=NO', 'invalid_query', 'q'],
      ['/api/public/v1/search?q=sesam&country=N%D8', 'invalid_parameter', 'country'],
      ['/api/public/v1/registers?provides=%FF', 'invalid_parameter', 'provides'],
      ['/api/public/v1/status?x=%E2%82', 'invalid_parameter', 'x'],
      ['/api/public/v1/companies/NO/%E0%A4%A', 'invalid_parameter', 'path'],
      ['/api/public/v1/lei/%FF', 'invalid_parameter', 'path'],
    ])('%s is refused as not UTF-8, by name', async (path, code, field) => {
      const res = await fetch(app.url + path);
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
      const body = (await res.json()) as { detail: string };
      expect(body).toMatchObject({ code, errors: [{ field, code }] });
      expect(body.detail).toContain('is not valid percent-encoded UTF-8');
      expect(body.detail).not.toContain('Failed to decode');
    });

    it('a percent sign sent as %25 is searched for literally', async () => {
      failRegister(fakes, 'NO');
      const { status, body } = await get('/api/public/v1/search?q=sesam%25&country=NO');
      expect([200, 502]).toContain(status);
      if (status === 200) expect(body.query).toBe('sesam%');
    });
  });
});
