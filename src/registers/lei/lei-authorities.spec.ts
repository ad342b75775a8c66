import { fixture } from '../../../test/support/fake-register';
import { PROTOTYPE_KEYS } from '../../platform/lookup-table';
import { recognizeAuIdentifier } from '../au/au.identifier';
import { recognizeCaIdentifier } from '../ca/ca.identifier';
import { recognizeDkIdentifier } from '../dk/dk.identifier';
import { recognizeFrIdentifier } from '../fr/fr.identifier';
import { recognizeGbIdentifier } from '../gb/gb.identifier';
import type { IdentifierRecognizer } from '../identifier';
import { recognizeNoIdentifier } from '../no/no.identifier';
import { UpstreamError } from '../upstream-error';
import { parseLeiRecordDocument, parseLeiRecordList, parseRegistrationAuthorities } from './gleif-parsers';
import {
  czechIco,
  finnishBusinessId,
  LEI_AUTHORITIES,
  LEI_BATCH_MAX_NUMBERS,
  LEI_COUNTRIES,
  leiFilterFor,
  LeiFilter,
  nationalRecordFor,
  nationalRecordPath,
  parseLeiMapping,
  polishKrs,
} from './lei-authorities';

const SHELL = 'registers/lei/gleif-lei-record-21380068P1DRHMJ8KU70-shell-plc-gb-ra000585.json';
const FRAPORT = 'registers/lei/gleif-lei-record-5299001ERX0K10IZUL40-fraport-de.json';
const LAPSED_FUND = 'registers/lei/gleif-lei-record-549300LBI3LRIZ2V8V66-lapsed-fund-pretty.json';
const TWELVE = 'registers/lei/gleif-lei-records-filter-lei-12-hits.json';
const AT = { retrievedAt: '2026-11-27T10:00:00.000Z' };
const json = (path: string): any => JSON.parse(fixture(path));

const SHELL_LEI = '21380068P1DRHMJ8KU70';
const AMAZON_UK_LEI = '254900LNRYNOQ9YPU758';
const BLOOMBERG_LEI = '5493001KJTIIGC8Y1R12';

const RECOGNIZERS: Record<string, IdentifierRecognizer> = {
  GB: recognizeGbIdentifier,
  AU: recognizeAuIdentifier,
  CA: recognizeCaIdentifier,
  FR: recognizeFrIdentifier,
  DK: recognizeDkIdentifier,
  NO: recognizeNoIdentifier,
};

describe('LEI_AUTHORITIES', () => {
  it('holds RA codes of the service’s countries only, Companies House the one seen in recorded answers', () => {
    const all = Object.values(LEI_AUTHORITIES);
    expect(all.map((a) => a.code).sort()).toEqual([
      'RA000013',
      'RA000014',
      'RA000072',
      'RA000163',
      'RA000168',
      'RA000170',
      'RA000188',
      'RA000189',
      'RA000192',
      'RA000472',
      'RA000473',
      'RA000484',
      'RA000585',
      'RA000586',
      'RA000587',
    ]);
    for (const a of all) expect(LEI_COUNTRIES).toContain(a.country);
    expect(all.filter((a) => a.evidence === 'recorded').map((a) => a.code)).toEqual(['RA000585']);
    expect(new Set(all.map((a) => a.country))).toEqual(new Set(LEI_COUNTRIES));
  });

  it('has none of the authorities of the recorded RA list page and of the recorded non-GB records', () => {
    const page = parseRegistrationAuthorities(json('registers/lei/gleif-registration-authorities-page1.json'));
    for (const a of page.authorities) expect(LEI_AUTHORITIES[a.code]).toBeUndefined();
    for (const code of ['RA000242', 'RA000247', 'RA000544', 'RA000602', 'RA000641', 'RA000754', 'RA000079', 'RA999999'])
      expect(LEI_AUTHORITIES[code]).toBeUndefined();
  });

  it.each(PROTOTYPE_KEYS)('answers undefined for %s', (key) => {
    expect(LEI_AUTHORITIES[key]).toBeUndefined();
    expect(nationalRecordPath(key, '04366849')).toBeNull();
    expect(nationalRecordPath({ id: key, other: null }, key)).toBeNull();
  });
});

