import { ManualClock } from '../../platform/clock';
import { FakeRegister } from '../../../test/support/fake-register';
import { CaConnector } from './ca.connector';
import { NameSearchUnsupportedError } from '../name-search-unsupported.error';
import { connectorBuilder, upstreamFailure } from '../../../test/support/connectors';

const NOW = '2025-03-04T05:06:07.089Z';
const KEY = 'test-user-key-123';
const C1007 = 'registers/ca/corpcan-api-corporation-1007-constructed-from-docs.json';
const C16292721 = 'registers/ca/corpcan-api-corporation-16292721-constructed-from-docs.json';
const UNKNOWN = 'registers/ca/corpcan-api-corporation-unknown-99999999-constructed-from-docs.json';
const DIRECTORS = 'registers/ca/corpcan-api-v2-directors-9657690.json';

describe('CaConnector on a fake Corporations Canada', () => {
  const fake = new FakeRegister();
  const clock = new ManualClock(new Date(NOW));

  const connectors = connectorBuilder('CA', CaConnector, clock, () => ({
    REGISTER_CA_API_URL: fake.url,
    REGISTER_CA_GATEWAY_URL: `${fake.url}/gateway`,
    REGISTER_TIMEOUT_MS: '300',
  }));
  const connector = (env: Record<string, string> = {}) => connectors.build(env);

  const failure = upstreamFailure;

  beforeAll(() => fake.start());
  afterAll(async () => {
    connectors.shutdown();
    await fake.stop();
  });
  beforeEach(() => {
    fake.reset();
    fake.get(/^\/api\/corporations\/\d+\.json$/, { status: 404, fixture: UNKNOWN });
    fake.get('/api/corporations/1007.json', { fixture: C1007 });
    fake.get('/api/corporations/106679285.json', { fixture: C1007 }); // the JSON accepts the BN9 too
    fake.get('/api/corporations/16292721.json', { fixture: C16292721 });
  });

  it('looks a corporation up with the keyless JSON, in English, without officers', async () => {
    const detail = await connector().lookup('1007');

    expect(detail).toEqual({
      name: 'Abbotsford Chamber of Commerce',
      registrationNumber: '1007',
      country: 'CA',
      status: 'Active',
      statusCategory: 'active',
      legalForm: 'Boards of Trade Act — Part II',
      address: '207 - 32900 SOUTH FRASER WAY, ABBOTSFORD BC V2S 5A1',
      city: 'ABBOTSFORD',
      incorporationDate: '1947-01-10',
      extra: { businessNumber: '106679285', otherNumbers: ['106679285'] },
      source: {
        register: 'Corporations Canada federal corporations register',
        url: 'https://ised-isde.canada.ca/cc/lgcy/fdrlCrpDtls.html?corpId=1007',
        official: true,
        kind: 'native_official',
        retrievedAt: NOW,
      },
      officers: null,
    });
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0].query.get('lang')).toBe('eng');
    expect(fake.requests[0].headers['user-key']).toBeUndefined();
  });

  it('looks a corporation up by its BN9 and reports its corporation number', async () => {
    expect(await connector().lookup('106679285')).toMatchObject({
      registrationNumber: '1007',
      extra: { businessNumber: '106679285' },
    });
    expect(await connector().lookup('16292721')).toMatchObject({
      name: '16292721 CANADA INC.',
      legalForm: 'Canada Business Corporations Act',
    });
  });

  it('answers null for "could not find corporation", with HTTP 404 or 200', async () => {
    expect(await connector().lookup('99999999')).toBeNull();
    fake.get('/api/corporations/99999999.json', { status: 200, fixture: UNKNOWN });
    expect(await connector().lookup('99999999')).toBeNull();
  });

  it('does not read a 404 without the register\'s own answer as "not found"', async () => {
    fake.get('/api/corporations/1007.json', { status: 404, body: '<html>Not Found</html>' });
    expect(await failure(connector().lookup('1007'))).toMatchObject({ errorClass: 'http_4xx', httpStatus: 404 });
  });

  it('refuses an answer about another corporation than the one asked', async () => {
    fake.get('/api/corporations/16292721.json', { fixture: C1007 });
    expect((await failure(connector().lookup('16292721'))).errorClass).toBe('invalid_response');
  });

  it('has no live name search: it says so without sending a request', async () => {
    const ca = connector();
    await expect(ca.searchByName('Abbotsford', 5)).rejects.toBeInstanceOf(NameSearchUnsupportedError);
    await expect(ca.searchByName('Abbotsford', 5)).rejects.toMatchObject({
      country: 'CA',
      code: 'name_search_unsupported',
    });
    expect(fake.requests).toHaveLength(0);
    expect(ca.source()).toMatchObject({ kind: 'native_official', official: true });
    expect(ca.unavailableReason()).toBeNull();
  });

  it('probes with /api/corporations/1007.json?lang=eng', async () => {
    await expect(connector().probe()).resolves.toEqual({ httpStatus: 200 });
    expect(fake.requests[0].path).toBe('/api/corporations/1007.json');
  });

  describe('with REGISTER_CA_API_KEY: the ISED gateway', () => {
    beforeEach(() => {
      fake.get('/gateway/api/v1/corporations/1007.json', { fixture: C1007 });
      // The one recorded directors answer (corporation 9657690) replayed at 1007's path: this
      // checks the request and the mapping, not who sits on 1007's board.
      fake.get('/gateway/api/v2/corporations/1007/directors', { fixture: DIRECTORS });
    });

    it('reads the corporation and its directors with the user-key header', async () => {
      const detail = await connector({ REGISTER_CA_API_KEY: KEY }).lookup('1007');

      expect(detail).toMatchObject({
        name: 'Abbotsford Chamber of Commerce',
        source: { official: true, kind: 'native_official', retrievedAt: NOW },
      });
      expect(detail!.officers).toEqual([
        { name: 'Michael Kravshik', role: 'Director', kind: 'person', appointedOn: null, resignedOn: null },
        { name: 'Jean Desgagne', role: 'Director', kind: 'person', appointedOn: null, resignedOn: null },
        { name: 'Adam Bercovici', role: 'Director', kind: 'person', appointedOn: null, resignedOn: null },
      ]);
      expect(fake.requests.map((r) => [r.path, r.query.get('lang'), r.headers['user-key']])).toEqual([
        ['/gateway/api/v1/corporations/1007.json', 'eng', KEY],
        ['/gateway/api/v2/corporations/1007/directors', null, KEY],
      ]);
      expect(connector({ REGISTER_CA_API_KEY: KEY }).source().description).toMatch(/gateway/);
    });

    it('reads no directors as an empty list when the gateway has no directors resource', async () => {
      fake.get('/gateway/api/v2/corporations/1007/directors', { status: 404, body: '' });
      expect((await connector({ REGISTER_CA_API_KEY: KEY }).lookup('1007'))!.officers).toEqual([]);
    });

    it('probes the gateway it reads from', async () => {
      await expect(connector({ REGISTER_CA_API_KEY: KEY }).probe()).resolves.toEqual({ httpStatus: 200 });
      expect(fake.requests[0].path).toBe('/gateway/api/v1/corporations/1007.json');
    });

    it('a rejected key → unauthorized, the key never in the message', async () => {
      fake.get('/gateway/api/v1/corporations/1007.json', { status: 401, body: '{"message":"invalid user-key"}' });
      const err = await failure(connector({ REGISTER_CA_API_KEY: KEY }).lookup('1007'));
      expect(err.errorClass).toBe('unauthorized');
      expect(err.message).not.toContain(KEY);
    });
  });

  describe('register failures', () => {
    it('HTTP 500 → http_5xx', async () => {
      fake.get('/api/corporations/1007.json', { status: 500, body: 'Internal Server Error' });
      expect(await failure(connector().lookup('1007'))).toMatchObject({ errorClass: 'http_5xx', httpStatus: 500 });
    });

    it('no answer within REGISTER_TIMEOUT_MS → timeout', async () => {
      fake.get('/api/corporations/1007.json', { delayMs: 1500, fixture: C1007 });
      expect((await failure(connector().lookup('1007'))).errorClass).toBe('timeout');
    });

    it('connection reset → connection_reset', async () => {
      fake.get('/api/corporations/1007.json', { reset: true });
      expect((await failure(connector().lookup('1007'))).errorClass).toBe('connection_reset');
    });

    it.each([
      ['an HTML page', '<!DOCTYPE html><html><body>Maintenance</body></html>'],
      ['a JSON object instead of the array', '{"corporationId":"1007"}'],
      ['truncated JSON', '[{"corporationId":"1007","corporationNames":[{"Corpo'],
    ])('garbage (%s) → invalid_response', async (_label, body) => {
      fake.get('/api/corporations/1007.json', { status: 200, body });
      expect((await failure(connector().lookup('1007'))).errorClass).toBe('invalid_response');
    });
  });
});
