import { fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import { parseCvrOfficers } from './cvr-officers';
import { cvrStatusCategory, formatCvrAddress, parseCvrSearchBody, toCvrRecord } from './cvr-parser';

const docs = (file: string) => parseCvrSearchBody(JSON.parse(fixture(`registers/dk/${file}`)));
const MAGENTA = 'cvr-es-virksomhed-by-cvr-25052943-magenta-aps.json';
const TIETGEN = 'cvr-es-virksomhed-by-cvr-41774037-tietgen-invest.json';
const FLS = 'cvr-es-virksomhed-search-cvr-11617034-fls-fond-aktiv.json';
const ASSURE = 'cvr-es-virksomhed-search-4-hits-assure-cvr-v-20220630.json';
const DISSOLVED = 'cvr-es-virksomhed-by-cvr-32075541-copenhagensource-derived-from-deltager.json';
const ENK = 'cvr-es-virksomhed-by-cvr-21016632-enk-derived-from-deltager.json';

describe('toCvrRecord', () => {
  it('reads an ApS from its metadata (MAGENTA ApS)', () => {
    expect(toCvrRecord(docs(MAGENTA)[0])).toEqual({
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
    });
  });

  it('reads the current address after a move (Tietgen Invest ApS)', () => {
    const r = toCvrRecord(docs(TIETGEN)[0]);
    expect(r).toMatchObject({
      name: 'Tietgen Invest ApS',
      address: 'Hovedgaden 6, 1., 2970 Hørsholm',
      city: 'Hørsholm',
    });
    expect(r.extra).toEqual({ reklamebeskyttet: false });
  });

  it('falls back to sammensatStatus when the status list is empty (a foundation: "Aktiv")', () => {
    expect(toCvrRecord(docs(FLS)[0])).toMatchObject({
      name: 'F.L.Smidth fonden for diplomingeniørstuderende ved DTU',
      registrationNumber: '11617034',
      status: 'Aktiv',
      statusCategory: 'active',
      legalForm: 'Fonde og andre selvejende institutioner',
      address: 'c/o Danmarks Tekniske Universitet, Anker Engelunds Vej 101A, 2800 Kgs. Lyngby',
      city: 'Kgs. Lyngby',
      incorporationDate: '1901-01-01',
    });
  });

  it('reads a dissolved company from its last, closed status period', () => {
    expect(toCvrRecord(docs(DISSOLVED)[0])).toEqual({
      name: 'COPENHAGENSOURCE A/S',
      registrationNumber: '32075541',
      country: 'DK',
      status: 'OPLØST EFTER FRIVILLIG LIKVIDATION',
      statusCategory: 'dissolved',
      legalForm: 'Aktieselskab',
      address: null,
      city: null,
      incorporationDate: '2009-03-03',
      extra: { reklamebeskyttet: null },
    });
  });

  it('reports a sole proprietorship with no status and a closed lifetime as "Ophørt"', () => {
    expect(toCvrRecord(docs(ENK)[0])).toMatchObject({
      name: 'MORTEN KJÆRSGAARD',
      registrationNumber: '21016632',
      status: 'Ophørt',
      statusCategory: 'dissolved',
      legalForm: 'Enkeltmandsvirksomhed',
      incorporationDate: '1998-07-20',
    });
  });

  it('reads every hit of a multi-hit search', () => {
    expect(
      docs(ASSURE)
        .map((d) => toCvrRecord(d))
        .map((r) => [r.registrationNumber, r.name, r.legalForm]),
    ).toEqual([
      ['35682872', 'ASSURE WEALTH A/S', 'Aktieselskab'],
      ['42611433', 'Assure Alternatives A/S', 'Aktieselskab'],
      ['34689733', 'MIRANOVA FONDSMÆGLERSELSKAB A/S', 'Aktieselskab'],
      ['44477378', 'Assure Alternatives TG Partners VIII Feeder K/S', 'Kommanditselskab'],
    ]);
  });

  it('refuses a document without a CVR number or a name', () => {
    const doc = docs(MAGENTA)[0];
    expect(() => toCvrRecord({ ...doc, cvrNummer: null })).toThrow(UpstreamError);
    expect(() => toCvrRecord({ ...doc, virksomhedMetadata: undefined, navne: [] })).toThrow(UpstreamError);
  });
});

describe('cvrStatusCategory', () => {
  it.each([
    ['NORMAL', 'active'],
    ['Aktiv', 'active'],
    ['UNDER REKONSTRUKTION', 'active'],
    ['UNDER FRIVILLIG LIKVIDATION', 'in_liquidation'],
    ['UNDER KONKURS', 'insolvency'],
    ['Under konkurs', 'insolvency'],
    ['UNDER TVANGSOPLØSNING', 'in_liquidation'],
    ['UNDER REASSUMERING', 'in_liquidation'],
    ['TVANGSOPLØST', 'struck_off'],
    ['Tvangsopløst', 'struck_off'],
    ['OPLØST', 'dissolved'],
    ['OPLØST EFTER FRIVILLIG LIKVIDATION', 'dissolved'],
    ['OPLØST EFTER FUSION', 'dissolved'],
    ['Opløst efter konkurs', 'dissolved'],
    ['OPHØRT', 'dissolved'],
    ['Ophørt', 'dissolved'],
    ['SLETTET', 'dissolved'],
    ['UDEN RETSVIRKNING', 'unknown'],
    [null, 'unknown'],
  ])('maps %s to %s', (status, category) => {
    expect(cvrStatusCategory(status)).toBe(category);
  });
});

describe('formatCvrAddress', () => {
  const real = docs(MAGENTA)[0].virksomhedMetadata as { nyesteBeliggenhedsadresse: Record<string, unknown> };
  const base = real.nyesteBeliggenhedsadresse;

  it('writes house-number ranges, letters, doors and post boxes without empty parts', () => {
    expect(
      formatCvrAddress({
        ...base,
        husnummerTil: 47,
        bogstavFra: 'A',
        bogstavTil: 'B',
        etage: 'st',
        sidedoer: 'tv',
        postboks: '123',
      }),
    ).toBe('Pilestræde 43A-47B, st. tv, Postboks 123, 1112 København K');
    expect(formatCvrAddress({ ...base, etage: null, sidedoer: '', postboks: null })).toBe(
      'Pilestræde 43, 1112 København K',
    );
  });

  it('writes a foreign free-text address on one line with its country', () => {
    const foreign = {
      ...base,
      vejnavn: null,
      husnummerFra: null,
      etage: null,
      postnummer: null,
      postdistrikt: null,
      fritekst: 'Storgatan 1\n111 22 Stockholm',
      landekode: 'SE',
    };
    expect(formatCvrAddress(foreign)).toBe('Storgatan 1, 111 22 Stockholm, SE');
  });
});

describe('parseCvrOfficers', () => {
  it('reads management, owners, founders and auditors with their periods (MAGENTA ApS)', () => {
    const officers = parseCvrOfficers(docs(MAGENTA)[0]);
    const morten = officers.filter((o) => o.name === 'Morten Kjærsgaard');
    expect(morten).toEqual([
      {
        name: 'Morten Kjærsgaard',
        role: 'formand',
        kind: 'person',
        appointedOn: '2000-02-21',
        resignedOn: '2009-10-28',
      },
      { name: 'Morten Kjærsgaard', role: 'adm. dir', kind: 'person', appointedOn: '2009-10-28', resignedOn: null },
    ]);
    expect(officers).toContainEqual({
      name: 'Kim Madsen',
      role: 'DIREKTION',
      kind: 'person',
      appointedOn: '1999-11-15',
      resignedOn: '2000-02-21',
    });
    expect(officers).toContainEqual({
      name: 'MORTEN KJÆRSGAARD HOLDING ApS',
      role: 'EJERREGISTER',
      kind: 'company',
      appointedOn: '2014-05-01',
      resignedOn: null,
    });
    expect(officers).toContainEqual({
      name: 'ApS KBUS 38 nr.3117',
      role: 'STIFTERE',
      kind: 'company',
      appointedOn: '1999-11-15',
      resignedOn: null,
    });
    expect(officers.filter((o) => o.role === 'REVISION')).toHaveLength(4);
    expect(officers).toHaveLength(13); // 12 relations, Morten Kjærsgaard with two roles
  });

  it('gives one entry per role period (Karsten Poulsen in Tietgen Invest ApS)', () => {
    const karsten = parseCvrOfficers(docs(TIETGEN)[0]).filter((o) => o.name === 'Karsten Poulsen');
    expect(karsten.map((o) => [o.role, o.appointedOn, o.resignedOn])).toEqual([
      ['DIREKTØR', '2020-10-18', '2021-03-17'],
      ['BESTYRELSESMEDLEM', '2020-10-18', '2020-12-08'],
      ['FORMAND', '2020-12-09', null],
      ['EJERREGISTER', '2020-10-27', null],
      ['Reel ejer', '2020-10-27', '2020-12-09'],
    ]);
  });

  it('carries partners and anti-money-laundering managers where the document has them', () => {
    const [wealth, , , feeder] = docs(ASSURE);
    expect(parseCvrOfficers(feeder)).toContainEqual({
      name: 'Assure Alternatives General Partner I ApS',
      role: 'INTERESSENTER',
      kind: 'company',
      appointedOn: '2023-12-04',
      resignedOn: null,
    });
    expect(parseCvrOfficers(wealth)).toContainEqual({
      name: 'Jesper Dall',
      role: 'Leder',
      kind: 'person',
      appointedOn: '2022-11-22',
      resignedOn: null,
    });
  });

  it('gives an empty list for a document without relations', () => {
    expect(parseCvrOfficers(docs(DISSOLVED)[0])).toEqual([]);
  });
});

describe('parseCvrSearchBody', () => {
  it('refuses bodies that are not a completed Elasticsearch answer', () => {
    expect(() => parseCvrSearchBody('<html>')).toThrow(UpstreamError);
    expect(() => parseCvrSearchBody({ error: { type: 'search_phase_execution_exception' }, status: 400 })).toThrow(
      /hits/,
    );
    const empty = JSON.parse(fixture('registers/dk/cvr-es-virksomhed-search-no-hits-derived.json'));
    expect(parseCvrSearchBody(empty)).toEqual([]);
    expect(() => parseCvrSearchBody({ ...empty, timed_out: true })).toThrow(
      expect.objectContaining({ errorClass: 'timeout' }),
    );
    expect(() => parseCvrSearchBody({ ...empty, _shards: { total: 6, successful: 5, failed: 1 } })).toThrow(/shard/);
    expect(() =>
      parseCvrSearchBody({ ...empty, hits: { total: 1, hits: [{ _source: { Vrdeltagerperson: {} } }] } }),
    ).toThrow(/Vrvirksomhed/);
  });
});