describe('nationalRecordPath', () => {
  it('points the recorded Shell record (RA000585, 04366849) at its Companies House record here', () => {
    const shell = parseLeiRecordDocument(json(SHELL), AT);
    expect(nationalRecordPath(shell.registeredAt, shell.registeredAs)).toBe('/api/public/v1/companies/GB/04366849');
    expect(nationalRecordFor(shell.registeredAt, shell.registeredAs)).toMatchObject({
      country: 'GB',
      registrationNumber: '04366849',
      authority: { code: 'RA000585', evidence: 'recorded' },
    });
  });

  it('links the two GB records of the 12-hit answer and none of the ten others', () => {
    const page = parseLeiRecordList(json(TWELVE), AT);
    expect(page.records.map((r) => [r.lei, nationalRecordPath(r.registeredAt, r.registeredAs)])).toEqual([
      [AMAZON_UK_LEI, '/api/public/v1/companies/GB/06528297'],
      ['335800CCCPHKUOXPC332', null], // India
      ['984500983AD71E4FBC41', null], // Delaware
      ['254900MSZM6DMP853B11', null], // Ontario, not Corporations Canada
      ['549300YX4S1LLSMK2627', null],
      ['549300O897ZC5H7CY412', null], // Sweden
      [SHELL_LEI, '/api/public/v1/companies/GB/04366849'],
      ['529900GRZ2BQY5ZM9N49', null], // German court registers
      ['5299001ERX0K10IZUL40', null],
      [BLOOMBERG_LEI, null],
      ['INR2EJN1ERAN0W5ZP974', null], // Washington State
      ['851WYGNLUQLFZBSYGB56', null],
    ]);
  });

  it('has no path for a record without a register (the lapsed fund, RA999999) or of another country', () => {
    const fund = parseLeiRecordDocument(json(LAPSED_FUND), AT);
    expect(nationalRecordPath(fund.registeredAt, fund.registeredAs)).toBeNull();
    const fraport = parseLeiRecordDocument(json(FRAPORT), AT);
    expect(nationalRecordPath(fraport.registeredAt, fraport.registeredAs)).toBeNull();
    expect(nationalRecordPath(null, '04366849')).toBeNull();
    expect(nationalRecordPath('RA000585', null)).toBeNull();
    expect(nationalRecordPath({ id: null, other: 'Some registry' }, '04366849')).toBeNull();
  });

  // How each register's numbers may be written in registeredAs is UNVERIFIED outside GB: these
  // are the forms the registers themselves print, read by the service's own recognisers.
  it.each<[string, string, string | null]>([
    ['RA000585', '4366849', 'GB/04366849'],
    ['RA000585', 'oc 123456', 'GB/OC123456'],
    ['RA000587', 'SC651281', 'GB/SC651281'],
    ['RA000586', 'NI000123', 'GB/NI000123'],
    ['RA000585', 'HRB 7042', null],
    ['RA000014', 'ACN 154 482 283', 'AU/154482283'],
    ['RA000014', '154482283', 'AU/154482283'],
    ['RA000013', '26 154 482 283', 'AU/26154482283'],
    ['RA000013', '154482283', null], // an ACN is not held by the ABR
    ['RA000014', '26154482283', null], // nor an ABN by ASIC
    ['RA000014', '154482284', null], // check digit
    ['RA000072', '000100-7', 'CA/1007'],
    ['RA000072', '16292721', 'CA/16292721'],
    ['RA000189', '552032534', 'FR/552032534'],
    ['RA000189', '13002526500013', 'FR/130025265'],
    ['RA000192', 'RCS Paris B 552 032 534', 'FR/552032534'],
    ['RA000192', '552 032 534 R.C.S. Paris', 'FR/552032534'],
    ['RA000189', '552032535', null],
    ['RA000170', '25 05 29 43', 'DK/25052943'],
    ['RA000170', 'DK41774037', 'DK/41774037'],
    ['RA000170', '25052944', null],
    ['RA000472', '923 609 016', 'NO/923609016'],
    ['RA000473', 'NO 923609016 MVA', 'NO/923609016'],
    ['RA000472', '923609017', null],
  ])('reads %s %j as %s', (code, registeredAs, path) => {
    expect(nationalRecordPath(code, registeredAs)).toBe(path && `/api/public/v1/companies/${path}`);
  });

  it('gives paths in FI, CZ and PL where the service covers them, and none where it does not', () => {
    const all = [...LEI_COUNTRIES];
    expect(nationalRecordPath('RA000188', '0112038-9')).toBe('/api/public/v1/companies/FI/0112038-9');
    expect(nationalRecordPath('RA000188', '01120389')).toBe('/api/public/v1/companies/FI/0112038-9');
    expect(nationalRecordPath('RA000163', '25834151')).toBe('/api/public/v1/companies/CZ/25834151');
    expect(nationalRecordPath('RA000168', 'CZ68407700')).toBe('/api/public/v1/companies/CZ/68407700');
    expect(nationalRecordPath('RA000484', 'KRS 28860')).toBe('/api/public/v1/companies/PL/0000028860');
    for (const [code, registeredAs, country] of [
      ['RA000188', '0112038-9', 'FI'],
      ['RA000163', '25834151', 'CZ'],
      ['RA000484', 'KRS 28860', 'PL'],
    ]) {
      const without = all.filter((cc) => cc !== country);
      expect(nationalRecordPath(code, registeredAs, without)).toBeNull();
    }
  });

  it('gives each covered country’s number exactly as its recogniser keys it (what /companies/{cc}/{n} reads)', () => {
    const cases: [string, string][] = [
      ['RA000585', '4475590'],
      ['RA000585', '08957400'],
      ['RA000587', 'sc243739'],
      ['RA000013', '26154482283'],
      ['RA000014', '154 482 283'],
      ['RA000072', '1007'],
      ['RA000072', '16292721'],
      ['RA000189', '880878145'],
      ['RA000189', '88087814500015'],
      ['RA000170', '25052943'],
      ['RA000472', '923609016'],
    ];
    for (const [code, registeredAs] of cases) {
      const ref = nationalRecordFor(code, registeredAs)!;
      expect(ref).not.toBeNull();
      expect(RECOGNIZERS[ref.country](ref.registrationNumber)).toMatchObject({
        kind: 'number',
        registrationNumber: ref.registrationNumber,
      });
    }
  });
});

