import { loadConfig } from '../../app/config';
import { ManualClock } from '../../platform/clock';
import { HttpClientFactory } from '../client/http-client.factory';
import { FakeRegister, FakeResponse } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import { GbConnector } from './gb.connector';

const NOW = '2026-05-04T11:00:00.500Z';
const G = 'registers/gb';
const KEY = 'test-ch-key-5f1e';
const REGISTER = 'Companies House register of companies';
const page = (name: string): FakeResponse => ({
  fixture: `${G}/${name}`,
  headers: { 'Content-Type': 'text/html; charset=utf-8' },
});
/** Companies House's 404 answer has a small JSON error body; its content is not read. */
const NOT_FOUND: FakeResponse = {
  status: 404,
  body: '{"errors":[{"error":"company-profile-not-found","type":"ch:service"}]}',
};

describe('GbConnector (Companies House)', () => {
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

  function connector(env: Record<string, string>): GbConnector {
    const { app: config, registers } = loadConfig({ REGISTER_TIMEOUT_MS: '300', PROBE_TIMEOUT_MS: '300', ...env });
    http = new HttpClientFactory(config, registers);
    return new GbConnector({ settings: registers.of('GB'), config, http, clock });
  }

  describe('with REGISTER_GB_API_KEY: the Public Data API', () => {
    let gb: GbConnector;
    beforeEach(() => {
      gb = connector({ REGISTER_GB_API_URL: fake.url, REGISTER_GB_API_KEY: KEY });
    });

    it('is the register itself, needing nothing more', () => {
      expect(gb.source()).toMatchObject({ kind: 'native_official', official: true });
      expect(gb.unavailableReason()).toBeNull();
    });

    it('searches by name with HTTP Basic (key as username)', async () => {
      fake.get('/search/companies', { fixture: `${G}/ch-search-companies-q-you.json` });
      const results = await gb.searchByName('you', 15);
      const req = fake.requests[0];
      expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${KEY}:`).toString('base64')}`);
      expect(req.query.get('q')).toBe('you');
      expect(req.query.get('items_per_page')).toBe('15');
      expect(results).toHaveLength(15);
      expect(results[0]).toEqual({
        name: 'YOU LIMITED',
        registrationNumber: '04475590',
        country: 'GB',
        status: 'Active',
        statusCategory: 'active',
        legalForm: 'Private limited company',
        address: '74 Lairgate, Beverley, East Yorkshire, United Kingdom, HU17 8EU',
        city: 'Beverley',
        incorporationDate: '2002-07-02',
        extra: { companyStatus: 'active', companyType: 'ltd' },
        source: {
          register: REGISTER,
          url: 'https://find-and-update.company-information.service.gov.uk/company/04475590',
          official: true,
          kind: 'native_official',
          retrievedAt: NOW,
        },
      });
    });

    it('words dissolved, overseas-entity and partnership results as the register does', async () => {
      fake.get('/search/companies', { fixture: `${G}/ch-search-companies-q-active-with-dissolved.json` });
      const results = await gb.searchByName('active', 20);
      const byNumber = Object.fromEntries(results.map((r) => [r.registrationNumber, r]));
      expect(byNumber['10418261']).toMatchObject({
        status: 'Dissolved',
        statusCategory: 'dissolved',
        extra: { dateOfCessation: '2017-08-22' },
      });
      expect(byNumber.OE001962).toMatchObject({
        status: 'Registered',
        statusCategory: 'active',
        legalForm: 'Overseas entity',
      });
      expect(byNumber.SL020083).toMatchObject({ legalForm: 'Limited partnership', city: 'Edinburgh' });
    });

    it('looks a company up with its officers', async () => {
      fake.get('/company/04475590', { fixture: `${G}/ch-company-profile-04475590-derived-from-search-item.json` });
      fake.get('/company/04475590/officers', { fixture: `${G}/ch-company-officers-04475590.json` });
      const detail = await gb.lookup('4475590');
      expect(detail).toMatchObject({
        name: 'YOU LIMITED',
        registrationNumber: '04475590',
        legalForm: 'Private limited company',
      });
      expect(detail!.officers).toHaveLength(7);
      expect(detail!.officers![1]).toEqual({
        name: 'STEVENSON, Benjamin Thomas',
        role: 'Director',
        kind: 'person',
        appointedOn: '2017-09-02',
        resignedOn: null,
      });
      expect(detail!.officers![3]).toMatchObject({
        name: 'LONDON LAW SECRETARIAL LIMITED',
        kind: 'company',
        resignedOn: '2002-07-02',
      });
      const officerRequests = fake.requestsTo('/company/04475590/officers');
      expect(officerRequests).toHaveLength(1);
      expect(officerRequests[0].query.get('items_per_page')).toBe('100');
    });

    it('reads the recorded profile; no officers list (404) means none', async () => {
      fake.get('/company/08957400', { fixture: `${G}/ch-company-profile-08957400.json` });
      fake.get('/company/08957400/officers', NOT_FOUND);
      const detail = await gb.lookup('08957400');
      expect(detail).toMatchObject({
        name: 'CANDOUR GROUP LIMITED',
        address: '71 New Dover Road, Canterbury, England, CT1 3DZ',
        city: 'Canterbury',
        incorporationDate: '2014-03-25',
        officers: [],
        source: { kind: 'native_official', retrievedAt: NOW },
      });
    });

    it('reads a dissolved company', async () => {
      fake.get('/company/10418261', { fixture: `${G}/ch-company-profile-10418261-derived-from-search-item.json` });
      fake.get('/company/10418261/officers', NOT_FOUND);
      await expect(gb.lookup('10418261')).resolves.toMatchObject({
        status: 'Dissolved',
        statusCategory: 'dissolved',
        extra: { dateOfCessation: '2017-08-22' },
      });
    });

    it('answers an unknown number with null', async () => {
      fake.get('/company/00000001', NOT_FOUND);
      await expect(gb.lookup('00000001')).resolves.toBeNull();
      await expect(gb.lookup('not a number')).resolves.toBeNull();
    });

    it('HTTP 500 → http_5xx; 401 → unauthorized, without the key in the message', async () => {
      fake.get('/search/companies', { status: 500, body: '{"error":"Internal server error"}' });
      await expect(gb.searchByName('you', 5)).rejects.toMatchObject({ errorClass: 'http_5xx' });
      fake.get('/company/08957400', { status: 401, body: '{"error":"Invalid Authorization","type":"ch:service"}' });
      const err = (await gb.lookup('08957400').catch((e: unknown) => e)) as UpstreamError;
      expect(err).toBeInstanceOf(UpstreamError);
      expect(err.errorClass).toBe('unauthorized');
      expect(err.message).not.toContain(KEY);
    });

    it('timeout, reset and a non-JSON body are upstream errors', async () => {
      fake.get('/company/08957400', { delayMs: 1_500, fixture: `${G}/ch-company-profile-08957400.json` });
      await expect(gb.lookup('08957400')).rejects.toMatchObject({ errorClass: 'timeout' });
      fake.get('/search/companies', { reset: true });
      await expect(gb.searchByName('you', 5)).rejects.toMatchObject({ errorClass: 'connection_reset' });
      fake.get('/search/companies', page('ch-web-search-q-you-constructed-from-templates.html'));
      await expect(gb.searchByName('you', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
      fake.get('/company/08957400', { body: '{"company_number":"08957400"}' });
      await expect(gb.lookup('08957400')).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });

    it('probes TESCO PLC (00445790) on the API', async () => {
      fake.get('/company/00445790', { fixture: `${G}/ch-company-profile-08957400.json` });
      await expect(gb.probe()).resolves.toEqual({ httpStatus: 200 });
      expect(fake.requests[0].headers.authorization).toMatch(/^Basic /);
    });
  });

  describe("without a key: Companies House's own website", () => {
    let gb: GbConnector;
    beforeEach(() => {
      gb = connector({ REGISTER_GB_WEB_URL: fake.url, REGISTER_GB_API_URL: `${fake.url}/api-must-not-be-used` });
    });

    it('is still the register itself (its own website), needing nothing more', () => {
      expect(gb.source()).toMatchObject({ kind: 'native_official_website', official: true });
      expect(gb.unavailableReason()).toBeNull();
    });

    it('searches the results page', async () => {
      fake.get('/search/companies', page('ch-web-search-q-you-constructed-from-templates.html'));
      const results = await gb.searchByName('you', 10);
      expect(fake.requests[0].headers.authorization).toBeUndefined();
      expect(fake.requests[0].headers.accept).toBe('text/html');
      expect(fake.requests[0].query.get('q')).toBe('you');
      expect(results).toHaveLength(10);
      expect(results[0]).toMatchObject({
        name: 'YOU LIMITED',
        registrationNumber: '04475590',
        incorporationDate: '2002-07-02',
        source: {
          register: REGISTER,
          url: `${fake.url}/company/04475590`,
          official: true,
          kind: 'native_official_website',
          retrievedAt: NOW,
        },
      });
    });

    it('answers the no-results page with []', async () => {
      fake.get('/search/companies', page('ch-web-search-no-results-constructed-from-templates.html'));
      await expect(gb.searchByName('jibberish', 10)).resolves.toEqual([]);
    });

    it('looks a company up on its page and its officers page', async () => {
      fake.get('/company/04475590', page('ch-web-company-04475590-constructed-from-templates.html'));
      fake.get('/company/04475590/officers', page('ch-web-officers-04475590-constructed-from-templates.html'));
      const detail = await gb.lookup('04475590');
      expect(detail).toMatchObject({
        name: 'YOU LIMITED',
        status: 'Active',
        statusCategory: 'active',
        legalForm: 'Private limited Company',
        address: '74 Lairgate, Beverley, East Yorkshire, United Kingdom, HU17 8EU',
        city: null,
        incorporationDate: '2002-07-02',
        source: { kind: 'native_official_website', official: true },
      });
      expect(detail!.officers).toHaveLength(7);
      expect(detail!.officers![5]).toEqual({
        name: 'STEVENSON, Benjamin Thomas',
        role: 'Director',
        kind: 'person',
        appointedOn: '2012-11-09',
        resignedOn: '2017-09-01',
      });
    });

    it('reads a dissolved company page', async () => {
      fake.get('/company/10418261', page('ch-web-company-10418261-dissolved-constructed-from-templates.html'));
      fake.get('/company/10418261/officers', NOT_FOUND);
      await expect(gb.lookup('10418261')).resolves.toMatchObject({
        status: 'Dissolved',
        statusCategory: 'dissolved',
        extra: { dateOfCessation: '2017-08-22' },
        officers: [],
      });
    });

    it('answers 404 with null', async () => {
      fake.get('/company/00000001', { status: 404, body: '<html><body><h1>Page not found</h1></body></html>' });
      await expect(gb.lookup('1')).resolves.toBeNull();
    });

    it('a maintenance page, a 502 and a reset are upstream errors', async () => {
      fake.get('/company/08957400', { body: '<html><body><h1>Sorry, the service is unavailable</h1></body></html>' });
      await expect(gb.lookup('08957400')).rejects.toMatchObject({ errorClass: 'invalid_response' });
      fake.get('/search/companies', { body: '{"items":[]}', headers: { 'Content-Type': 'application/json' } });
      await expect(gb.searchByName('you', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
      fake.get('/search/companies', { status: 502, body: '<html><body>Bad Gateway</body></html>' });
      await expect(gb.searchByName('you', 5)).rejects.toMatchObject({ errorClass: 'http_5xx' });
      fake.get('/company/08957400', { reset: true });
      await expect(gb.lookup('08957400')).rejects.toMatchObject({ errorClass: 'connection_reset' });
      fake.get('/company/08957400', {
        delayMs: 1_500,
        ...page('ch-web-company-08957400-constructed-from-templates.html'),
      });
      await expect(gb.lookup('08957400')).rejects.toMatchObject({ errorClass: 'timeout' });
    });

    it('probes the company page on the website', async () => {
      fake.get('/company/00445790', page('ch-web-company-08957400-constructed-from-templates.html'));
      await expect(gb.probe()).resolves.toEqual({ httpStatus: 200 });
      expect(fake.requests.map((r) => r.path)).toEqual(['/company/00445790']);
    });

    it('never touches the API without a key', async () => {
      fake.get('/search/companies', page('ch-web-search-q-you-constructed-from-templates.html'));
      await gb.searchByName('you', 3);
      expect(fake.requestsTo(/api-must-not-be-used/)).toHaveLength(0);
    });
  });
});
