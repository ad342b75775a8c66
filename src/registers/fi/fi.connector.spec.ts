import axios from 'axios';
import { ManualClock } from '../../platform/clock';
import type { AppConfig } from '../../platform/config/app-config';
import type { HttpClientFactory, RegisterClientOptions } from '../client/http-client.factory';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import {
  FI_FAILING,
  FI_NOKIA,
  FI_UNKNOWN,
  routeFakeFiRegister,
} from '../../../test/fixtures/registers/fi/fi-fake-routes';
import { FiConnector } from './fi.connector';

const NOW = '2026-10-05T09:15:30.250Z';
const LATER = '2026-10-05T09:15:31.875Z';
const F = 'registers/fi';
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const REGISTER = 'Yritys- ja yhteisötietojärjestelmä YTJ (Patentti- ja rekisterihallitus)';

/**
 * TODO(integration): once FI is in the register table, build these with AppConfig.fromEnv({
 * REGISTER_FI_API_URL: fake.url, … }) and `new HttpClientFactory(config)` as the NO spec does.
 * Until then the factory cannot make an FI client, so this stands in for it: a plain axios
 * client on the fake, with the factory's timeout and Accept header (no breaker, queue or retry).
 */
function stubs(fake: FakeRegister): { config: AppConfig; http: HttpClientFactory; purposes: string[] } {
  const purposes: string[] = [];
  const config = {
    register: (cc: string) => {
      if (cc !== 'FI') throw new Error(`no stub config for ${cc}`);
      return { urls: { API: fake.url, WEB: 'https://tietopalvelu.ytj.fi' }, credentials: {}, paused: false };
    },
    probe: { intervalSeconds: 300, timeoutMs: 300 },
  } as unknown as AppConfig;
  const http = {
    forRegister: (cc: string, purpose: string, options: RegisterClientOptions = {}) => {
      purposes.push(`${cc}_${purpose}`);
      return axios.create({
        baseURL: fake.url,
        timeout: options.timeoutMs ?? 300,
        headers: { Accept: 'application/json' },
      });
    },
  } as unknown as HttpClientFactory;
  return { config, http, purposes };
}