describe('FI, CZ and PL numbers (registers not built yet)', () => {
  it.each<[string, string | null]>([
    ['0112038-9', '0112038-9'], // Nokia, registers-next.md §1
    ['01120389', '0112038-9'],
    ['FI01120389', '0112038-9'],
    [' 0112038-9 ', '0112038-9'],
    ['112038-9', '0112038-9'],
    ['0112038-8', null],
    ['1120389', null],
    ['Nokia', null],
  ])('reads the Finnish business ID %j as %j', (value, expected) => {
    expect(finnishBusinessId(value)).toBe(expected);
  });

  it.each<[string, string | null]>([
    ['68407700', '68407700'], // registers-next.md §2: r = 1 → 0
    ['25834151', '25834151'], // r = 0 → 1
    ['CZ25834151', '25834151'],
    ['25834152', null],
    ['00000000', null],
    ['123456789', null],
  ])('reads the IČO %j as %j', (value, expected) => {
    expect(czechIco(value)).toBe(expected);
  });

  it.each<[string, string | null]>([
    ['0000028860', '0000028860'],
    ['28860', '0000028860'],
    ['KRS 0000028860', '0000028860'],
    ['KRS: 1268296', '0001268296'],
    ['0', null],
    ['12345678901', null],
    ['KRS', null],
  ])('reads the KRS number %j as %j', (value, expected) => {
    expect(polishKrs(value)).toBe(expected);
  });
});

