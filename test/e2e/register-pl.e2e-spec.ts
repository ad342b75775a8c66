import { REGISTERS } from '../../src/registers/registers';
import { nipCheckDigit } from '../../src/registers/pl/pl.identifier';
import { KRS_REGISTERED, KRS_REMOVED } from '../../src/registers/pl/krs-parsers';
import { eventually } from '../support/event-side';
import { fixture } from '../support/fake-register';
import { failRegister, FakeRegisters, resetFakeRegisters, startFakeRegisters } from '../support/fake-registers';
import {
  PL_GYM,
  PL_GYM_NIP,
  PL_GYM_REGON,
  PL_ORLEN,
  PL_ORLEN_NIP,
  PL_REMOVED,
  PL_UNKNOWN,
  PL_WOSP,
  plCurrent,
} from '../support/fake-pl-register';
import { startTestApp, TestApp } from '../support/test-app';

jest.setTimeout(180_000);

const NOW = '2026-11-22T10:15:30.123Z';
const KRS = REGISTERS.PL.definition;
/** A masked name as the Ministry of Justice writes it: each part one capital, then asterisks. */
const MASKED = /^[A-ZĄĆĘŁŃÓŚŹŻ]\*+(?:[ -][A-ZĄĆĘŁŃÓŚŹŻ]\*+)*$/u;
/** A valid NIP that no entity of the recordings has (nine digits completed with their check digit). */
const OTHER_NIP = `526025027${nipCheckDigit('526025027')}`;

/**
 * Poland (KRS Open API) as a user sees it, end to end against the fake KRS replaying the
 * recorded answers: lookup by KRS number in register P or S, masked board members, a removed
 * entity, the honest answers to a name, a NIP or a REGON, wrong check digits, the register
 * failing, and PL in /registers, /status, the MCP tools and the OpenAPI document. A second app
 * is a fresh install with the bundled sample (DATASET_SEED=true).
 */
