import { PROTOTYPE_KEYS } from '../../platform/lookup-table';
import { fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import {
  formatPrhAddress,
  parsePrhCompany,
  parsePrhSearch,
  prhCompanies,
  prhDate,
  prhRecordUrl,
  prhStatus,
} from './prh-parsers';

const F = 'registers/fi';
const NOKIA_FILE = `${F}/prh-ytj-v3-companies-businessId-0112038-9-nokia-oyj.json`;

function body(file: string): any {
  return JSON.parse(fixture(`${F}/${file}`));
}

/** The recorded Nokia Oyj company object, a fresh copy each time (tests change it). */
function nokia(): any {
  return JSON.parse(fixture(NOKIA_FILE)).companies[0];
}

function invalidResponse(fn: () => unknown): void {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(UpstreamError);
  expect(thrown).toMatchObject({ errorClass: 'invalid_response' });
}

describe('parsePrhCompany on the recorded Nokia Oyj answer', () => {
  it("reads every field in the register's words", () => {
    expect(parsePrhSearch(JSON.parse(fixture(NOKIA_FILE)))).toEqual([
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
      },
    ]);
  });

  it('takes the current trade name, not the previous one, a parallel or an auxiliary name, in any order', () => {
    const company = nokia();
    company.names.reverse();
    expect(parsePrhCompany(company).name).toBe('Nokia Oyj');
    company.names = company.names.filter((n: any) => n.name !== 'Nokia Oyj');
    // Only the ended previous name is left of type 1 (version 2): it is the best there is.
    expect(parsePrhCompany(company).name).toBe('Oy Nokia Ab');
  });

  it('takes the company registration date, not the date the business ID was granted', () => {
    const record = parsePrhCompany(nokia());
    expect(record.incorporationDate).toBe('1896-12-19');
    expect(record.extra).toMatchObject({ businessIdRegistrationDate: '1978-03-15' });
  });

  it('falls back to the postal address (PL box) when the street address says nothing', () => {
    const company = nokia();
    const street = company.addresses.find((a: any) => a.type === 1);
    for (const key of ['street', 'postCode', 'buildingNumber']) street[key] = '';
    street.postOffices = [];
    expect(parsePrhCompany(company)).toMatchObject({ address: 'PL 226, 00045 NOKIA GROUP', city: 'NOKIA GROUP' });
  });
});

describe('parsePrhSearch on the derived three-hit search', () => {
  const records = parsePrhSearch(body('prh-ytj-v3-companies-name-nokia-derived-three-hits.json'));

  it('keeps the register’s order', () => {
    expect(records.map((r) => [r.registrationNumber, r.name, r.status, r.statusCategory])).toEqual([
      ['0112038-9', 'Nokia Oyj', 'Rekisterissä', 'active'],
      ['9876543-0', 'Esimerkki Nokia Oy', 'Selvitystila', 'in_liquidation'],
      ['9000001-1', 'Esimerkki Nokia Ky', 'Lakannut', 'dissolved'],
    ]);
  });

  it('reads a company in liquidation whose form has no description and whose street address comes second', () => {
    expect(records[1]).toEqual({
      name: 'Esimerkki Nokia Oy',
      registrationNumber: '9876543-0',
      country: 'FI',
      status: 'Selvitystila',
      statusCategory: 'in_liquidation',
      legalForm: 'Osakeyhtiö',
      address: 'Hämeenkatu 5 B 12 a, 33100 TAMPERE',
      city: 'TAMPERE',
      incorporationDate: '2011-05-02',
      extra: {
        companyForm: '16',
        tradeRegisterStatus: '1',
        businessIdRegistrationDate: '2011-05-02',
        companySituations: [{ type: 'SELTILA', registrationDate: '2026-06-15' }],
        lastModified: '2026-06-15T08:00:00',
      },
    });
  });

  it('reads an ended company: ended name, a form without Finnish words, a foreign free-form address', () => {
    expect(records[2]).toEqual({
      name: 'Esimerkki Nokia Ky',
      registrationNumber: '9000001-1',
      country: 'FI',
      status: 'Lakannut',
      statusCategory: 'dissolved',
      legalForm: null,
      address: 'Norgårdsvägen 3 SE-451 75 Uddevalla',
      city: null,
      incorporationDate: '1999-02-01',
      extra: {
        companyForm: '13',
        tradeRegisterStatus: '4',
        businessIdRegistrationDate: '1999-02-01',
        endDate: '2024-12-31',
        lastModified: '2025-01-02T06:00:00',
      },
    });
  });

  it('reads the derived ceased Nokia and the derived empty answer', () => {
    const [ceased] = parsePrhSearch(body('prh-ytj-v3-companies-businessId-0112038-9-derived-ceased.json'));
    expect(ceased).toMatchObject({
      name: 'Nokia Oyj',
      status: 'Lakannut',
      statusCategory: 'dissolved',
      legalForm: 'Julkinen osakeyhtiö',
      extra: { endDate: '2026-09-30', tradeRegisterStatus: '4' },
    });
    expect(parsePrhSearch(body('prh-ytj-v3-companies-derived-no-hits.json'))).toEqual([]);
  });
});

