import { fixture } from '../support/fake-register';
import { CZ_ASSECO, CZ_HELLA, CZ_SAD, CZ_SOLE_TRADER, CZ_TOO_BROAD, CZ_UNKNOWN } from '../support/fake-cz-register';
import { FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(120_000);

const NOW = '2026-11-22T10:15:30.123Z';
const F = 'registers/cz';
const SUBJECT = '/ekonomicke-subjekty';
const VR = '/ekonomicke-subjekty-vr';
const ARES = 'ARES – Administrativní registr ekonomických subjektů (Ministerstvo financí)';
const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

/**
 * Czechia end to end, as a user sees it: the real application (with the bundled sample as its
 * only CZ fallback, ARES publishing no bulk file) against a fake ARES on loopback replaying the
 * recorded responses (test/support/fake-cz-register.ts).
 */
describe('Czechia (ARES) end to end', () => {
  let fakes: FakeRegisters;
  let app: TestApp;

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({ now: NOW, env: { ...fakes.env, DATASET_SEED: 'true' } });
  });
  afterAll(async () => {
    await app?.close();
    await fakes?.stop();
  });
  beforeEach(() => resetFakeRegisters(fakes));

  async function get(path: string): Promise<{ status: number; body: any }> {
    const res = await fetch(app.url + path);
    return { status: res.status, body: await res.json() };
  }
  const search = (q: string) => get(`/api/public/v1/search?q=${encodeURIComponent(q)}&country=CZ`);
  const aresRequests = () => fakes.CZ_API.requests.filter((r) => !r.path.startsWith('/ekonomicke-subjekty/00006947'));

  describe('live reads', () => {
    it('a name with several hits: ARES’s own search, each result official, legal form in words', async () => {
      const { status, body } = await search('s.r.o.');
      expect(status).toBe(200);
      expect(JSON.parse(fakes.CZ_API.requestsTo(`${SUBJECT}/vyhledat`)[0].body)).toEqual({
        obchodniJmeno: 's.r.o.',
        start: 0,
        pocet: 20,
      });
      expect(body).toMatchObject({
        query: 's.r.o.',
        country: 'CZ',
        countryName: 'Czechia',
        register: { name: ARES, short: 'ARES', provides: { officers: true, filings: false, monitoring: true } },
        resolved: true,
        count: 2,
      });
      expect(body.warning).toBeUndefined();
      expect(body.results.map((r: any) => r.registrationNumber).sort()).toEqual([CZ_SAD, CZ_HELLA].sort());
      const hella = body.results.find((r: any) => r.registrationNumber === CZ_HELLA);
      expect(hella).toEqual({
        name: 'HELLA AUTOTECHNIK NOVA, s.r.o.',
        registrationNumber: CZ_HELLA,
        country: 'CZ',
        status: 'Aktivní',
        statusCategory: 'active',
        legalForm: 'Společnost s ručením omezeným',
        address: 'Družstevní 338/16, 78985 Mohelnice',
        city: 'Mohelnice',
        incorporationDate: '1999-03-22',
        extra: { pravniForma: '112', primarniZdroj: 'vr', dic: 'CZ25834151', datumAktualizace: '2023-12-19' },
        source: {
          register: ARES,
          url: `https://ares.gov.cz/ekonomicke-subjekty?ico=${CZ_HELLA}`,
          official: true,
          kind: 'native_official',
          retrievedAt: NOW,
        },
      });
    });

    it('an IČO typed with its label and spaces is looked up directly, by number', async () => {
      for (const q of ['IČO 270 74 358', 'IČ: 27074358', 'CZ27074358']) {
        resetFakeRegisters(fakes);
        const { status, body } = await search(q);
        expect(status).toBe(200);
        expect(body).toMatchObject({ query: q, resolved: true, count: 1 });
        expect(body.results[0]).toMatchObject({
          name: 'Asseco Central Europe, a.s.',
          registrationNumber: CZ_ASSECO,
          legalForm: 'Akciová společnost',
          address: 'Budějovická 778/3a, Michle, 14000 Praha 4',
          city: 'Praha',
          incorporationDate: '2003-08-06',
        });
        expect(body.results[0]).not.toHaveProperty('officers');
        expect(aresRequests().map((r) => r.path)).toEqual([`${SUBJECT}/${CZ_ASSECO}`, `${VR}/${CZ_ASSECO}`]);
      }
    });

    it('a wrong check digit is 400 invalid_query with a sentence, and ARES is not asked', async () => {
      const wrong = await search('27074359');
      expect(wrong.status).toBe(400);
      expect(wrong.body).toMatchObject({
        code: 'invalid_query',
        detail: '27074359 is not a valid Czech IČO: its check digit (the last digit) is wrong.',
        errors: [{ field: 'q', code: 'invalid_query' }],
      });
      const short = await get('/api/public/v1/companies/CZ/1603094');
      expect(short.status).toBe(400);
      expect(short.body.detail).toBe(
        'A Czech IČO has 8 digits, leading zeros included; "1603094" has 7. If a leading zero was left out: 01603094.',
      );
      expect(aresRequests()).toEqual([]);
    });

    it('the two edge cases of the check digit are IČOs (r = 0 → 1, r = 1 → 0)', async () => {
      expect((await search(CZ_HELLA)).body.results[0].registrationNumber).toBe(CZ_HELLA); // 25834151: r = 0
      const r1 = await search('68407700'); // r = 1: valid, and unknown to the fake ARES
      expect(r1).toMatchObject({ status: 200, body: { resolved: false, count: 0 } });
    });

    it('a company with its officers from the public register (VR): role, appointment and end dates', async () => {
      const { status, body } = await get(`/api/public/v1/companies/CZ/${CZ_SAD}`);
      expect(status).toBe(200);
      expect(body.company).toMatchObject({
        name: 'SAD s.r.o.',
        status: 'Aktivní',
        legalForm: 'Společnost s ručením omezeným',
        address: 'Daminěves 35, 27704 Cítov',
        city: 'Cítov',
        incorporationDate: '1996-07-08',
        source: { official: true, url: `https://ares.gov.cz/ekonomicke-subjekty?ico=${CZ_SAD}` },
      });
      expect(body.company.officers).toHaveLength(6);
      expect(body.company.officers).toContainEqual({
        name: 'Koen Quaghebeur',
        role: 'jednatel',
        kind: 'person',
        appointedOn: '2010-09-15',
        resignedOn: null,
      });
      // No birth date ever reaches a user, not even the one old entries put into the surname.
      expect(JSON.stringify(body.company.officers)).not.toMatch(/nar\.|\d{1,2}\.\s?\d{1,2}\.\s?\d{4}/);
      expect(aresRequests().map((r) => r.path)).toEqual([`${SUBJECT}/${CZ_SAD}`, `${VR}/${CZ_SAD}`]);
    });

    it('former officers carry their end date', async () => {
      const { body } = await get(`/api/public/v1/companies/CZ/${CZ_HELLA}`);
      const former = body.company.officers.filter((o: any) => o.resignedOn !== null);
      expect(former.length).toBeGreaterThan(0);
      for (const o of body.company.officers) expect(o.appointedOn ?? '').toMatch(/^(\d{4}-\d\d-\d\d)?$/);
    });

    it('a sole trader is not in VR: officers null, and VR is not asked', async () => {
      const { body } = await get(`/api/public/v1/companies/CZ/${CZ_SOLE_TRADER}`);
      expect(body.company).toMatchObject({
        legalForm: 'Fyzická osoba podnikající dle živnostenského zákona',
        officers: null,
      });
      expect(aresRequests().map((r) => r.path)).toEqual([`${SUBJECT}/${CZ_SOLE_TRADER}`]);
    });

    it('a ceased company (datumZaniku, derived): status Zaniklý, dissolved, with the date', async () => {
      fakes.CZ_API.get(`${SUBJECT}/${CZ_SAD}`, {
        fixture: `${F}/ares-ekonomicke-subjekty-ico-25063677-derived-zanikly.json`,
      });
      const { body } = await get(`/api/public/v1/companies/CZ/${CZ_SAD}`);
      expect(body.company).toMatchObject({
        status: 'Zaniklý',
        statusCategory: 'dissolved',
        incorporationDate: '1996-07-08',
        extra: { datumZaniku: '2024-03-31' },
      });
    });

    it('an unknown IČO: 404 company_not_found on lookup, resolved false on search', async () => {
      const lookup = await get(`/api/public/v1/companies/CZ/${CZ_UNKNOWN}`);
      expect(lookup).toMatchObject({ status: 404, body: { code: 'company_not_found' } });
      expect(lookup.body.detail).toBe(`ARES has no company with number ${CZ_UNKNOWN}.`);
      expect((await search(CZ_UNKNOWN)).body).toMatchObject({ resolved: false, count: 0 });
    });

    it('a name ARES finds too broad (over 1,000 subjects) is 400 invalid_query, not a register failure', async () => {
      const { status, body } = await search(CZ_TOO_BROAD);
      expect(status).toBe(400);
      expect(body).toMatchObject({
        code: 'invalid_query',
        detail:
          '"servis" is too broad for ARES, which refuses a name search matching more than 1,000 subjects: add words of the name, or search by IČO.',
        errors: [{ field: 'q', code: 'invalid_query' }],
      });
      // The register answered: it is still read live afterwards.
      expect((await search('hella')).body).toMatchObject({ resolved: true, results: [{ source: { official: true } }] });
    });
  });

  describe('ARES failing: the bundled sample answers, not official, or 502', () => {
    const failures: Array<[string, object]> = [
      ['HTTP 503', { status: 503, body: 'Service Unavailable' }],
      ['HTTP 429', { status: 429, body: '', headers: { 'Retry-After': '0' } }],
      [
        'an HTML page instead of JSON',
        { body: '<!DOCTYPE html><html><body>Probíhá údržba</body></html>', headers: { 'Content-Type': 'text/html' } },
      ],
      [
        'a truncated body',
        { body: fixture(`${F}/ares-ekonomicke-subjekty-ico-25834151-hella.json`).slice(0, 300), headers: JSON_HEADERS },
      ],
    ];

    it.each(failures)('%s: a company of the sample answers from it, with a warning', async (_what, answer) => {
      fakes.CZ_API.get(`${SUBJECT}/${CZ_HELLA}`, answer);
      const { status, body } = await search(CZ_HELLA);
      expect(status).toBe(200);
      expect(body.register.status).toBe('degraded');
      expect(body.warning).toMatch(
        /^The Ministry of Finance's ARES REST API did not answer \((http_5xx|rate_limited|invalid_response)\)/,
      );
      expect(body.warning).toContain('"bundled-sample"');
      expect(body.results[0]).toMatchObject({
        name: 'HELLA AUTOTECHNIK NOVA, s.r.o.',
        source: { official: false, kind: 'dataset:bundled-sample' },
      });
      // Nothing of ARES's answer reaches the user.
      expect(JSON.stringify(body)).not.toMatch(/DOCTYPE|údržba|Service Unavailable/);
    });

    it('the company page falls back without officers when VR fails mid-lookup', async () => {
      fakes.CZ_API.get(`${VR}/${CZ_HELLA}`, { status: 503, body: 'Service Unavailable' });
      const { status, body } = await get(`/api/public/v1/companies/CZ/${CZ_HELLA}`);
      expect(status).toBe(200);
      expect(body.company).toMatchObject({ officers: null, source: { official: false } });
      expect(body.warning).toMatch(/did not answer \(http_5xx\)/);
    });

    it('a company or a name the sample does not hold: 502 upstream_error, saying why', async () => {
      fakes.CZ_API.get(/.*/, { status: 503, body: 'Service Unavailable' });
      fakes.CZ_API.post(/.*/, { status: 503, body: 'Service Unavailable' });
      for (const path of [
        `/api/public/v1/companies/CZ/${CZ_UNKNOWN}`,
        '/api/public/v1/search?q=Zyxwvut%20Nonexistent&country=CZ',
      ]) {
        const { status, body } = await get(path);
        expect(status).toBe(502);
        expect(body).toMatchObject({ code: 'upstream_error', register: ARES, errorClass: 'http_5xx' });
        expect(body.detail).toMatch(
          /^ARES did not answer \(http_5xx\) and the fallback dataset, which is not a complete copy/,
        );
      }
      // A name the sample holds is still an answer.
      expect((await search('asseco')).body).toMatchObject({ count: 1, results: [{ source: { official: false } }] });
    });
  });

  describe('one register among the others', () => {
    it('is listed by /registers with what it provides and its live source', async () => {
      const { body } = await get('/api/public/v1/registers?provides=officers,monitoring');
      const cz = body.registers.find((r: any) => r.country === 'CZ');
      expect(cz).toMatchObject({
        countryName: 'Czechia',
        name: ARES,
        short: 'ARES',
        officialUrl: 'https://ares.gov.cz',
        provides: { officers: true, filings: false, monitoring: true },
        liveSource: { kind: 'native_official', official: true },
      });
    });

    it('has its line in /status', async () => {
      const { body } = await get('/api/public/v1/status');
      expect(body.registers.find((r: any) => r.country === 'CZ')).toMatchObject({
        country: 'CZ',
        name: ARES,
        status: expect.stringMatching(/^(live|degraded|paused)$/),
      });
    });

    it('is offered by the MCP tools, and answered through them', async () => {
      const rpc = async (method: string, params: unknown) => {
        const res = await fetch(`${app.url}/api/public/v1/mcp`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        return ((await res.json()) as any).result;
      };
      const { tools } = await rpc('tools/list', {});
      const searchTool = tools.find((t: any) => t.name === 'search_companies');
      expect(searchTool.description).toContain('CZ (Czechia: ARES)');
      const company = await rpc('tools/call', {
        name: 'get_company',
        arguments: { country: 'cz', registrationNumber: '250 63 677' },
      });
      expect(company.structuredContent.company.name).toBe('SAD s.r.o.');
      expect(company.structuredContent.company.officers).toHaveLength(6);
      const wrong = await rpc('tools/call', { name: 'search_companies', arguments: { q: '27074359', country: 'CZ' } });
      expect(wrong.isError).toBe(true);
      expect(wrong.content[0].text).toMatch(/^Error invalid_query: 27074359 is not a valid Czech IČO/);
    });

    it('is in the OpenAPI document: the country enums, and the too-broad case of invalid_query', async () => {
      const doc = (await get('/api/public/v1/openapi.json')).body;
      const search = doc.paths['/api/public/v1/search'].get;
      expect(search.parameters.find((p: any) => p.name === 'country').schema.enum).toContain('CZ');
      const company = doc.paths['/api/public/v1/companies/{country}/{registrationNumber}'].get;
      expect(company.parameters.find((p: any) => p.name === 'country').schema.enum).toContain('CZ');
      expect(JSON.stringify(search.responses['400'])).toContain('refuses to search it');
    });
  });
});
