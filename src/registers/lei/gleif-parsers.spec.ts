import { fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import {
  gleifCalendarDate,
  parseGleifErrors,
  parseLeiRecordDocument,
  parseLeiRecordList,
  parseRegistrationAuthorities,
} from './gleif-parsers';
import type { LeiRecord } from './lei-record';

const SHELL = 'registers/lei/gleif-lei-record-21380068P1DRHMJ8KU70-shell-plc-gb-ra000585.json';
const FRAPORT = 'registers/lei/gleif-lei-record-5299001ERX0K10IZUL40-fraport-de.json';
const LAPSED_FUND = 'registers/lei/gleif-lei-record-549300LBI3LRIZ2V8V66-lapsed-fund-pretty.json';
const TWELVE = 'registers/lei/gleif-lei-records-filter-lei-12-hits.json';
const AUTHORITIES = 'registers/lei/gleif-registration-authorities-page1.json';

const AT = { retrievedAt: '2026-11-27T10:00:00.000Z' };
const json = (path: string): any => JSON.parse(fixture(path));

/** Expects an UpstreamError invalid_response whose message names what is wrong. */
function expectInvalid(run: () => unknown, message: RegExp): void {
  let thrown: unknown;
  try {
    run();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(UpstreamError);
  expect((thrown as UpstreamError).errorClass).toBe('invalid_response');
  expect((thrown as UpstreamError).message).toMatch(message);
}

describe('parseLeiRecordDocument', () => {
  it('reads every field of the recorded Shell plc record', () => {
    const shellAddress = {
      lines: ['SHELL CENTRE'],
      number: null,
      numberWithinBuilding: null,
      mailRouting: null,
      city: 'LONDON',
      region: 'GB-LND',
      country: 'GB',
      postalCode: 'SE1 7NA',
      language: 'en',
    };
    const expected: LeiRecord = {
      lei: '21380068P1DRHMJ8KU70',
      legalName: { name: 'SHELL PLC', language: 'en' },
      otherNames: [{ name: 'ROYAL DUTCH SHELL PLC', language: 'en', type: 'PREVIOUS_LEGAL_NAME' }],
      entityStatus: 'ACTIVE',
      entityCategory: 'GENERAL',
      entitySubCategory: null,
      registrationStatus: 'ISSUED',
      legalForm: { elfCode: 'B6ES', other: null },
      jurisdiction: 'GB',
      legalAddress: shellAddress,
      headquartersAddress: shellAddress,
      registeredAt: { id: 'RA000585', other: null },
      registeredAs: '04366849',
      creationDate: '2002-02-05',
      expiration: null,
      successorEntities: [],
      associatedEntity: null,
      initialRegistrationDate: '2016-06-30T00:00:00Z',
      lastUpdateDate: '2025-05-06T15:51:56Z',
      nextRenewalDate: '2026-07-04T00:00:00Z',
      managingLou: '213800WAVVOPS85N2205',
      corroborationLevel: 'FULLY_CORROBORATED',
      validatedAt: { id: 'RA000585', other: null },
      validatedAs: '04366849',
      goldenCopyPublishDate: '2025-05-15T00:00:00Z',
      source: {
        register: 'GLEIF Global LEI Index',
        url: 'https://search.gleif.org/#/record/21380068P1DRHMJ8KU70',
        official: true,
        kind: 'lei_index',
        retrievedAt: '2026-11-27T10:00:00.000Z',
      },
    };
    expect(parseLeiRecordDocument(json(SHELL), AT)).toEqual(expected);
  });

  it('reads the German record: language, court number as written, creation day in local time', () => {
    const r = parseLeiRecordDocument(json(FRAPORT), AT);
    expect(r.legalName).toEqual({ name: 'Fraport AG Frankfurt Airport Services Worldwide', language: 'de' });
    expect(r.registeredAt).toEqual({ id: 'RA000242', other: null });
    expect(r.registeredAs).toBe('HRB 7042');
    // "2004-06-06T22:00:00Z" is midnight of 7 June in Frankfurt.
    expect(r.creationDate).toBe('2004-06-07');
    expect(r.legalAddress.lines).toEqual(['Flughafen,Geb. 178']);
    expect(r.legalAddress.postalCode).toBe('60547');
    expect(r.legalForm).toEqual({ elfCode: '6QQB', other: null });
  });

  it('reads the lapsed fund: no register, form "other", no creation date', () => {
    const r = parseLeiRecordDocument(json(LAPSED_FUND), AT);
    expect(r).toMatchObject({
      lei: '549300LBI3LRIZ2V8V66',
      legalName: { name: 'UK EQUITY FUND (OFFSHORE)', language: 'en' },
      otherNames: [],
      entityStatus: 'ACTIVE',
      registrationStatus: 'LAPSED',
      entityCategory: 'FUND',
      legalForm: { elfCode: null, other: 'FUND' },
      registeredAt: { id: 'RA999999', other: null },
      registeredAs: null,
      creationDate: null,
      nextRenewalDate: '2014-11-01T10:44:00Z',
      corroborationLevel: 'ENTITY_SUPPLIED_ONLY',
      validatedAt: { id: 'RA999999', other: null },
      validatedAs: null,
      goldenCopyPublishDate: '2024-07-06T08:00:00Z',
    });
    expect(r.legalAddress.lines).toEqual(['JP MORGAN HOUSE', 'DUBLIN 1']);
  });

  it('links the record page under a configured web base', () => {
    const r = parseLeiRecordDocument(json(SHELL), { ...AT, webUrl: 'http://127.0.0.1:9/' });
    expect(r.source.url).toBe('http://127.0.0.1:9/#/record/21380068P1DRHMJ8KU70');
  });

  it('reads names, successors and an expiration GLEIF gives (derived from the Shell record)', () => {
    const body = json(SHELL);
    const e = body.data.attributes.entity;
    e.transliteratedOtherNames = [{ name: 'SHELL PLC', language: 'en', type: 'AUTO_ASCII_TRANSLITERATED_LEGAL_NAME' }];
    e.successorEntity = { lei: '5299001ERX0K10IZUL40', name: null };
    e.successorEntities = [
      { lei: '5299001ERX0K10IZUL40', name: null },
      { lei: null, name: 'SOMEONE ELSE LTD' },
    ];
    e.expiration = { date: '2024-03-31T23:00:00Z', reason: 'CORPORATE_ACTION' };
    e.status = 'INACTIVE';
    body.data.attributes.registration.status = 'RETIRED';
    const r = parseLeiRecordDocument(body, AT);
    expect(r.otherNames.map((n) => n.type)).toEqual(['PREVIOUS_LEGAL_NAME', 'AUTO_ASCII_TRANSLITERATED_LEGAL_NAME']);
    expect(r.successorEntities).toEqual([
      { lei: '5299001ERX0K10IZUL40', name: null },
      { lei: null, name: 'SOMEONE ELSE LTD' },
    ]);
    expect(r.expiration).toEqual({ date: '2024-04-01', reason: 'CORPORATE_ACTION' });
    expect(r.entityStatus).toBe('INACTIVE');
    expect(r.registrationStatus).toBe('RETIRED');
  });

  it.each<[string, (body: any) => void, RegExp]>([
    [
      'a three-letter country',
      (b) => (b.data.attributes.entity.legalAddress.country = 'GBR'),
      /data\.attributes\.entity\.legalAddress\.country is not valid/,
    ],
    ['an LEI with wrong check digits', (b) => (b.data.attributes.lei = '21380068P1DRHMJ8KU71'), /attributes\.lei/],
    [
      'another LEI in id than in attributes',
      (b) => (b.data.id = '5299001ERX0K10IZUL40'),
      /data\.id is not valid \(id and attributes\.lei differ\)/,
    ],
    [
      'a registration status outside LEI-CDF',
      (b) => (b.data.attributes.registration.status = 'ACTIVE'),
      /registration\.status/,
    ],
    ['an empty legal name', (b) => (b.data.attributes.entity.legalName.name = '  '), /legalName\.name/],
    ['no legal address city', (b) => delete b.data.attributes.entity.legalAddress.city, /legalAddress\.city/],
    ['a date that is no date', (b) => (b.data.attributes.registration.lastUpdateDate = 'yesterday'), /lastUpdateDate/],
    ['a managing LOU that is no LEI', (b) => (b.data.attributes.registration.managingLou = 'GLEIF'), /managingLou/],
    ['an RA code of another shape', (b) => (b.data.attributes.entity.registeredAt.id = '585'), /registeredAt\.id/],
    ['another resource type', (b) => (b.data.type = 'registration-authorities'), /data\.type/],
  ])('refuses a record with %s (derived from the Shell record)', (_what, change, message) => {
    const body = json(SHELL);
    change(body);
    expectInvalid(() => parseLeiRecordDocument(body, AT), message);
  });

  it.each<[string, unknown]>([
    ['an HTML page', '<html><body>Service Unavailable</body></html>'],
    ['null', null],
    ['a list answer', JSON.parse(fixture(TWELVE))],
    ['an error body', { errors: [{ status: '404', title: 'Not Found' }] }],
  ])('refuses %s as a record', (_what, body) => {
    expectInvalid(() => parseLeiRecordDocument(body, AT), /GLEIF sent an LEI record whose .* is not valid/);
  });
});

describe('parseLeiRecordList', () => {
  const page = parseLeiRecordList(json(TWELVE), AT);
  const byLei = new Map(page.records.map((r) => [r.lei, r]));

  it('reads the 12 records of the recorded filter[lei] answer, in order, with paging', () => {
    expect(page).toMatchObject({ total: 12, currentPage: 1, lastPage: 1, perPage: 15 });
    expect(page.records.map((r) => r.lei)).toEqual([
      '254900LNRYNOQ9YPU758',
      '335800CCCPHKUOXPC332',
      '984500983AD71E4FBC41',
      '254900MSZM6DMP853B11',
      '549300YX4S1LLSMK2627',
      '549300O897ZC5H7CY412',
      '21380068P1DRHMJ8KU70',
      '529900GRZ2BQY5ZM9N49',
      '5299001ERX0K10IZUL40',
      '5493001KJTIIGC8Y1R12',
      'INR2EJN1ERAN0W5ZP974',
      '851WYGNLUQLFZBSYGB56',
    ]);
    for (const r of page.records) {
      expect(r.source).toEqual({
        register: 'GLEIF Global LEI Index',
        url: `https://search.gleif.org/#/record/${r.lei}`,
        official: true,
        kind: 'lei_index',
        retrievedAt: AT.retrievedAt,
      });
      expect(r.goldenCopyPublishDate).toBe('2025-05-15T00:00:00Z');
    }
  });

  it('reads the Shell item exactly as the single-record answer', () => {
    expect(byLei.get('21380068P1DRHMJ8KU70')).toEqual(parseLeiRecordDocument(json(SHELL), AT));
  });

  it('keeps the national links as GLEIF writes them', () => {
    const links = page.records.map((r) => [r.registeredAt.id, r.registeredAs]);
    expect(links).toEqual([
      ['RA000585', '06528297'],
      ['RA000754', '33AFNPA6606E1ZV'],
      ['RA000602', '4763016'],
      ['RA000079', '2167978'],
      ['RA000602', '6021863'],
      ['RA000544', '556708-1699'],
      ['RA000585', '04366849'],
      ['RA000247', 'HRB 13085'],
      ['RA000242', 'HRB 7042'],
      ['RA000602', '4348344'],
      ['RA000641', '600 413 485'],
      ['RA000242', 'HRB 32000'],
    ]);
  });

  it('reads the lapsed sole proprietor, creation days east of UTC, and a c/o line', () => {
    expect(byLei.get('335800CCCPHKUOXPC332')).toMatchObject({
      legalName: { name: 'NFA INTERNATIONAL', language: 'en' },
      registrationStatus: 'LAPSED',
      entityCategory: 'SOLE_PROPRIETOR',
      jurisdiction: 'IN',
      creationDate: '2017-07-01', // "2017-06-30T18:30:00Z": midnight in India
    });
    expect(byLei.get('529900GRZ2BQY5ZM9N49')).toMatchObject({
      legalName: { name: 'PUMA SE', language: 'de-DE' },
      creationDate: '2011-07-25',
    });
    expect(byLei.get('851WYGNLUQLFZBSYGB56')!.creationDate).toBe('1952-10-17');
    expect(byLei.get('984500983AD71E4FBC41')).toMatchObject({
      jurisdiction: 'US-DE',
      creationDate: '2021-01-19',
      legalAddress: { mailRouting: 'c/o NORTHWEST REGISTERED AGENT SERVICE, INC' },
    });
    expect(byLei.get('254900LNRYNOQ9YPU758')!.otherNames).toHaveLength(4);
  });

  it('fails the whole page when one record does not parse, naming it', () => {
    const body = json(TWELVE);
    body.data[3].attributes.registration.status = 'SOMETHING_NEW';
    expectInvalid(() => parseLeiRecordList(body, AT), /data\.3\.attributes\.registration\.status is not valid/);
  });

  it('reads an empty page (derived from the recorded one)', () => {
    const body = json(TWELVE);
    body.data = [];
    body.meta.pagination = { currentPage: 1, perPage: 15, from: null, to: null, total: 0, lastPage: 1 };
    expect(parseLeiRecordList(body, AT)).toEqual({ records: [], total: 0, currentPage: 1, lastPage: 1, perPage: 15 });
  });

  it('refuses a single-record answer and a body without pagination', () => {
    expectInvalid(() => parseLeiRecordList(json(SHELL), AT), /list of LEI records whose meta\.pagination/);
    expectInvalid(() => parseLeiRecordList('<html></html>', AT), /list of LEI records whose body is not valid/);
  });
});

describe('parseGleifErrors', () => {
  // No real GLEIF error body is recorded (MANIFEST "Not found"): these are JSON:API error
  // documents as the JSON:API specification shapes them, not GLEIF answers.
  it('reads a JSON:API error document, status as a string', () => {
    expect(parseGleifErrors({ errors: [{ status: '404', title: 'Not Found', detail: 'No such record.' }] })).toEqual([
      { status: '404', title: 'Not Found', detail: 'No such record.' },
    ]);
    expect(parseGleifErrors({ errors: [{ status: 429, title: ' Too Many Requests ' }, {}] })).toEqual([
      { status: '429', title: 'Too Many Requests', detail: null },
      { status: null, title: null, detail: null },
    ]);
  });

  it.each<[string, unknown]>([
    ['a record', JSON.parse(fixture(SHELL))],
    ['an HTML page', '<html></html>'],
    ['an empty errors list', { errors: [] }],
    ['null', null],
  ])('answers null for %s', (_what, body) => {
    expect(parseGleifErrors(body)).toBeNull();
  });
});

describe('parseRegistrationAuthorities', () => {
  it('reads the recorded first page of the RA code list', () => {
    const list = parseRegistrationAuthorities(json(AUTHORITIES));
    expect(list.total).toBe(1071);
    expect(list.lastPage).toBe(108);
    expect(list.authorities.map((a) => a.code)).toEqual([
      'RA000001',
      'RA000002',
      'RA000003',
      'RA000004',
      'RA000005',
      'RA000006',
      'RA000007',
      'RA000008',
      'RA000009',
      'RA000010',
    ]);
    expect(list.authorities[4]).toEqual({
      code: 'RA000005',
      internationalName: 'Central Registry of Business Names',
      localName: 'Ficheiro Central de Denominações Sociais',
      internationalOrganizationName: null,
      localOrganizationName: null,
      website: 'http://www.cidadao.gov.ao/VerPrestadorServico.aspx?id=233',
      jurisdictions: [{ country: 'Angola', countryCode: 'AO', jurisdiction: 'Angola' }],
    });
  });

  it('refuses an LEI record as an RA list', () => {
    expectInvalid(() => parseRegistrationAuthorities(json(SHELL)), /registration authority list/);
  });
});

describe('gleifCalendarDate', () => {
  it.each([
    ['2002-02-05T00:00:00Z', '2002-02-05'], // London, winter
    ['2004-06-06T22:00:00Z', '2004-06-07'], // Frankfurt, summer
    ['1952-10-16T23:00:00Z', '1952-10-17'], // Frankfurt, winter
    ['2017-06-30T18:30:00Z', '2017-07-01'], // India
    ['2021-01-19T05:00:00Z', '2021-01-19'], // New York, winter
    ['1899-12-31T23:00:00Z', '1900-01-01'],
    ['2004-06-07T00:00:00+02:00', '2004-06-07'],
    ['2004-06-07', '2004-06-07'],
  ])('reads %s as %s', (value, day) => {
    expect(gleifCalendarDate(value)).toBe(day);
  });
});