describe('leiFilterFor', () => {
  it('asks GLEIF once for every GB number, in the form GLEIF writes it, under the three Companies House codes', () => {
    const filter = leiFilterFor('GB', ['04366849', '6528297', 'sc651281', 'Shell plc', '04366849'])!;
    expect(filter.params).toEqual({
      'filter[entity.registeredAt]': 'RA000585,RA000586,RA000587',
      'filter[entity.registeredAs]': '04366849,06528297,SC651281',
      'page[size]': '200',
    });
    expect(filter.wanted).toEqual(
      new Map([
        ['04366849', ['04366849']],
        ['06528297', ['6528297']],
        ['SC651281', ['sc651281']],
      ]),
    );
  });

  it.each<[string, string[], string, string]>([
    ['AU', ['26154482283', '154482283'], 'RA000013,RA000014', '26154482283,154482283'],
    ['AU', ['26154482283'], 'RA000013', '26154482283'],
    ['CA', ['1007', '16292721'], 'RA000072', '1007,000100-7,16292721'],
    ['FR', ['552032534', '13002526500013'], 'RA000189,RA000192', '552032534,130025265'],
    ['DK', ['25052943'], 'RA000170', '25052943'],
    ['NO', ['923609016'], 'RA000472,RA000473', '923609016'],
    ['FI', ['0112038-9'], 'RA000188', '0112038-9,01120389'],
    ['CZ', ['25834151'], 'RA000163,RA000168', '25834151'],
    ['PL', ['0000028860'], 'RA000484', '0000028860,28860'],
  ])('asks for %s numbers %j under %s as %s', (country, numbers, codes, forms) => {
    const filter = leiFilterFor(country, numbers)!;
    expect(filter.params['filter[entity.registeredAt]']).toBe(codes);
    expect(filter.params['filter[entity.registeredAs]']).toBe(forms);
  });

  it('makes no request when no number is one, or the country has no LEI link', () => {
    expect(leiFilterFor('GB', [])).toBeNull();
    expect(leiFilterFor('GB', ['Shell plc', '123456789'])).toBeNull();
    expect(leiFilterFor('DE', ['HRB 7042'])).toBeNull();
    expect(leiFilterFor('__proto__', ['1'])).toBeNull();
  });

  it(`maps at most ${LEI_BATCH_MAX_NUMBERS} numbers in one request`, () => {
    const numbers = Array.from({ length: LEI_BATCH_MAX_NUMBERS }, (_, i) => String(i + 1).padStart(8, '0'));
    const filter = leiFilterFor('GB', numbers)!;
    expect(filter.params['filter[entity.registeredAs]'].split(',')).toHaveLength(LEI_BATCH_MAX_NUMBERS);
    expect(() => leiFilterFor('GB', [...numbers, '00000999'])).toThrow(RangeError);
  });
});

