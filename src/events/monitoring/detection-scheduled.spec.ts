import { DetectionHarness, startDetectionHarness } from '../../../test/support/detection-harness';
import type { FakeResponse } from '../../../test/support/fake-register';
import { fixture } from '../../../test/support/fake-register';
import type { CountryCode } from '../../registers/registers';
import { ChangeApplier } from './snapshots/change-applier';

jest.setTimeout(60_000);

const HOUR = 3_600_000;
const JSON_HEADERS = { 'Content-Type': 'application/json' };

interface Case {
  country: CountryCode;
  number: string;
  endpoint: string;
  path: string;
  /** Serves a fixture at the register's path for this company. */
  serve: (file: string) => FakeResponse;
  renamed: string;
  dissolved?: string;
  expectRenamed: Array<[string, string, string]>;
  expectDissolved?: Array<[string, string, string]>;
  sourceMode: string;
}

const mirror = (file: string): FakeResponse => ({
  body: JSON.stringify(JSON.parse(fixture(file)).result),
  headers: JSON_HEADERS,
});

const CASES: Case[] = [
  {
    country: 'AU',
    number: '26154482283',
    endpoint: 'AU_API',
    path: '/json/AbnDetails.aspx',
    serve: (file) => ({ fixture: file }),
    renamed: 'registers/au/abr-json-abndetails-26154482283-derived-renamed-moved.jsonp',
    dissolved: 'registers/au/abr-json-abndetails-26154482283-derived-cancelled-legal-form-changed.jsonp',
    expectRenamed: [
      ['name', 'Oneflare Pty Ltd', 'Oneflare Group Pty Ltd'],
      ['address', 'NSW 2000', 'VIC 3000'],
    ],
    expectDissolved: [
      ['status', 'Active', 'Cancelled'],
      ['legal_form', 'Australian Private Company', 'Australian Public Company'],
    ],
    sourceMode: 'live',
  },
  {
    country: 'CA',
    number: '1007',
    endpoint: 'CA_API',
    path: '/api/corporations/1007.json',
    serve: (file) => ({ fixture: file }),
    renamed: 'registers/ca/corpcan-api-corporation-1007-derived-renamed-moved.json',
    dissolved: 'registers/ca/corpcan-api-corporation-1007-derived-dissolved-act-changed.json',
    expectRenamed: [
      ['name', 'Abbotsford Chamber of Commerce', 'Abbotsford Chamber of Commerce and Industry'],
      [
        'address',
        '207 - 32900 SOUTH FRASER WAY, ABBOTSFORD BC V2S 5A1',
        '100 - 2774 TRETHEWEY STREET, ABBOTSFORD BC V2T 3R1',
      ],
    ],
    expectDissolved: [
      ['status', 'Active', 'Dissolved'],
      ['legal_form', 'Boards of Trade Act — Part II', 'Canada Not-for-profit Corporations Act'],
    ],
    sourceMode: 'live',
  },
  {
    country: 'GB',
    number: '08957400',
    endpoint: 'GB_API',
    path: '/company/08957400',
    serve: (file) => ({ fixture: file }),
    renamed: 'registers/gb/ch-company-profile-08957400-derived-renamed-moved.json',
    dissolved: 'registers/gb/ch-company-profile-08957400-derived-dissolved-legal-form-changed.json',
    expectRenamed: [
      ['name', 'CANDOUR GROUP LIMITED', 'CANDOUR HOLDINGS LIMITED'],
      ['address', '71 New Dover Road, Canterbury, England, CT1 3DZ', '1 Castle Street, Canterbury, England, CT1 2QF'],
    ],
    expectDissolved: [
      ['status', 'Active', 'Dissolved'],
      ['legal_form', 'Private limited company', 'Public limited company'],
    ],
    sourceMode: 'live',
  },
  {
    country: 'FR',
    number: '552032534',
    endpoint: 'FR_MIRROR',
    path: '/search',
    serve: mirror,
    renamed: 'registers/fr/recherche-entreprises-search-q-siren-552032534-derived-renamed.json',
    expectRenamed: [['name', 'DANONE', 'DANONE GROUPE']],
    sourceMode: 'mirror',
  },
];

