import { fixture } from '../../../test/support/fake-register';
import { UpstreamError } from '../upstream-error';
import { abnStatusCategory, matchingNamesStatus, parseAbnDetails, parseMatchingNames, unwrapJsonp } from './abr-parser';

const payload = (file: string) => unwrapJsonp(fixture(`registers/au/${file}`), 'callback');
const REAL = 'abr-json-abndetails-26154482283-oneflare-active.jsonp';

describe('unwrapJsonp', () => {
  it('unwraps the recorded JSONP body', () => {
    expect(payload(REAL)).toMatchObject({ Abn: '26154482283', Message: '' });
  });

  it.each([
    ['plain JSON', '{"Abn":"26154482283"}'],
    ['another callback', 'other({"Abn":"26154482283"})'],
    ['an HTML page', '<!DOCTYPE html><html><body>Server Error</body></html>'],
    ['broken JSON inside the callback', 'callback({"Abn":"2615)'],
    ['nothing', ''],
  ])('refuses %s', (_label, body) => {
    expect(() => unwrapJsonp(body, 'callback')).toThrow(expect.objectContaining({ errorClass: 'invalid_response' }));
  });
});

describe('parseAbnDetails', () => {
  it('reads the recorded AbnDetails answer (Oneflare Pty Ltd)', () => {
    expect(parseAbnDetails(payload(REAL))).toEqual({
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
    });
  });

  it('reads a cancelled ABN in the register wording', () => {
    expect(
      parseAbnDetails(payload('abr-json-abndetails-26154482283-cancelled-constructed-from-docs.jsonp')),
    ).toMatchObject({
      status: 'Cancelled',
      statusCategory: 'dissolved',
      extra: { gstRegisteredFrom: null, abnStatusEffectiveFrom: '2023-06-30' },
    });
  });

  it('answers null for "no record"-like messages', () => {
    expect(parseAbnDetails(payload('abr-json-abndetails-no-record-constructed-from-docs.jsonp'))).toBeNull();
    expect(parseAbnDetails(payload('abr-json-abndetails-not-valid-constructed-from-docs.jsonp'))).toBeNull();
  });

  it('turns an unknown GUID into an authorisation failure', () => {
    expect(() => parseAbnDetails(payload('abr-json-abndetails-invalid-guid-constructed-from-docs.jsonp'))).toThrow(
      expect.objectContaining({ errorClass: 'unauthorized' }),
    );
  });

  it('refuses an unknown message rather than returning a blank record', () => {
    expect(() => parseAbnDetails(payload('abr-json-abndetails-unknown-message-constructed-from-docs.jsonp'))).toThrow(
      expect.objectContaining({
        errorClass: 'invalid_response',
        message: expect.stringContaining('An unexpected error has occurred'),
      }),
    );
  });

  it('never returns a blank record when the message is empty but the fields are too', () => {
    const blank = payload('abr-json-abndetails-no-record-constructed-from-docs.jsonp') as Record<string, unknown>;
    expect(() => parseAbnDetails({ ...blank, Message: '' })).toThrow(UpstreamError);
    expect(() => parseAbnDetails([])).toThrow(UpstreamError);
  });
});

describe('parseMatchingNames', () => {
  it('reads names with their status codes in the register words, one result per ABN', () => {
    const records = parseMatchingNames(payload('abr-json-matchingnames-oneflare-constructed-from-docs.jsonp'));
    expect(records).toEqual([
      {
        name: 'Oneflare Pty Ltd',
        registrationNumber: '26154482283',
        country: 'AU',
        status: 'Active',
        statusCategory: 'active',
        legalForm: null,
        address: 'NSW 2000',
        city: null,
        incorporationDate: null,
        extra: { nameType: 'Entity Name', isCurrentName: true, score: 100 },
      },
      expect.objectContaining({
        name: 'ONEFLARE EXAMPLE CONSTRUCTED PTY LTD',
        registrationNumber: '80000000001',
        status: 'Cancelled',
        statusCategory: 'dissolved',
        address: 'VIC 3000',
      }),
    ]);
  });

  it('answers [] for no names, with or without a message', () => {
    expect(parseMatchingNames(payload('abr-json-matchingnames-no-names-constructed-from-docs.jsonp'))).toEqual([]);
    expect(parseMatchingNames(payload('abr-json-matchingnames-no-record-constructed-from-docs.jsonp'))).toEqual([]);
  });

  it('refuses an answer without Names or with a row it cannot read', () => {
    expect(() => parseMatchingNames({ Message: '' })).toThrow(UpstreamError);
    expect(() => parseMatchingNames({ Message: '', Names: [{ Name: 'X', AbnStatus: '0000000001' }] })).toThrow(
      /row without an ABN/,
    );
  });
});

describe('status wording and categories', () => {
  it.each([
    ['0000000001', 'Active'],
    ['0000000002', 'Cancelled'],
    ['Active', 'Active'],
    ['0000000009', null],
    ['', null],
  ])('MatchingNames status %s → %s', (code, word) => {
    expect(matchingNamesStatus(code)).toBe(word);
  });

  it.each([
    ['Active', 'active'],
    ['Cancelled', 'dissolved'],
    [null, 'unknown'],
  ] as const)('%s → %s', (status, category) => {
    expect(abnStatusCategory(status)).toBe(category);
  });
});
