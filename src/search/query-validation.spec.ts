import { ApiError } from '../platform/errors/api-error';
import { requireParameters, resolveCountry, validateQuery, validateRegistrationNumber } from './query-validation';

function codeOf(fn: () => unknown): string | null {
  try {
    fn();
    return null;
  } catch (err) {
    return (err as ApiError).code;
  }
}

describe('query validation', () => {
  it.each([
    ['Equinor\tASA', 'tab'],
    ['Equinor\nASA', 'line feed'],
    ['Equinor\r\nASA', 'CR LF'],
    ['Equinor\u2028ASA', 'line separator'],
    ['\u0000ab', 'NUL'],
  ])('q with a control character (%j, %s) is invalid_query', (q) => {
    expect(codeOf(() => validateQuery(q))).toBe('invalid_query');
  });

  it('absent or empty q is missing_parameter; present but blank is invalid_query', () => {
    expect(codeOf(() => validateQuery(undefined))).toBe('missing_parameter');
    expect(codeOf(() => validateQuery(''))).toBe('missing_parameter');
    expect(codeOf(() => validateQuery('   '))).toBe('invalid_query');
    expect(codeOf(() => validateQuery('\u00a0\u00a0'))).toBe('invalid_query');
    expect(codeOf(() => requireParameters({ q: '   ', country: 'NO' }))).toBeNull();
    expect(codeOf(() => requireParameters({ q: '', country: 'NO' }))).toBe('missing_parameter');
    expect(codeOf(() => resolveCountry('  '))).toBe('country_not_covered');
  });

  it('q or country given twice is invalid_query, not a country that is not covered', () => {
    expect(codeOf(() => validateQuery(['sesam', 'sesam']))).toBe('invalid_query');
    expect(codeOf(() => resolveCountry(['NO', 'GB']))).toBe('invalid_query');
    expect(() => resolveCountry(['NO', 'NO'])).toThrow('country must be given once, as a single string.');
  });

  it('keeps inner spaces of a name, collapsed', () => {
    expect(validateQuery('  Equinor   ASA ')).toBe('Equinor ASA');
  });

  it.each(['9/7/6/030788', '976030788\t', '976\n030788', '976_030_788', '976030788;', '#976030788'])(
    'a registration number with characters no number holds (%j) is invalid_query',
    (n) => {
      expect(codeOf(() => validateRegistrationNumber(n))).toBe('invalid_query');
    },
  );

  it.each(['976030788', '976 030 788', '976.030.788', 'SC123456', 'NO 923 609 016 MVA', '12-345-678'])(
    'accepts the number %j',
    (n) => {
      expect(codeOf(() => validateRegistrationNumber(n))).toBeNull();
    },
  );
});
