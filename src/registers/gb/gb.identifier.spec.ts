import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { FIXTURES, fixture } from '../../../test/support/fake-register';
import { GB_COMPANY_NUMBER_PREFIXES, normaliseGbCompanyNumber, recognizeGbIdentifier } from './gb.identifier';

/** Every company number of the recorded GB responses (JSON fields, /company/ links, bulk CSV). */
function numbersInFixtures(): string[] {
  const found = new Set<string>();
  // Recorded responses only: constructed or derived files hold no real numbers of their own.
  for (const file of readdirSync(join(FIXTURES, 'registers/gb')).filter(
    (f) => f.endsWith('.json') && !/constructed|derived/.test(f),
  )) {
    const text = fixture(`registers/gb/${file}`);
    for (const m of text.matchAll(/"company_number"\s*:\s*"([^"]+)"/g)) found.add(m[1]);
    for (const m of text.matchAll(/\/company\/([A-Z0-9]{8})\b/g)) found.add(m[1]);
  }
  const rows = parse(fixture('registers/gb/ch-bulk-basiccompanydata-sample.csv'), { columns: true }) as Record<
    string,
    string
  >[];
  for (const row of rows) found.add(row[' CompanyNumber']);
  return [...found].sort();
}

const real = numbersInFixtures();

describe('recognizeGbIdentifier', () => {
  it('collects the real numbers of the recorded responses', () => {
    expect(real).toEqual(
      expect.arrayContaining(['08957400', '04475590', 'OE001962', 'SC243739', 'SL020083', '12778855']),
    );
    expect(real.length).toBeGreaterThanOrEqual(40);
  });

  it.each(real)('recognises the real company number %s', (number) => {
    expect(recognizeGbIdentifier(number)).toEqual({
      kind: 'number',
      registrationNumber: number,
      scheme: 'company_number',
    });
  });

  it('recognises real numbers typed without leading zeros, in lower case or with spaces', () => {
    for (const number of real) {
      const variants = /^\d+$/.test(number)
        ? [number.replace(/^0+/, ''), `${number.slice(0, 4)} ${number.slice(4)}`]
        : [number.toLowerCase(), `${number.slice(0, 2)} ${number.slice(2)}`];
      for (const v of variants) expect([v, normaliseGbCompanyNumber(v)]).toEqual([v, number]);
    }
  });

  it.each([
    ['49045', '00049045'],
    ['445790', '00445790'],
    ['00445790', '00445790'],
    ['SC 243 739', 'SC243739'],
    ['sc243739', 'SC243739'],
    ['oe-001962', 'OE001962'],
    ['R0123456', 'R0123456'],
    ['1066', '00001066'],
  ])('reads %p as company number %s', (query, number) => {
    expect(recognizeGbIdentifier(query)).toEqual({
      kind: 'number',
      registrationNumber: number,
      scheme: 'company_number',
    });
  });

  it.each([
    ['3M'],
    ['7 Eleven'],
    ['7-Eleven'],
    ['123 Ltd'],
    ['1066 Limited'],
    ['Tesco PLC'],
    ['YOU LIMITED'],
    ['AB123456'], // not a known prefix
    ['SC12345'], // prefix + 5 digits
    ['SC1234567'], // prefix + 7 digits
    ['R123456'], // R + 6 digits
    ['123456789'], // 9 digits
    ['0044579O'], // letter O, not zero
    [''],
  ])('leaves %p as a name', (query) => {
    expect(recognizeGbIdentifier(query)).toEqual({ kind: 'name' });
  });

  it('never answers invalid: GB numbers have no check digit', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 20 }), (query) => {
        expect(recognizeGbIdentifier(query).kind).not.toBe('invalid');
      }),
    );
  });

  it('reads any known prefix followed by 6 digits as a number (property)', () => {
    const prefixes = [...GB_COMPANY_NUMBER_PREFIXES];
    fc.assert(
      fc.property(fc.constantFrom(...prefixes), fc.stringMatching(/^\d{6}$/), (prefix, digits) => {
        expect(normaliseGbCompanyNumber(`${prefix.toLowerCase()} ${digits}`)).toBe(prefix + digits);
      }),
    );
  });

  it('leaves any query containing a letter outside a number shape as a name (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{0,3}[a-zA-Z][a-zA-Z0-9 ]{2,12}$/), (query) => {
        const compact = query.replace(/\s/g, '').toUpperCase();
        fc.pre(!/^[A-Z]{2}\d{6}$/.test(compact) && !/^R\d{7}$/.test(compact));
        expect(recognizeGbIdentifier(query)).toEqual({ kind: 'name' });
      }),
    );
  });
});