describe('FiConnector (PRH YTJ v3) against recorded and derived answers', () => {
  const fake = new FakeRegister();
  let clock: ManualClock;
  let connector: FiConnector;
  let purposes: string[];

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    routeFakeFiRegister(fake);
    clock = new ManualClock(new Date(NOW));
    const s = stubs(fake);
    purposes = s.purposes;
    connector = new FiConnector(s.config, s.http, clock);
  });

  it('reads live from the register itself through its API endpoint and needs no credential', () => {
    expect(connector.country).toBe('FI');
    expect(purposes).toEqual(['FI_API', 'FI_API']);
    expect(connector.source()).toMatchObject({ kind: 'native_official', official: true });
    expect(connector.unavailableReason()).toBeNull();
  });

  it('searches by name and keeps the register’s order up to the limit', async () => {
    const results = await connector.searchByName('Nokia', 2);
    expect(fake.requests.map((r) => [r.path, r.query.get('name'), r.query.get('businessId')])).toEqual([
      ['/companies', 'Nokia', null],
    ]);
    expect(results).toEqual([
      {
        name: 'Nokia Oyj',
        registrationNumber: '0112038-9',
        country: 'FI',
        status: 'Rekisterissä',
        statusCategory: 'active',
        legalForm: 'Julkinen osakeyhtiö',
        address: 'Karakaari 7, 02610 ESPOO',
        city: 'ESPOO',
        incorporationDate: '1896-12-19',
        extra: {
          companyForm: '17',
          tradeRegisterStatus: '1',
          businessIdRegistrationDate: '1978-03-15',
          euId: 'FIFPRO.0112038-9',
          lastModified: '2026-08-19T10:04:06',
        },
        source: {
          register: REGISTER,
          url: 'https://tietopalvelu.ytj.fi/yritys/0112038-9',
          official: true,
          kind: 'native_official',
          retrievedAt: NOW,
        },
      },
      expect.objectContaining({
        name: 'Esimerkki Nokia Oy',
        registrationNumber: '9876543-0',
        status: 'Selvitystila',
        source: expect.objectContaining({ url: 'https://tietopalvelu.ytj.fi/yritys/9876543-0' }),
      }),
    ]);
  });

  it('does not parse the hits past the limit', async () => {
    const page = JSON.parse(fixture(`${F}/prh-ytj-v3-companies-name-nokia-derived-three-hits.json`));
    page.companies[2] = { businessId: null };
    fake.get('/companies', { body: JSON.stringify(page), headers: JSON_HEADERS });
    await expect(connector.searchByName('Nokia', 2)).resolves.toHaveLength(2);
    await expect(connector.searchByName('Nokia', 3)).rejects.toMatchObject({ errorClass: 'invalid_response' });
  });

  it('answers a search without hits, or a 404, with no results', async () => {
    await expect(connector.searchByName('jibberish', 10)).resolves.toEqual([]);
    fake.get('/companies', { status: 404, body: '' });
    await expect(connector.searchByName('Nokia', 10)).resolves.toEqual([]);
  });

  it('looks a company up by business ID, taking the reading time when the answer arrives', async () => {
    fake.get('/companies', (req) => {
      clock.set(LATER);
      expect(req.query.get('businessId')).toBe(FI_NOKIA);
      return { fixture: `${F}/prh-ytj-v3-companies-businessId-0112038-9-nokia-oyj.json` };
    });
    const detail = await connector.lookup(FI_NOKIA);
    expect(detail).toMatchObject({
      name: 'Nokia Oyj',
      registrationNumber: FI_NOKIA,
      status: 'Rekisterissä',
      officers: null,
      source: { url: 'https://tietopalvelu.ytj.fi/yritys/0112038-9', retrievedAt: LATER },
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('reads a ceased company as dissolved, in one request', async () => {
    fake.get('/companies', { fixture: `${F}/prh-ytj-v3-companies-businessId-0112038-9-derived-ceased.json` });
    const record = await connector.readRecord(FI_NOKIA);
    expect(record).toMatchObject({ status: 'Lakannut', statusCategory: 'dissolved', extra: { endDate: '2026-09-30' } });
    expect(record).not.toHaveProperty('officers');
    expect(fake.requests).toHaveLength(1);
  });

  it('answers null for a business ID without company (empty answer or 404), and asks nothing for a malformed one', async () => {
    await expect(connector.lookup(FI_UNKNOWN)).resolves.toBeNull();
    fake.get('/companies', { status: 404, body: '{"timestamp":"2026-10-05 09:33:58","message":"Not Found"}' });
    await expect(connector.readRecord(FI_UNKNOWN)).resolves.toBeNull();
    expect(fake.requests).toHaveLength(2);
    await expect(connector.lookup('01120389')).resolves.toBeNull();
    await expect(connector.lookup('0112038-9; DROP')).resolves.toBeNull();
    expect(fake.requests).toHaveLength(2);
  });

  it('refuses an answer about another company', async () => {
    fake.get('/companies', { fixture: `${F}/prh-ytj-v3-companies-businessId-0112038-9-nokia-oyj.json` });
    await expect(connector.lookup(FI_UNKNOWN)).rejects.toMatchObject({ errorClass: 'invalid_response' });
  });

  describe('register failures become UpstreamError', () => {
    it('503 with the ErrorResponse body → http_5xx', async () => {
      await expect(connector.lookup(FI_FAILING)).rejects.toMatchObject({ errorClass: 'http_5xx', httpStatus: 503 });
    });

    it('500 → http_5xx; 400 → http_4xx', async () => {
      fake.get('/companies', { status: 500, body: '{"timestamp":"2026-10-05 09:33:58","errorcode":500}' });
      await expect(connector.searchByName('Nokia', 5)).rejects.toMatchObject({ errorClass: 'http_5xx' });
      fake.get('/companies', { status: 400, body: '{"timestamp":"2026-10-05 09:33:58","errorcode":400}' });
      await expect(connector.searchByName('N', 5)).rejects.toMatchObject({ errorClass: 'http_4xx', httpStatus: 400 });
    });

    it('429 in text/plain → rate_limited', async () => {
      fake.get('/companies', { status: 429, body: 'Too Many Requests', headers: { 'Retry-After': '1' } });
      await expect(connector.lookup(FI_NOKIA)).rejects.toMatchObject({ errorClass: 'rate_limited', httpStatus: 429 });
    });

    it('an HTML page where JSON was expected → invalid_response', async () => {
      fake.get('/companies', {
        body: '<!DOCTYPE html><html><body>Huoltokatko</body></html>',
        headers: { 'Content-Type': 'text/html' },
      });
      await expect(connector.lookup(FI_NOKIA)).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });

    it('truncated JSON → invalid_response', async () => {
      const text = fixture(`${F}/prh-ytj-v3-companies-name-nokia-derived-three-hits.json`);
      fake.get('/companies', { body: text.slice(0, 400), headers: JSON_HEADERS });
      await expect(connector.searchByName('Nokia', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });

    it('JSON without the fields needed → invalid_response', async () => {
      fake.get('/companies', { body: '{"results":[]}', headers: JSON_HEADERS });
      await expect(connector.searchByName('Nokia', 5)).rejects.toMatchObject({ errorClass: 'invalid_response' });
      fake.get('/companies', { body: '{"totalResults":1,"companies":[{"names":[]}]}', headers: JSON_HEADERS });
      await expect(connector.lookup(FI_NOKIA)).rejects.toMatchObject({ errorClass: 'invalid_response' });
    });

    it('no answer in time → timeout; connection reset → connection_reset', async () => {
      fake.get('/companies', { delayMs: 1_000, fixture: `${F}/prh-ytj-v3-companies-derived-no-hits.json` });
      await expect(connector.lookup(FI_NOKIA)).rejects.toMatchObject({ errorClass: 'timeout' });
      fake.get('/companies', { reset: true });
      await expect(connector.searchByName('Nokia', 5)).rejects.toMatchObject({ errorClass: 'connection_reset' });
    });
  });

  describe('probe', () => {
    it('reads Nokia Oyj (0112038-9)', async () => {
      await expect(connector.probe()).resolves.toEqual({ httpStatus: 200 });
      expect(fake.requests.map((r) => [r.path, r.query.get('businessId')])).toEqual([['/companies', FI_NOKIA]]);
    });

    it('fails on an answer without Nokia, and on 503', async () => {
      fake.get('/companies', { fixture: `${F}/prh-ytj-v3-companies-derived-no-hits.json` });
      await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'invalid_response' });
      fake.get('/companies', { status: 503, fixture: `${F}/prh-ytj-v3-error-503-derived-from-schema.json` });
      await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'http_5xx', httpStatus: 503 });
    });

    it('fails on a 404', async () => {
      fake.get('/companies', { status: 404, body: '' });
      await expect(connector.probe()).rejects.toMatchObject({ errorClass: 'http_4xx', httpStatus: 404 });
    });
  });
});
