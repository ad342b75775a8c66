import { z } from 'zod';
import { ApiError } from '../errors/api-error';
import { cursorSchema, encodeCursor, pageQuery } from '../pagination';
import { isoInstant, nulCharacters } from './text-input';
import { parseBody, parseQuery } from './zod-input';

function problem(f: () => unknown): { code: string; detail: string; errors: unknown } {
  try {
    f();
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, detail: err.detail, errors: err.extras.errors };
    throw err;
  }
  throw new Error('expected a problem');
}

describe('input at the edge', () => {
  it('refuses a NUL character anywhere in a body or a query, naming the field', () => {
    const schema = z.object({ name: z.string(), tags: z.array(z.string()).optional() }).strict();
    expect(problem(() => parseBody(schema, { name: 'a\u0000b' }))).toMatchObject({
      code: 'invalid_body',
      errors: [{ field: 'name', code: 'nul_character' }],
    });
    expect(nulCharacters({ a: { b: ['x', 'y\u0000'] } })).toEqual([
      expect.objectContaining({ field: 'a.b[1]', code: 'nul_character' }),
    ]);
    expect(problem(() => parseQuery(z.object({ q: z.string() }), { q: '\u0000' }))).toMatchObject({
      code: 'invalid_parameter',
      errors: [{ field: 'q' }],
    });
    expect(parseBody(schema, { name: 'plain' })).toEqual({ name: 'plain' });
  });

  it('speaks in plain sentences', () => {
    const schema = z
      .object({ a: z.string().min(10), b: z.number().max(3), c: z.enum(['x', 'y']), d: z.string(), e: z.email() })
      .strict();
    const { errors } = problem(() => parseBody(schema, { a: 'x', b: 5, c: 'z', e: 'no', extra: 1 }));
    expect(errors).toEqual(
      expect.arrayContaining([
        { field: 'a', code: 'out_of_range', message: 'must have at least 10 characters' },
        { field: 'b', code: 'out_of_range', message: 'must be at most 3' },
        { field: 'c', code: 'invalid_value', message: 'must be one of "x", "y"' },
        { field: 'd', code: 'invalid_type', message: 'is required' },
        { field: 'e', code: 'invalid_value', message: 'must be a valid email' },
        { field: 'extra', code: 'unknown_field', message: 'unknown field' },
      ]),
    );
  });

  it.each(['0000-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '+010000-01-01T00:00:00Z', '-271821-04-20T00:00:00Z'])(
    'refuses %s as a time bound, saying the range',
    (value) => {
      expect(isoInstant().safeParse(value).success).toBe(false);
      const { errors } = problem(() => parseQuery(z.object(pageQuery), { since: value }));
      expect(errors).toEqual([
        expect.objectContaining({ field: 'since', message: expect.stringMatching(/1970|ISO 8601/) }),
      ]);
    },
  );

  it.each([
    ['2026-02-30T00:00:00Z', '2026-02-30 is not a day of the calendar'],
    ['2025-02-29T10:00:00+01:00', '2025-02-29 is not a day of the calendar'],
    ['2026-13-01T00:00:00Z', '2026-13-01 is not a day of the calendar'],
    ['2026-02-28T25:00:00Z', 'must be an ISO 8601 date-time, e.g. 2026-11-23T10:00:00Z'],
    ['yesterday', 'must be an ISO 8601 date-time, e.g. 2026-11-23T10:00:00Z'],
  ])('says what is wrong with %s', (value, message) => {
    const { errors } = problem(() => parseQuery(z.object(pageQuery), { since: value }));
    expect(errors).toEqual([expect.objectContaining({ field: 'since', message })]);
  });

  it('takes 29 February of a leap year', () => {
    expect(isoInstant().safeParse('2028-02-29T00:00:00Z').success).toBe(true);
  });

  it('refuses a cursor whose time no engine stores, and takes one it gave out', () => {
    const forged = (iso: string) =>
      Buffer.from(JSON.stringify([iso, 'evt_0123456789012345678901'])).toString('base64url');
    for (const iso of ['-271821-04-20T00:00:00.000Z', '-100000-01-01T00:00:00.000Z', '+010000-01-01T00:00:00.000Z'])
      expect(cursorSchema.safeParse(forged(iso)).success).toBe(false);
    const good = encodeCursor({ createdAt: new Date('2026-11-23T10:00:00Z'), id: 'evt_0123456789012345678901' });
    expect(cursorSchema.parse(good)).toEqual({
      createdAt: new Date('2026-11-23T10:00:00Z'),
      id: 'evt_0123456789012345678901',
    });
  });
});