describe('parseLeiMapping', () => {
  const gb = leiFilterFor('GB', ['04366849', '6528297', '00000001'])!;

  it('maps the two Companies House numbers of the recorded 12-hit answer, keyed as the caller gave them', () => {
    expect(parseLeiMapping(json(TWELVE), gb)).toEqual(
      new Map([
        ['6528297', AMAZON_UK_LEI],
        ['04366849', SHELL_LEI],
      ]),
    );
  });

  /** The 12-hit answer with some records changed: derived, not recorded. */
  function derived(change: (records: any[]) => void): any {
    const body = json(TWELVE);
    change(body.data);
    body.meta.pagination.total = body.data.length;
    return body;
  }
  const item = (records: any[], lei: string) => records.find((r) => r.id === lei);

  it('ignores a record of another register carrying an asked number', () => {
    const body = derived((records) => {
      item(records, '5299001ERX0K10IZUL40').attributes.entity.registeredAs = '06528297'; // RA000242
      records.splice(records.indexOf(item(records, AMAZON_UK_LEI)), 1);
    });
    expect(parseLeiMapping(body, gb)).toEqual(new Map([['04366849', SHELL_LEI]]));
  });

  it('maps nothing for a number two issued LEIs claim', () => {
    const body = derived((records) => {
      const e = item(records, BLOOMBERG_LEI).attributes.entity;
      e.registeredAt = { id: 'RA000585', other: null };
      e.registeredAs = '6528297';
    });
    expect(parseLeiMapping(body, gb)).toEqual(new Map([['04366849', SHELL_LEI]]));
  });

  it('prefers the issued LEI to a lapsed one, and shows a lapsed one alone', () => {
    const body = derived((records) => {
      const b = item(records, BLOOMBERG_LEI).attributes;
      b.entity.registeredAt = { id: 'RA000585', other: null };
      b.entity.registeredAs = '06528297';
      b.registration.status = 'LAPSED';
      item(records, SHELL_LEI).attributes.registration.status = 'LAPSED';
    });
    expect(parseLeiMapping(body, gb)).toEqual(
      new Map([
        ['6528297', AMAZON_UK_LEI],
        ['04366849', SHELL_LEI],
      ]),
    );
  });

  it.each(['ANNULLED', 'DUPLICATE', 'CANCELLED', 'PENDING_VALIDATION'])('never shows a %s LEI', (status) => {
    const body = derived((records) => {
      item(records, SHELL_LEI).attributes.registration.status = status;
    });
    expect(parseLeiMapping(body, gb)).toEqual(new Map([['6528297', AMAZON_UK_LEI]]));
  });

  it('skips a record it cannot read and maps the others', () => {
    const body = derived((records) => {
      item(records, AMAZON_UK_LEI).attributes.lei = '254900LNRYNOQ9YPU759'; // check digits
      delete item(records, '5299001ERX0K10IZUL40').attributes.entity.registeredAt;
    });
    expect(parseLeiMapping(body, gb)).toEqual(new Map([['04366849', SHELL_LEI]]));
  });

  it('maps nothing from an answer cut by paging', () => {
    const body = json(TWELVE);
    body.meta.pagination.total = 13;
    expect(parseLeiMapping(body, gb)).toEqual(new Map());
  });

  it('maps under the authority that holds each AU number, keyed by the number passed', () => {
    const au: LeiFilter = leiFilterFor('AU', ['26154482283', '154482283'])!;
    const body = derived((records) => {
      const shell = item(records, SHELL_LEI).attributes.entity;
      shell.registeredAt = { id: 'RA000014', other: null };
      shell.registeredAs = 'ACN 154 482 283';
      const amazon = item(records, AMAZON_UK_LEI).attributes.entity;
      amazon.registeredAt = { id: 'RA000013', other: null };
      amazon.registeredAs = '154482283'; // an ACN under the ABR: not its number
    });
    expect(parseLeiMapping(body, au)).toEqual(new Map([['154482283', SHELL_LEI]]));
  });

  it('maps a Norwegian number written with spaces', () => {
    const no = leiFilterFor('NO', ['923609016'])!;
    const body = derived((records) => {
      const e = item(records, SHELL_LEI).attributes.entity;
      e.registeredAt = { id: 'RA000472', other: null };
      e.registeredAs = '923 609 016';
    });
    expect(parseLeiMapping(body, no)).toEqual(new Map([['923609016', SHELL_LEI]]));
  });

  it.each<[string, unknown]>([
    ['a single record', JSON.parse(fixture(SHELL))],
    ['an HTML page', '<html><body>Down for maintenance</body></html>'],
    ['an error body', { errors: [{ status: '500' }] }],
  ])('throws invalid_response for %s', (_what, body) => {
    expect(() => parseLeiMapping(body, gb)).toThrow(UpstreamError);
  });
});
