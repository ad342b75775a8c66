import { ManualClock } from '../../platform/clock';
import { fixture, FakeRegister, RecordedRequest } from '../../../test/support/fake-register';
import { DkConnector } from './dk.connector';
import { connectorBuilder, upstreamFailure } from '../../../test/support/connectors';

const PATH = '/cvr-permanent/virksomhed/_search';
const NOW = '2025-03-04T05:06:07.089Z';
const BY_CVR: Record<number, string> = {
  25052943: 'registers/dk/cvr-es-virksomhed-by-cvr-25052943-magenta-aps.json',
  41774037: 'registers/dk/cvr-es-virksomhed-by-cvr-41774037-tietgen-invest.json',
  11617034: 'registers/dk/cvr-es-virksomhed-search-cvr-11617034-fls-fond-aktiv.json',
  32075541: 'registers/dk/cvr-es-virksomhed-by-cvr-32075541-copenhagensource-derived-from-deltager.json',
  21016632: 'registers/dk/cvr-es-virksomhed-by-cvr-21016632-enk-derived-from-deltager.json',
};
const NO_HITS = 'registers/dk/cvr-es-virksomhed-search-no-hits-derived.json';

interface EsBody {
  query: { term?: Record<string, number>; match?: Record<string, { query: string; operator: string }> };
  _source: string[];
  size: number;
}
const bodyOf = (req: RecordedRequest) => JSON.parse(req.body) as EsBody;

/** Answers as the distribution would: the recorded document for a known number, the 4-hit answer for "assure". */
function replayCvr(req: RecordedRequest) {
  const body = bodyOf(req);
  const cvr = body.query.term?.['Vrvirksomhed.cvrNummer'];
  if (cvr !== undefined) return { fixture: BY_CVR[cvr] ?? NO_HITS };
  const name = body.query.match?.['Vrvirksomhed.virksomhedMetadata.nyesteNavn.navn']?.query ?? '';
  return {
    fixture: /assure/i.test(name) ? 'registers/dk/cvr-es-virksomhed-search-4-hits-assure-cvr-v-20220630.json' : NO_HITS,
  };
}

