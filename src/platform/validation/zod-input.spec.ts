import { z } from 'zod';
import { ApiError } from '../errors/api-error';
import { pageQuery } from '../pagination';
import { windowInOrder } from './text-input';
import { parseQuery } from './zod-input';

const listQuery = z
  .object({ ...pageQuery, country: z.string().max(8).optional() })
  .strict()
  .superRefine(windowInOrder);

/** The errors a query is refused with (as a client reads them), or the parsed query. */
function errorsOf(query: Record<string, unknown>): Array<{ field: string; code: string; message: string }> {
  try {
    parseQuery(listQuery, query);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    expect(err.code).toBe('invalid_parameter');
    return err.extras.errors as Array<{ field: string; code: string; message: string }>;
  }
  throw new Error('accepted');
}

describe('parseQuery: a list’s query refused in plain words', () => {
  it.each([['abc'], ['1e999'], ['1e308'], ['1.5'], ['0'], ['101'], ['-3'], ['']])(
    'limit=%s: the range, not "must be a number, not a number"',
    (limit) => {
      expect(errorsOf({ limit })).toEqual([
        { field: 'limit', code: 'invalid_parameter', message: 'must be a whole number from 1 to 100' },
      ]);
    },
  );

  it('a parameter given twice is refused as such, not as the type a list is not', () => {
    expect(errorsOf({ limit: ['1', '2'], country: ['NO', 'GB'] })).toEqual([
      { field: 'limit', code: 'invalid_parameter', message: 'must be given once' },
      { field: 'country', code: 'invalid_parameter', message: 'must be given once' },
    ]);
  });

  it('an unknown parameter stays unknown, given twice or not', () => {
    expect(errorsOf({ limits: ['1', '2'] })).toEqual([
      { field: 'limits', code: 'unknown_parameter', message: 'not a parameter of this endpoint' },
    ]);
  });

  it('a window that ends before it starts is refused, not answered empty', () => {
    expect(errorsOf({ since: '2026-11-28T00:00:00Z', until: '2026-11-01T00:00:00Z' })).toEqual([
      { field: 'until', code: 'invalid_parameter', message: 'must be later than since' },
    ]);
    expect(errorsOf({ since: '2026-11-28T00:00:00Z', until: '2026-11-28T00:00:00Z' })).toHaveLength(1);
    expect(parseQuery(listQuery, { since: '2026-11-01T00:00:00Z', until: '2026-11-28T00:00:00Z' })).toMatchObject({
      since: new Date('2026-11-01T00:00:00Z'),
    });
  });

  it('a good query passes with its defaults', () => {
    expect(parseQuery(listQuery, { limit: '100', country: 'NO' })).toEqual({ limit: 100, country: 'NO' });
    expect(parseQuery(listQuery, {})).toEqual({ limit: 50 });
  });
});

describe('plain messages of coerced numbers (settings such as PORT=abc)', () => {
  const port = z.coerce.number().int();
  it.each([
    ['abc', 'must be a number'],
    ['Infinity', 'must be a number'],
    ['1.5', 'must be a whole number'],
  ])('%s: %s', (input, message) => {
    expect(port.safeParse(input).error?.issues[0].message).toBe(message);
  });
});

describe('plain messages of bounds', () => {
  it('count one item, one character, in the singular', () => {
    expect(z.array(z.string()).min(1).safeParse([]).error?.issues[0].message).toBe('must have at least 1 item');
    expect(z.array(z.string()).max(2).safeParse(['a', 'b', 'c']).error?.issues[0].message).toBe(
      'must have at most 2 items',
    );
    expect(z.string().min(2).safeParse('a').error?.issues[0].message).toBe('must have at least 2 characters');
  });
});