describe('Poland (KRS), end to end', () => {
  let fakes: FakeRegisters;
  let app: TestApp;
  let seeded: TestApp;

  beforeAll(async () => {
    fakes = await startFakeRegisters();
    app = await startTestApp({ now: NOW, env: { ...fakes.env } });
    seeded = await startTestApp({ now: NOW, env: { ...fakes.env, DATASET_SEED: 'true' } });
    // Each app probes every register at boot: once PL is live, no probe is left to add to the requests counted here.
    for (const on of [app, seeded])
      await eventually(
        () => fetch(`${on.url}/api/public/v1/registers?status=live`).then((r) => r.json() as Promise<any>),
        (b) => b.registers.some((r: { country: string }) => r.country === 'PL'),
      );
  });
  afterAll(async () => {
    await app?.close();
    await seeded?.close();
    await fakes?.stop();
  });
  beforeEach(() => resetFakeRegisters(fakes));

  async function get(path: string, on: TestApp = app): Promise<{ status: number; body: any }> {
    const res = await fetch(on.url + path);
    return { status: res.status, body: await res.json() };
  }
  const search = (q: string, on: TestApp = app) =>
    get(`/api/public/v1/search?q=${encodeURIComponent(q)}&country=PL`, on);
  const extractsAsked = () => fakes.PL_API.requests.map((r) => `${r.path.slice(1)}?${r.query.get('rejestr')}`);

  describe('lookup by KRS number, live from the register', () => {
    it('finds an entity of register P with one request: official, the register’s words, NIP and REGON', async () => {
      const { status, body } = await search('0001268296');
      expect(status).toBe(200);
      expect(body).toMatchObject({
        country: 'PL',
        countryName: 'Poland',
        resolved: true,
        count: 1,
        register: { short: 'KRS', status: 'live', provides: { officers: true, filings: false, monitoring: true } },
      });
      expect(body).not.toHaveProperty('warning');
      expect(body.results[0]).toEqual({
        name: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
        registrationNumber: PL_GYM,
        country: 'PL',
        status: KRS_REGISTERED,
        statusCategory: 'active',
        legalForm: 'SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
        address: 'UL. OSTATNIA 1D, 31-444 KRAKÓW',
        city: 'KRAKÓW',
        incorporationDate: '2026-09-22',
        extra: expect.objectContaining({ nip: PL_GYM_NIP, regon: PL_GYM_REGON, krsRegister: 'P' }),
        source: {
          register: KRS.name,
          url: `${fakes.env.REGISTER_PL_API_URL}/OdpisAktualny/${PL_GYM}?rejestr=P&format=json`,
          official: true,
          kind: 'native_official',
          retrievedAt: NOW,
        },
      });
      expect(extractsAsked()).toEqual([`OdpisAktualny/${PL_GYM}?P`]);
    });

    it('tries register S when P has no such number: a foundation, typed without its zeros', async () => {
      const { body } = await search('KRS 30897');
      expect(body.results[0]).toMatchObject({
        registrationNumber: PL_WOSP,
        name: 'FUNDACJA WIELKA ORKIESTRA ŚWIĄTECZNEJ POMOCY',
        legalForm: 'FUNDACJA',
        city: 'WARSZAWA',
        // Registered before KRS existed (2001): the KRS date is no incorporation date.
        incorporationDate: null,
        extra: { krsRegister: 'S', registeredInKrsOn: '2001-07-25' },
      });
      expect(extractsAsked()).toEqual([`OdpisAktualny/${PL_WOSP}?P`, `OdpisAktualny/${PL_WOSP}?S`]);
    });

    it('shows the board (dzial2.reprezentacja) masked exactly as the ministry masks it, never unmasked', async () => {
      const { status, body } = await get(`/api/public/v1/companies/PL/${PL_WOSP}`);
      expect(status).toBe(200);
      expect(body.company.officers).toEqual([
        { name: 'J**** Z******* O*****', role: 'PREZES ZARZĄDU', kind: 'person', appointedOn: null, resignedOn: null },
        {
          name: 'L**** N***********-O*****',
          role: 'CZŁONEK ZARZĄDU',
          kind: 'person',
          appointedOn: null,
          resignedOn: null,
        },
        {
          name: 'P**** L***** B*********',
          role: 'CZŁONEK ZARZĄDU',
          kind: 'person',
          appointedOn: null,
          resignedOn: null,
        },
        {
          name: 'B***** J******* M**********',
          role: 'WICEPREZES ZARZĄDU',
          kind: 'person',
          appointedOn: null,
          resignedOn: null,
        },
      ]);
      const orlen = await get(`/api/public/v1/companies/pl/28860`);
      expect(orlen.body.company).toMatchObject({ name: 'ORLEN SPÓŁKA AKCYJNA', legalForm: 'SPÓŁKA AKCYJNA' });
      expect(orlen.body.company.officers).toHaveLength(9);
      for (const o of [...body.company.officers, ...orlen.body.company.officers]) expect(o.name).toMatch(MASKED);
      // What the register gave is what is shown: no PESEL, no unmasked name anywhere in the answer.
      expect(JSON.stringify(orlen.body)).not.toMatch(/pesel/i);
    });

    it('reads a removed entity as struck off, in the register’s words, with the dates of the removal', async () => {
      const { status, body } = await get(`/api/public/v1/companies/PL/${PL_REMOVED}`);
      expect(status).toBe(200);
      expect(body.company).toMatchObject({
        registrationNumber: PL_REMOVED,
        status: KRS_REMOVED,
        statusCategory: 'struck_off',
        extra: { removedOn: '2022-08-12', removalFinalOn: '2022-09-02' },
        officers: [],
        source: {
          official: true,
          url: `${fakes.env.REGISTER_PL_API_URL}/OdpisPelny/${PL_REMOVED}?rejestr=P&format=json`,
        },
      });
      expect(extractsAsked()).toEqual([`OdpisAktualny/${PL_REMOVED}?P`, `OdpisPelny/${PL_REMOVED}?P`]);
    });

    it('a number neither register has: resolved false on search, 404 on lookup', async () => {
      expect((await search(PL_UNKNOWN)).body).toMatchObject({
        resolved: false,
        count: 0,
        register: { status: 'live' },
      });
      const { status, body } = await get(`/api/public/v1/companies/PL/${PL_UNKNOWN}`);
      expect(status).toBe(404);
      expect(body).toMatchObject({
        code: 'company_not_found',
        detail: `KRS has no company with number ${PL_UNKNOWN}.`,
      });
    });
  });

  describe('what KRS cannot be asked: names, NIP and REGON', () => {
    it('a name without a dataset: 200, resolved false, a warning that says KRS is searched by number — no request', async () => {
      const { status, body } = await search('ORLEN');
      expect(status).toBe(200);
      expect(body).toMatchObject({ resolved: false, count: 0, register: { status: 'degraded' } });
      expect(body.warning).toBe(
        'KRS is searched by KRS number only (its open API has no name search): the name was looked for in the data this service holds. No fallback dataset is loaded for PL, so nothing could be returned.',
      );
      expect(fakes.PL_API.requests).toHaveLength(0);
    });

    it('a name on a fresh install: the bundled sample answers, not official, with the warning', async () => {
      const { status, body } = await search('orlen', seeded);
      expect(status).toBe(200);
      expect(body.results[0]).toMatchObject({
        name: 'ORLEN SPÓŁKA AKCYJNA',
        registrationNumber: PL_ORLEN,
        source: { official: false, kind: 'dataset:bundled-sample' },
      });
      expect(body.warning).toMatch(
        /^KRS is searched by KRS number only \(its open API has no name search\): the name was looked for in the data this service holds\. Results come from the fallback dataset "bundled-sample"/,
      );
      expect(fakes.PL_API.requests).toHaveLength(0);
    });

    it('a NIP or a REGON on a fresh install finds the entity by its other numbers, and says how', async () => {
      for (const [q, krs, kind, number] of [
        ['774-000-14-54', PL_ORLEN, 'NIP', PL_ORLEN_NIP],
        [`PL${PL_GYM_NIP}`, PL_GYM, 'NIP', PL_GYM_NIP],
        ['54577292400000', PL_GYM, 'REGON', PL_GYM_REGON],
      ]) {
        const { status, body } = await search(q, seeded);
        expect(status).toBe(200);
        expect(body).toMatchObject({ resolved: true, count: 1, results: [{ registrationNumber: krs }] });
        expect(body.warning).toMatch(
          new RegExp(
            `^KRS is searched by KRS number only and cannot be asked for a ${kind}: ${kind} ${number} was looked for in the data this service holds\\. Results come from the fallback dataset "bundled-sample"`,
          ),
        );
      }
      const { body } = await get(`/api/public/v1/companies/PL/${PL_ORLEN_NIP}`, seeded);
      expect(body.company).toMatchObject({ registrationNumber: PL_ORLEN, officers: null, source: { official: false } });
      expect(fakes.PL_API.requests).toHaveLength(0);
    });

    it('a NIP nothing holds: resolved false with the sentence, and a lookup 404 that does not pretend KRS was asked', async () => {
      const { status, body } = await search(OTHER_NIP);
      expect(status).toBe(200);
      expect(body).toMatchObject({ resolved: false, count: 0 });
      expect(body.warning).toBe(
        `KRS is searched by KRS number only and cannot be asked for a NIP: NIP ${OTHER_NIP} was looked for in the data this service holds. No fallback dataset is loaded for PL, so nothing could be returned.`,
      );
      for (const on of [app, seeded]) {
        const lookup = await get(`/api/public/v1/companies/PL/${OTHER_NIP}`, on);
        expect(lookup.status).toBe(404);
        expect(lookup.body).toMatchObject({
          code: 'company_not_found',
          detail: `KRS is searched by KRS number only, and no KRS number was found for NIP ${OTHER_NIP} in the data this service holds.`,
        });
      }
      expect(fakes.PL_API.requests).toHaveLength(0);
    });

    it('a NIP is answered from the data even while KRS is down: the register could not have answered it', async () => {
      failRegister(fakes, 'PL');
      const { status, body } = await search(OTHER_NIP);
      expect(status).toBe(200);
      expect(body.resolved).toBe(false);
      expect(fakes.PL_API.requests).toHaveLength(0);
    });
  });

  describe('bad input is refused offline with a sentence', () => {
    it.each([
      ['7740001455', '7740001455 is not a valid Polish NIP: its check digit (the last digit) is wrong.'],
      ['NIP 774-000-14-5', '774000145 is not a valid Polish NIP: a NIP has ten digits.'],
      ['545772925', '545772925 is not a valid REGON: its check digit (the last digit) is wrong.'],
      [
        '54577292500000',
        '54577292500000 is not a valid REGON: its first nine digits are not a valid REGON (wrong check digit).',
      ],
      ['0000000000', '0000000000 is not a KRS number: KRS numbers start at 0000000001.'],
      [
        'KRS 7740001454',
        '7740001454 is not a KRS number: KRS numbers are written with leading zeros (for example 0000028860); a ten-digit number without one is a NIP.',
      ],
    ])('%s: 400 invalid_query', async (q, sentence) => {
      const { status, body } = await search(q);
      expect(status).toBe(400);
      expect(body).toMatchObject({ code: 'invalid_query', detail: sentence });
      const lookup = await get(`/api/public/v1/companies/PL/${encodeURIComponent(q)}`);
      expect(lookup.status).toBe(400);
      expect(lookup.body.code).toBe('invalid_query');
      expect(fakes.PL_API.requests).toHaveLength(0);
    });
  });

  describe('the register failing', () => {
    const GYM_TEXT = fixture('registers/pl/krs-odpisaktualny-P-0001268296-gym-center-sp-zoo.json');

    it.each([
      ['503', { status: 503, body: 'Service Unavailable' }, 'http_5xx'],
      ['429', { status: 429, body: '{"title":"Too Many Requests"}', headers: { 'Retry-After': '0' } }, 'rate_limited'],
      ['an HTML page with 200', { body: '<html><body>Przerwa techniczna</body></html>' }, 'invalid_response'],
      [
        'a truncated extract',
        { body: GYM_TEXT.slice(0, 2000), headers: { 'Content-Type': 'application/json' } },
        'invalid_response',
      ],
    ])(
      '%s with nothing to fall back on: 502 upstream_error, nothing of the answer passed on',
      async (_w, answer, errorClass) => {
        fakes.PL_API.get(plCurrent(PL_GYM, 'P'), answer);
        const { status, body } = await search(PL_GYM);
        expect(status).toBe(502);
        expect(body).toMatchObject({ code: 'upstream_error', register: KRS.name, errorClass });
        expect(JSON.stringify(body)).not.toMatch(/Przerwa|GYM CENTER/);
      },
    );

    it('with the bundled sample: the record it holds answers, degraded and not official, with a warning', async () => {
      failRegister(fakes, 'PL');
      const { status, body } = await get(`/api/public/v1/companies/PL/${PL_GYM}`, seeded);
      expect(status).toBe(200);
      expect(body.register.status).toBe('degraded');
      expect(body.warning).toMatch(/^The KRS Open API of the Ministry of Justice did not answer \(http_5xx\)/);
      expect(body.company).toMatchObject({
        name: 'GYM CENTER 8.0 SPÓŁKA Z OGRANICZONĄ ODPOWIEDZIALNOŚCIĄ',
        officers: null,
        source: {
          official: false,
          kind: 'dataset:bundled-sample',
          url: `https://api-krs.ms.gov.pl/api/krs/OdpisAktualny/${PL_GYM}?rejestr=P&format=json`,
        },
      });
      // A number the sample does not hold: the sample cannot vouch for a miss.
      failRegister(fakes, 'PL');
      expect((await search(PL_REMOVED, seeded)).status).toBe(502);
    });
  });

  describe('PL among the registers', () => {
    it('is listed by /registers with what it provides, and is live once probed', async () => {
      const body = await eventually(
        () => get('/api/public/v1/registers?provides=officers').then((r) => r.body),
        (b) => b.registers.some((r: any) => r.country === 'PL' && r.status === 'live'),
      );
      expect(body.registers.find((r: any) => r.country === 'PL')).toMatchObject({
        countryName: 'Poland',
        short: 'KRS',
        officialUrl: 'https://wyszukiwarka-krs.ms.gov.pl',
        provides: { officers: true, filings: false, monitoring: true },
        liveSource: { kind: 'native_official', official: true },
      });
      const filings = await get('/api/public/v1/registers?provides=filings');
      expect(filings.body.registers.map((r: any) => r.country)).not.toContain('PL');
    });

    it('has its uptime on /status from the probe that read ORLEN', async () => {
      const { body } = await get('/api/public/v1/status');
      const pl = body.registers.find((r: any) => r.country === 'PL');
      expect(pl).toMatchObject({ status: 'live', lastProbe: { ok: true, httpStatus: 200 } });
    });

    it('is offered by the MCP tools, which answer as the REST routes do', async () => {
      const mcp = async (method: string, params: unknown) => {
        const res = await fetch(`${app.url}/api/public/v1/mcp`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
        });
        return ((await res.json()) as any).result;
      };
      const tools = await mcp('tools/list', {});
      const searchTool = tools.tools.find((t: any) => t.name === 'search_companies');
      expect(searchTool.description).toContain('PL (Poland: KRS)');
      const detail = await mcp('tools/call', {
        name: 'get_company',
        arguments: { country: 'PL', registrationNumber: '0000030897' },
      });
      expect(detail.structuredContent.company.officers[0]).toMatchObject({ name: 'J**** Z******* O*****' });
      const name = await mcp('tools/call', { name: 'search_companies', arguments: { q: 'Orkiestra', country: 'PL' } });
      expect(name.structuredContent).toMatchObject({
        resolved: false,
        warning: expect.stringMatching(/^KRS is searched/),
      });
      expect(name.isError).toBeFalsy();
    });

    it('is in the OpenAPI document’s country lists', async () => {
      const { body } = await get('/api/public/v1/openapi.json');
      const countryOf = (path: string) =>
        body.paths[path].get.parameters.find((p: any) => p.name === 'country').schema.enum as string[];
      expect(countryOf('/api/public/v1/search')).toContain('PL');
      expect(countryOf('/api/public/v1/companies/{country}/{registrationNumber}')).toContain('PL');
      expect(Object.keys(body.paths['/api/public/v1/companies/{country}/{registrationNumber}'].get.responses)).toEqual(
        expect.arrayContaining(['200', '400', '404', '502']),
      );
    });
  });
});