describe.each(CASES)('scheduled re-reads of $country against the fake register', (c) => {
  let h: DetectionHarness;

  beforeAll(async () => {
    h = await startDetectionHarness({ REGISTER_GB_API_KEY: 'k' });
  });
  afterAll(() => h.close());

  it('takes the baseline from an official read, then reports each changed field once per watching account, in the register’s words', async () => {
    await h.setReadable(c.country, true);
    await h.watch('acc_a', c.country, c.number, true);
    await h.watch('acc_b', c.country, c.number);
    expect((await h.runDueChecks()).map((r) => r.outcome)).toEqual(['baseline']);
    expect(await h.takeEvents()).toEqual([]);

    // An unchanged read one interval later: no change event; no_change only to the account that asked.
    h.clock.advance(HOUR);
    expect((await h.runDueChecks()).map((r) => r.outcome)).toEqual(['no_change']);
    const quiet = await h.takeEvents();
    expect(quiet.map((e) => [e.accountId, e.kind])).toEqual([['acc_a', 'company.no_change']]);
    expect(quiet[0].data).toMatchObject({
      entity_id: `ent_${c.country.toLowerCase()}_${c.number}`,
      provenance: { source_mode: c.sourceMode },
    });

    h.fakes[c.endpoint].get(c.path, c.serve(c.renamed));
    h.clock.advance(HOUR);
    await h.runDueChecks();
    const renamed = await h.takeEvents();
    const expectedKinds = c.expectRenamed.map(([f]) => `company.${f}_changed`);
    expect(renamed.map((e) => [e.accountId, e.kind])).toEqual(
      expectedKinds.flatMap((k) => [
        ['acc_a', k],
        ['acc_b', k],
      ]),
    );
    expect(
      renamed
        .filter((e) => e.accountId === 'acc_a')
        .map((e) => Object.values(pick(e.data.change, ['field', 'previous', 'current']))),
    ).toEqual(c.expectRenamed);
    const first = renamed[0].data as Record<string, any>;
    expect(first).toMatchObject({
      country: c.country,
      registration_number: c.number,
      company_name: c.expectRenamed.find(([f]) => f === 'name')?.[2],
      register: { name: expect.any(String), official_url: expect.stringMatching(/^https:\/\//) },
      provenance: {
        source_mode: c.sourceMode,
        source_url: expect.stringMatching(new RegExp(`^https?://.*${c.number}`)),
        retrieved_at: '2026-11-22T14:00:00.000Z',
      },
    });
    expect(first.change.observed_at).toBe('2026-11-22T14:00:00.000Z');

    if (c.dissolved) {
      h.fakes[c.endpoint].get(c.path, c.serve(c.dissolved));
      h.clock.advance(HOUR);
      await h.runDueChecks();
      const dissolved = (await h.takeEvents()).filter((e) => e.accountId === 'acc_b');
      expect(dissolved.map((e) => Object.values(pick(e.data.change, ['field', 'previous', 'current'])))).toEqual(
        c.expectDissolved,
      );
    }
  });
});

function pick(o: unknown, keys: string[]): Record<string, unknown> {
  const src = o as Record<string, unknown>;
  return Object.fromEntries(keys.map((k) => [k, src[k]]));
}

describe('a company whose check fails on our side', () => {
  let h: DetectionHarness;

  beforeAll(async () => {
    h = await startDetectionHarness();
  });
  afterAll(() => h.close());

  it('fails alone: the rest of its batch is checked, and it is tried again later, not first again', async () => {
    const refused = 'ent_dk_25052943';
    await h.setReadable('DK', true);
    await h.watch('acc_a', 'DK', '25052943');
    await h.watch('acc_a', 'DK', '41774037');
    // What Postgres answered a record it could not store (a NUL before registers' text was cleaned).
    const applier = h.ctx.get(ChangeApplier);
    const apply = applier.apply.bind(applier);
    const spy = jest.spyOn(applier, 'apply').mockImplementation(async (m, snapshot, ...rest) => {
      if (snapshot.entityId === refused)
        throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
      return apply(m, snapshot, ...rest);
    });
    try {
      const first = await h.runDueChecks();
      expect(Object.fromEntries(first.map((r) => [r.entityId, r.outcome]))).toEqual({
        [refused]: 'failed',
        ent_dk_41774037: 'baseline',
      });
      const [row] = await h.dataSource.query(
        `SELECT check_outcome, check_detail, lease_token, next_check_at FROM company_snapshot WHERE entity_id = $1`,
        [refused],
      );
      expect(row).toMatchObject({
        check_outcome: 'failed',
        check_detail: 'internal_error: invalid byte sequence for encoding "UTF8": 0x00',
        lease_token: null,
      });
      expect(new Date(row.next_check_at).getTime()).toBe(h.clock.now().getTime() + 5 * 60_000);
      // Not due again at once: the next run does not pick it first.
      expect(await h.runDueChecks()).toEqual([]);
    } finally {
      spy.mockRestore();
    }
    h.clock.advance(5 * 60_000);
    expect((await h.runDueChecks()).map((r) => [r.entityId, r.outcome])).toEqual([[refused, 'baseline']]);
  });
});
