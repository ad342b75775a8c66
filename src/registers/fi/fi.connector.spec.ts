import { ManualClock } from '../../platform/clock';
import { connectorBuilder, upstreamFailure } from '../../../test/support/connectors';
import { FakeRegister, fixture } from '../../../test/support/fake-register';
import { FI_FAILING, FI_NOKIA, FI_UNKNOWN, routeFakeFiRegister } from '../../../test/support/fake-fi-register';
import { FiConnector } from './fi.connector';

const NOW = '2026-10-05T09:15:30.250Z';
const LATER = '2026-10-05T09:15:31.875Z';
const F = 'registers/fi';
const JSON_HEADERS = { 'Content-Type': 'application/json' };
const REGISTER = 'Yritys- ja yhteisötietojärjestelmä YTJ (Patentti- ja rekisterihallitus)';

/**
 * The connector as the application builds it (loadConfig, the one HTTP client factory with its
 * politeness, retries and User-Agent) against PRH on loopback (test/support/fake-fi-register.ts),
 * which replays the recorded Nokia answer and the answers derived from it (MANIFEST.md).
 */
describe('FiConnector (PRH YTJ v3) against recorded and derived answers', () => {
  const fake = new FakeRegister();
  const clock = new ManualClock(new Date(NOW));
  const connectors = connectorBuilder('FI', FiConnector, clock, () => ({
    REGISTER_FI_API_URL: fake.url,
    REGISTER_TIMEOUT_MS: '300',
    PROBE_TIMEOUT_MS: '300',
  }));
  let connector: FiConnector;

  beforeAll(async () => {
    await fake.start();
  });
  afterAll(async () => {
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    routeFakeFiRegister(fake);
    clock.set(NOW);
    connector = connectors.build();
  });
  afterEach(() => connectors.shutdown());

  it('reads live from the register itself, keyless, naming the service in its User-Agent', async () => {
    expect(connector.country).toBe('FI');
    expect(connector.source()).toMatchObject({ kind: 'native_official', official: true });
    expect(connector.unavailableReason()).toBeNull();
    await connector.readRecord(FI_NOKIA);
    expect(fake.requests[0].headers['user-agent']).toMatch(/^RegistryLookup\//);
    expect(fake.requests[0].headers.accept).toBe('application/json');
  });

  it('links records to REGISTER_FI_WEB_URL when it is set', async () => {
    const elsewhere = connectors.build({ REGISTER_FI_WEB_URL: 'https://ytj.example' });
    await expect(elsewhere.readRecord(FI_NOKIA)).resolves.toMatchObject({
      source: { url: 'https://ytj.example/yritys/0112038-9' },
    });
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
    it('503 with the ErrorResponse body → http_5xx, after one safe retry', async () => {
      const err = await upstreamFailure(connector.lookup(FI_FAILING));
      expect(err).toMatchObject({ errorClass: 'http_5xx', httpStatus: 503 });
      expect(fake.requests.map((r) => r.query.get('businessId'))).toEqual([FI_FAILING, FI_FAILING]);
    });

    it('500 → http_5xx; 400 → http_4xx', async () => {
      fake.get('/companies', { status: 500, body: '{"timestamp":"2026-10-05 09:33:58","errorcode":500}' });
      await expect(connector.searchByName('Nokia', 5)).rejects.toMatchObject({ errorClass: 'http_5xx' });
      fake.get('/companies', { status: 400, body: '{"timestamp":"2026-10-05 09:33:58","errorcode":400}' });
      await expect(connector.searchByName('N', 5)).rejects.toMatchObject({ errorClass: 'http_4xx', httpStatus: 400 });
    });

    it('429 in text/plain → rate_limited, once Retry-After has been honoured', async () => {
      fake.get('/companies', { status: 429, body: 'Too Many Requests', headers: { 'Retry-After': '1' } });
      await expect(connector.lookup(FI_NOKIA)).rejects.toMatchObject({ errorClass: 'rate_limited', httpStatus: 429 });
      expect(fake.requests).toHaveLength(2);
      expect(fake.requests[1].at - fake.requests[0].at).toBeGreaterThanOrEqual(950);
    });

    it('a 429 followed by the answer is the answer', async () => {
      let first = true;
      fake.get('/companies', () => {
        if (!first) return { fixture: `${F}/prh-ytj-v3-companies-businessId-0112038-9-nokia-oyj.json` };
        first = false;
        return { status: 429, body: 'Too Many Requests', headers: { 'Retry-After': '0' } };
      });
      await expect(connector.lookup(FI_NOKIA)).resolves.toMatchObject({ name: 'Nokia Oyj' });
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