describe('DkConnector on a fake CVR distribution', () => {
  const fake = new FakeRegister();
  const clock = new ManualClock(new Date(NOW));

  const connectors = connectorBuilder('DK', DkConnector, clock, () => ({
    REGISTER_DK_API_URL: fake.url,
    REGISTER_DK_USERNAME: 'u',
    REGISTER_DK_PASSWORD: 'p',
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
    fake.post(PATH, replayCvr);
  });

  it('looks a company up by CVR number with a term query, HTTP Basic and a trimmed _source', async () => {
    const detail = await connector().lookup('25052943');

    expect(detail).toMatchObject({
      name: 'MAGENTA ApS',
      registrationNumber: '25052943',
      country: 'DK',
      status: 'NORMAL',
      statusCategory: 'active',
      legalForm: 'Anpartsselskab',
      address: 'Pilestræde 43, 3., 1112 København K',
      city: 'København K',
      incorporationDate: '1999-11-15',
      extra: { reklamebeskyttet: true },
      source: {
        register: 'Det Centrale Virksomhedsregister',
        url: 'https://datacvr.virk.dk/enhed/virksomhed/25052943',
        official: true,
        kind: 'native_official',
        retrievedAt: NOW,
      },
    });
    expect(detail!.officers).toContainEqual({
      name: 'Morten Kjærsgaard',
      role: 'adm. dir',
      kind: 'person',
      appointedOn: '2009-10-28',
      resignedOn: null,
    });
    const [req] = fake.requests;
    expect(req.method).toBe('POST');
    expect(req.headers.authorization).toBe(`Basic ${Buffer.from('u:p').toString('base64')}`);
    expect(bodyOf(req).query).toEqual({ term: { 'Vrvirksomhed.cvrNummer': 25052943 } });
    expect(bodyOf(req)._source).toEqual(
      expect.arrayContaining(['Vrvirksomhed.cvrNummer', 'Vrvirksomhed.deltagerRelation']),
    );
  });

  it('reads a NUL or a lone surrogate sent as a JSON escape as Postgres can keep it: dropped, U+FFFD', async () => {
    // Derived from the recorded Magenta ApS document: the escapes a JSON writer sends for them.
    const text = fixture(BY_CVR[25052943])
      .split('"MAGENTA ApS"')
      .join('"MAGENTA\\u0000 ApS"')
      .split('"Pilestræde"')
      .join('"Pile\\ud800stræde"');
    expect(text).toContain('\\u0000');
    expect(text).toContain('\\ud800');
    fake.post(PATH, () => ({ body: text, headers: { 'Content-Type': 'application/json' } }));
    const detail = await connector().lookup('25052943');
    expect(detail).toMatchObject({ name: 'MAGENTA ApS', address: 'Pile\uFFFDstræde 43, 3., 1112 København K' });
    // What a watch's baseline is written as: jsonb takes it.
    expect(JSON.stringify(detail)).not.toMatch(/\\u0000|\\ud[89ab]/i);
  });

  it('reads officers with their periods from the document (Tietgen Invest ApS)', async () => {
    const detail = await connector().lookup('41774037');
    expect(detail!.officers!.filter((o) => o.name === 'Jesper Wadum Nielsen')).toEqual([
      { name: 'Jesper Wadum Nielsen', role: 'DIREKTØR', kind: 'person', appointedOn: '2020-10-18', resignedOn: null },
      {
        name: 'Jesper Wadum Nielsen',
        role: 'BESTYRELSESMEDLEM',
        kind: 'person',
        appointedOn: '2020-12-09',
        resignedOn: null,
      },
      {
        name: 'Jesper Wadum Nielsen',
        role: 'FORMAND',
        kind: 'person',
        appointedOn: '2020-10-18',
        resignedOn: '2020-12-08',
      },
      {
        name: 'Jesper Wadum Nielsen',
        role: 'Reel ejer',
        kind: 'person',
        appointedOn: '2020-10-18',
        resignedOn: '2020-12-09',
      },
    ]);
    expect(detail!.officers).toContainEqual({
      name: 'BEIERHOLM, STATSAUTORISERET REVISIONSPARTNERSELSKAB',
      role: 'REVISION',
      kind: 'company',
      appointedOn: '2023-12-05',
      resignedOn: null,
    });
  });

  it('searches by current name with a match query and keeps the register ranking', async () => {
    const results = await connector().searchByName('Assure', 10);

    expect(results.map((r) => [r.registrationNumber, r.name, r.status, r.statusCategory])).toEqual([
      ['35682872', 'ASSURE WEALTH A/S', 'NORMAL', 'active'],
      ['42611433', 'Assure Alternatives A/S', 'NORMAL', 'active'],
      ['34689733', 'MIRANOVA FONDSMÆGLERSELSKAB A/S', 'NORMAL', 'active'],
      ['44477378', 'Assure Alternatives TG Partners VIII Feeder K/S', 'NORMAL', 'active'],
    ]);
    expect(results[0]).toMatchObject({
      address: 'Gammel Strandvej 16, 2990 Nivå',
      city: 'Nivå',
      extra: { reklamebeskyttet: true },
      source: { url: 'https://datacvr.virk.dk/enhed/virksomhed/35682872', retrievedAt: NOW, official: true },
    });
    const body = bodyOf(fake.requests[0]);
    expect(body.query).toEqual({
      match: { 'Vrvirksomhed.virksomhedMetadata.nyesteNavn.navn': { query: 'Assure', operator: 'and' } },
    });
    expect(body.size).toBe(10);
    expect(body._source).not.toContain('Vrvirksomhed.deltagerRelation');
  });

  it('returns at most the limit', async () => {
    expect(await connector().searchByName('Assure', 2)).toHaveLength(2);
    expect(bodyOf(fake.requests[0]).size).toBe(2);
  });

  it('answers null for an unknown number and [] for a name without hits', async () => {
    const dk = connector();
    expect(await dk.lookup('10000009')).toBeNull();
    expect(await dk.searchByName('zzz ingen', 5)).toEqual([]);
  });

  it('does not take a hit for another number as the company asked for', async () => {
    fake.post(PATH, { fixture: BY_CVR[25052943] });
    expect(await connector().lookup('41774037')).toBeNull();
  });

  it('reports ceased companies in the register wording', async () => {
    const dk = connector();
    expect(await dk.lookup('32075541')).toMatchObject({
      name: 'COPENHAGENSOURCE A/S',
      status: 'OPLØST EFTER FRIVILLIG LIKVIDATION',
      statusCategory: 'dissolved',
      officers: [],
    });
    expect(await dk.lookup('21016632')).toMatchObject({
      name: 'MORTEN KJÆRSGAARD',
      status: 'Ophørt',
      statusCategory: 'dissolved',
    });
    expect(await dk.lookup('11617034')).toMatchObject({ status: 'Aktiv', statusCategory: 'active' });
  });

  it('probes with a term lookup of CVR 25052943', async () => {
    await expect(connector().probe()).resolves.toEqual({ httpStatus: 200 });
    expect(bodyOf(fake.requests[0]).query).toEqual({ term: { 'Vrvirksomhed.cvrNummer': 25052943 } });
  });

  it('fails the probe when the probe company is missing', async () => {
    fake.post(PATH, { fixture: NO_HITS });
    expect((await failure(connector().probe())).errorClass).toBe('invalid_response');
  });

  describe('without both credentials', () => {
    it.each([
      [{ REGISTER_DK_USERNAME: '', REGISTER_DK_PASSWORD: '' }],
      [{ REGISTER_DK_PASSWORD: '' }],
      [{ REGISTER_DK_USERNAME: '' }],
    ])('says why it is unavailable and sends nothing (%o)', async (env) => {
      const dk = connector(env);
      expect(dk.unavailableReason()).toMatch(/CVR system-to-system distribution .*credentials.*paused/);
      await failure(dk.lookup('25052943'));
      await failure(dk.searchByName('Assure', 5));
      await failure(dk.probe());
      expect(fake.requests).toHaveLength(0);
    });

    it('is available with both', () => {
      expect(connector().unavailableReason()).toBeNull();
      expect(connector().source()).toMatchObject({ kind: 'native_official', official: true });
    });
  });

  describe('register failures', () => {
    it('HTTP 500 → http_5xx (after one retry of the read-only search)', async () => {
      fake.post(PATH, { status: 500, body: '{"error":"boom"}' });
      const err = await failure(connector().lookup('25052943'));
      expect(err).toMatchObject({ errorClass: 'http_5xx', httpStatus: 500 });
      expect(fake.requests).toHaveLength(2);
    });

    it('HTTP 401 (wrong credentials) → unauthorized, without the credentials in the message', async () => {
      fake.post(PATH, { status: 401, body: '{"error":"unauthorized"}' });
      const err = await failure(connector({ REGISTER_DK_PASSWORD: 's3cret-pw' }).lookup('25052943'));
      expect(err.errorClass).toBe('unauthorized');
      expect(err.message).not.toContain('s3cret-pw');
    });

    it('no answer within REGISTER_TIMEOUT_MS → timeout', async () => {
      fake.post(PATH, { delayMs: 1500, fixture: BY_CVR[25052943] });
      expect((await failure(connector().lookup('25052943'))).errorClass).toBe('timeout');
    });

    it('connection reset → connection_reset', async () => {
      fake.post(PATH, { reset: true });
      expect((await failure(connector().searchByName('Assure', 5))).errorClass).toBe('connection_reset');
    });

    it.each([
      ['an HTML page', '<html><body>Service Unavailable</body></html>'],
      ['JSON that is not a search answer', '{"error":{"type":"index_not_found_exception"},"status":404}'],
      ['truncated JSON', '{"took":2,"hits":{"total":1,"hits":[{"_source":'],
    ])('garbage (%s) → invalid_response', async (_label, body) => {
      fake.post(PATH, { status: 200, body });
      expect((await failure(connector().lookup('25052943'))).errorClass).toBe('invalid_response');
    });
  });
});
