import { ManualClock } from '../../platform/clock';
import { FakeRegister, RecordedRequest } from '../../../test/support/fake-register';
import { AuConnector } from './au.connector';
import { connectorBuilder, upstreamFailure } from '../../../test/support/connectors';

const NOW = '2025-03-04T05:06:07.089Z';
const GUID = '0a1b2c3d-4e5f-6a7b-8c9d-0e1f2a3b4c5d';
const ABN_FIXTURES: Record<string, string> = {
  '26154482283': 'registers/au/abr-json-abndetails-26154482283-oneflare-active.jsonp',
};
const NO_RECORD = 'registers/au/abr-json-abndetails-no-record-constructed-from-docs.jsonp';

function replayAbnDetails(req: RecordedRequest) {
  return { fixture: ABN_FIXTURES[req.query.get('abn') ?? ''] ?? NO_RECORD };
}

describe('AuConnector on a fake ABN Lookup', () => {
  const fake = new FakeRegister();
  const clock = new ManualClock(new Date(NOW));

  const connectors = connectorBuilder('AU', AuConnector, clock, () => ({
    REGISTER_AU_API_URL: fake.url,
    REGISTER_AU_GUID: GUID,
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
    fake.get('/json/AbnDetails.aspx', replayAbnDetails);
  });

  it('looks an ABN up with AbnDetails, the GUID and the JSONP callback', async () => {
    const detail = await connector().lookup('26154482283');

    expect(detail).toEqual({
      name: 'Oneflare Pty Ltd',
      registrationNumber: '26154482283',
      country: 'AU',
      status: 'Active',
      statusCategory: 'active',
      legalForm: 'Australian Private Company',
      address: 'NSW 2000',
      city: null,
      incorporationDate: null,
      extra: {
        acn: '154482283',
        otherNumbers: ['154482283'],
        abnStatusEffectiveFrom: '2011-11-28',
        gstRegisteredFrom: '2011-11-28',
        entityTypeCode: 'PRV',
        businessNames: [],
      },
      source: {
        register: 'Australian Business Register (ABN Lookup)',
        url: 'https://abr.business.gov.au/ABN/View?abn=26154482283',
        official: true,
        kind: 'native_official',
        retrievedAt: NOW,
      },
      officers: null,
    });
    const [req] = fake.requests;
    expect(req.path).toBe('/json/AbnDetails.aspx');
    expect(Object.fromEntries(req.query)).toEqual({ abn: '26154482283', callback: 'callback', guid: GUID });
  });

  it('looks an ACN up with AcnDetails and returns the ABN record with the ACN in extra', async () => {
    fake.get('/json/AcnDetails.aspx', (req) =>
      req.query.get('acn') === '154482283'
        ? { fixture: 'registers/au/abr-json-acndetails-154482283-oneflare-constructed-from-docs.jsonp' }
        : { fixture: NO_RECORD },
    );
    const detail = await connector().lookup('154482283');
    expect(detail).toMatchObject({
      registrationNumber: '26154482283',
      name: 'Oneflare Pty Ltd',
      extra: { acn: '154482283' },
      officers: null,
    });
    expect(fake.requests[0].query.get('acn')).toBe('154482283');
    expect(await connector().lookup('004085616')).toBeNull();
  });

  it('searches names with MatchingNames, maps status codes to words and keeps one result per ABN', async () => {
    fake.get('/json/MatchingNames.aspx', {
      fixture: 'registers/au/abr-json-matchingnames-oneflare-constructed-from-docs.jsonp',
    });
    const results = await connector().searchByName('Oneflare', 10);

    expect(results.map((r) => [r.registrationNumber, r.name, r.status, r.statusCategory, r.address])).toEqual([
      ['26154482283', 'Oneflare Pty Ltd', 'Active', 'active', 'NSW 2000'],
      ['80000000001', 'ONEFLARE EXAMPLE CONSTRUCTED PTY LTD', 'Cancelled', 'dissolved', 'VIC 3000'],
    ]);
    expect(results[0].source).toEqual({
      register: 'Australian Business Register (ABN Lookup)',
      url: 'https://abr.business.gov.au/ABN/View?abn=26154482283',
      official: true,
      kind: 'native_official',
      retrievedAt: NOW,
    });
    expect(Object.fromEntries(fake.requests[0].query)).toEqual({
      name: 'Oneflare',
      maxResults: '10',
      callback: 'callback',
      guid: GUID,
    });
    expect(await connector().searchByName('Oneflare', 1)).toHaveLength(1);
  });

  it('answers [] when MatchingNames finds nothing', async () => {
    fake.get('/json/MatchingNames.aspx', {
      fixture: 'registers/au/abr-json-matchingnames-no-record-constructed-from-docs.jsonp',
    });
    expect(await connector().searchByName('zzzz nothing', 5)).toEqual([]);
  });

  it('answers null for an ABN the register does not know (HTTP 200 + "No record found")', async () => {
    expect(await connector().lookup('88712649015')).toBeNull();
  });

  it('reads a cancelled ABN', async () => {
    fake.get('/json/AbnDetails.aspx', {
      fixture: 'registers/au/abr-json-abndetails-26154482283-cancelled-constructed-from-docs.jsonp',
    });
    expect(await connector().lookup('26154482283')).toMatchObject({
      status: 'Cancelled',
      statusCategory: 'dissolved',
      incorporationDate: null,
    });
  });

  it('refuses an answer about another ABN than the one asked', async () => {
    fake.get('/json/AbnDetails.aspx', { fixture: ABN_FIXTURES['26154482283'] });
    expect((await failure(connector().lookup('53004085616'))).errorClass).toBe('invalid_response');
  });

  it('probes with AbnDetails for 26154482283', async () => {
    await expect(connector().probe()).resolves.toEqual({ httpStatus: 200 });
    expect(fake.requests[0].query.get('abn')).toBe('26154482283');
  });

  describe('HTTP 200 with an error Message', () => {
    it('an unknown GUID → unauthorized, the GUID never in the message', async () => {
      fake.get('/json/AbnDetails.aspx', {
        fixture: 'registers/au/abr-json-abndetails-invalid-guid-constructed-from-docs.jsonp',
      });
      const err = await failure(connector().lookup('26154482283'));
      expect(err.errorClass).toBe('unauthorized');
      expect(err.message).not.toContain(GUID);
    });

    it('an unknown message → invalid_response, never a blank record', async () => {
      fake.get('/json/AbnDetails.aspx', {
        fixture: 'registers/au/abr-json-abndetails-unknown-message-constructed-from-docs.jsonp',
      });
      expect((await failure(connector().lookup('26154482283'))).errorClass).toBe('invalid_response');
      expect((await failure(connector().probe())).errorClass).toBe('invalid_response');
    });
  });

  describe('without a GUID', () => {
    it('says why it is unavailable and sends nothing', async () => {
      const au = connector({ REGISTER_AU_GUID: '' });
      expect(au.unavailableReason()).toMatch(/ABN Lookup .*GUID.*paused/);
      await failure(au.lookup('26154482283'));
      await failure(au.searchByName('Oneflare', 5));
      await failure(au.probe());
      expect(fake.requests).toHaveLength(0);
    });

    it('is available with one', () => {
      expect(connector().unavailableReason()).toBeNull();
    });
  });

  describe('register failures', () => {
    it('HTTP 500 → http_5xx', async () => {
      fake.get('/json/AbnDetails.aspx', { status: 500, body: '<html>Runtime Error</html>' });
      expect(await failure(connector().lookup('26154482283'))).toMatchObject({
        errorClass: 'http_5xx',
        httpStatus: 500,
      });
    });

    it('no answer within REGISTER_TIMEOUT_MS → timeout', async () => {
      fake.get('/json/AbnDetails.aspx', { delayMs: 1500, fixture: ABN_FIXTURES['26154482283'] });
      expect((await failure(connector().lookup('26154482283'))).errorClass).toBe('timeout');
    });

    it('connection reset → connection_reset', async () => {
      fake.get('/json/MatchingNames.aspx', { reset: true });
      expect((await failure(connector().searchByName('Oneflare', 5))).errorClass).toBe('connection_reset');
    });

    it.each([
      ['an HTML page', '<!DOCTYPE html><html><body>ABN Lookup is unavailable</body></html>'],
      ['plain JSON instead of JSONP', '{"Abn":"26154482283","EntityName":"Oneflare Pty Ltd","Message":""}'],
      ['a truncated callback', 'callback({"Abn":"26154482283","AbnStatus":"Act'],
    ])('garbage (%s) → invalid_response', async (_label, body) => {
      fake.get('/json/AbnDetails.aspx', { status: 200, body });
      expect((await failure(connector().lookup('26154482283'))).errorClass).toBe('invalid_response');
    });
  });
});