describe('prhStatus', () => {
  const situation = (type: string, endDate?: string) => ({
    type,
    registrationDate: '2026-01-02',
    endDate,
    source: '1',
  });

  it('words every company situation of the schema, and only current ones count', () => {
    const schema = fixture(`${F}/prh-ytj-v3-openapi-schema-lang-fi.yaml`);
    const enumLine = /CompanySituation:[\s\S]*?enum: \[([^\]]*)\]/.exec(schema)![1];
    const types = enumLine.split(',').map((t) => t.trim().replace(/"/g, ''));
    expect(types).toEqual(['SANE', 'SELTILA', 'KONK']);
    const words = types.map((t) => prhStatus({ ...nokia(), companySituations: [situation(t)] }));
    expect(words).toEqual([
      { status: 'Saneeraus', statusCategory: 'insolvency' },
      { status: 'Selvitystila', statusCategory: 'in_liquidation' },
      { status: 'Konkurssi', statusCategory: 'insolvency' },
    ]);
    const ended = types.map((t) => situation(t, '2026-02-01'));
    expect(prhStatus({ ...nokia(), companySituations: ended })).toEqual({
      status: 'Rekisterissä',
      statusCategory: 'active',
    });
  });

  it('puts bankruptcy before liquidation before restructuring, and an ended company before all', () => {
    const all = [situation('SANE'), situation('SELTILA'), situation('KONK')];
    expect(prhStatus({ ...nokia(), companySituations: all }).status).toBe('Konkurssi');
    expect(prhStatus({ ...nokia(), companySituations: all.slice(0, 2) }).status).toBe('Selvitystila');
    expect(prhStatus({ ...nokia(), companySituations: all, endDate: '2026-09-30' })).toEqual({
      status: 'Lakannut',
      statusCategory: 'dissolved',
    });
  });

  it('words the trade register state from its entry, else from what the schema and the recording say', () => {
    expect(prhStatus({ ...nokia(), registeredEntries: [] })).toEqual({
      status: 'Rekisterissä',
      statusCategory: 'active',
    });
    expect(prhStatus({ ...nokia(), tradeRegisterStatus: '0' })).toEqual({
      status: 'Rekisteröimätön',
      statusCategory: 'unknown',
    });
    // An entry of another state does not lend its words: the Nokia entry is type 1.
    expect(prhStatus({ ...nokia(), tradeRegisterStatus: '3' })).toEqual({ status: null, statusCategory: 'unknown' });
    expect(prhStatus({ ...nokia(), tradeRegisterStatus: undefined })).toEqual({
      status: null,
      statusCategory: 'unknown',
    });
  });

  it.each(PROTOTYPE_KEYS)('gives no words for a state called %p', (key) => {
    expect(prhStatus({ ...nokia(), tradeRegisterStatus: key, registeredEntries: [] })).toEqual({
      status: null,
      statusCategory: 'unknown',
    });
  });
});

describe('odd and missing fields', () => {
  it('never throw while a business ID and a trade name are there', () => {
    const company = {
      businessId: { value: ' 0112038-9 ' },
      names: [
        { name: 42, type: '1', version: 1 },
        { name: '  Nokia \n  Oyj ', type: 1, version: '1' },
      ],
      companyForms: 'Oyj',
      companySituations: null,
      registeredEntries: [null, 'x', { register: 1 }],
      addresses: [{ type: 1, street: null, postOffices: 'ESPOO' }, 7],
      tradeRegisterStatus: 1,
      registrationDate: 18961219,
      euId: { value: 'FIFPRO.0112038' },
      lastModified: '2026-08-19 10:04:06',
    };
    expect(parsePrhCompany(company)).toEqual({
      name: 'Nokia Oyj',
      registrationNumber: '0112038-9',
      country: 'FI',
      status: 'Rekisterissä',
      statusCategory: 'active',
      legalForm: null,
      address: null,
      city: null,
      incorporationDate: null,
      extra: { tradeRegisterStatus: '1' },
    });
  });

  it('leaves out dates that are not real days with real years', () => {
    for (const date of ['1896-02-30', '0000-01-01', '9999-12-31', '1896-12-19T00:00:00', '19.12.1896', '']) {
      expect(parsePrhCompany({ ...nokia(), registrationDate: date }).incorporationDate).toBeNull();
    }
    expect(parsePrhCompany({ ...nokia(), registrationDate: ' 2024-02-29 ' }).incorporationDate).toBe('2024-02-29');
  });

  it('takes the Finnish post office whatever its place, and any other when there is none', () => {
    const company = nokia();
    const street = company.addresses.find((a: any) => a.type === 1);
    street.postOffices = street.postOffices.filter((o: any) => o.languageCode === '2');
    expect(parsePrhCompany(company)).toMatchObject({ address: 'Karakaari 7, 02610 ESBO', city: 'ESBO' });
  });

  it.each(PROTOTYPE_KEYS)('has no legal form for a form code %p without description', (key) => {
    const company = nokia();
    company.companyForms = [{ type: key, descriptions: [], version: 1, source: '1' }];
    expect(parsePrhCompany(company).legalForm).toBeNull();
  });
});

describe('bodies that are not PRH answers', () => {
  it.each([
    ['an HTML page', '<!DOCTYPE html><html><body>Huoltokatko</body></html>'],
    ['an error body', { timestamp: '2026-10-05 09:33:58', message: 'Service Unavailable', errorcode: 503 }],
    ['another list', { results: [] }],
    ['companies that are not a list', { totalResults: 1, companies: {} }],
    ['null', null],
  ])('%s is an invalid response', (_what, answer) => {
    invalidResponse(() => prhCompanies(answer));
  });

  it('a company without a well-formed business ID or a trade name is an invalid response', () => {
    invalidResponse(() => parsePrhCompany({ ...nokia(), businessId: undefined }));
    invalidResponse(() => parsePrhCompany({ ...nokia(), businessId: { value: '01120389' } }));
    invalidResponse(() => parsePrhCompany({ ...nokia(), names: nokia().names.filter((n: any) => n.type !== '1') }));
    invalidResponse(() => parsePrhCompany('0112038-9'));
    invalidResponse(() => parsePrhSearch({ totalResults: 2, companies: [nokia(), null] }));
  });
});

describe('helpers', () => {
  it('prhDate keeps real days only', () => {
    expect(prhDate('1896-12-19')).toBe('1896-12-19');
    expect(prhDate('2023-02-29')).toBeNull();
    expect(prhDate('2101-01-01')).toBeNull();
    expect(prhDate(null)).toBeNull();
  });

  it('formatPrhAddress writes c/o, apartment letter and a foreign country', () => {
    expect(
      formatPrhAddress({
        co: 'Tilitoimisto Esimerkki',
        street: 'Hämeenkatu',
        buildingNumber: '5',
        entrance: 'B',
        apartmentNumber: '12',
        apartmentIdSuffix: 'a',
        postCode: '33100',
        postOffices: [{ city: 'TAMPERE', languageCode: '1' }],
        country: 'FI',
      }),
    ).toBe('c/o Tilitoimisto Esimerkki, Hämeenkatu 5 B 12 a, 33100 TAMPERE');
    expect(formatPrhAddress({ co: 'c/o Esimerkki', street: 'Storgatan 1', country: 'se' })).toBe(
      'c/o Esimerkki, Storgatan 1, SE',
    );
    expect(formatPrhAddress({ street: '', postCode: '', postOffices: [] })).toBeNull();
  });

  it('prhRecordUrl is the YTJ information service page', () => {
    expect(prhRecordUrl('https://tietopalvelu.ytj.fi', '0112038-9')).toBe(
      'https://tietopalvelu.ytj.fi/yritys/0112038-9',
    );
  });
});
