import { ApiError } from '../../../platform/errors/api-error';
import { resolveWatchTarget } from './watch-input';

/** The problem a watch body is refused with. */
function refusal(raw: unknown, field?: string): Pick<ApiError, 'code' | 'detail'> & { errors: unknown } {
  try {
    resolveWatchTarget(raw, field);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { code: err.code, detail: err.detail, errors: err.extras.errors };
  }
  throw new Error('accepted');
}

describe('resolveWatchTarget: a watch body is refused in the words of every /api/v1 body', () => {
  it('a missing body, or JSON that is no object, is named as the body', () => {
    for (const raw of [undefined, null, [], 'NO 923609016'])
      expect(refusal(raw)).toEqual({
        code: 'invalid_body',
        detail: 'The request body must be a JSON object (Content-Type: application/json).',
        errors: [{ field: '(body)', code: 'invalid_type', message: 'expected a JSON object' }],
      });
  });

  it('names each unknown field and each missing one by its own name, prototype names included', () => {
    expect(refusal(JSON.parse('{"__proto__":{"country":"NO"},"registrationNumber":"923609016"}'))).toEqual({
      code: 'invalid_body',
      detail: 'country: is required; __proto__: unknown field.',
      errors: [
        { field: 'country', code: 'invalid_type', message: 'is required' },
        { field: '__proto__', code: 'unknown_field', message: 'unknown field' },
      ],
    });
  });

  it('refuses a NUL character in a field before anything is looked up', () => {
    expect(refusal({ country: 'N\u0000O', registrationNumber: '923609016' })).toMatchObject({
      code: 'invalid_body',
      errors: [{ field: 'country' }],
    });
  });

  it('a bulk row’s errors carry its place, and a row that is no object is named as the row', () => {
    expect(refusal({ country: 'NO', registrationNumber: '923609016', extra: 1 }, 'watches[3].')).toMatchObject({
      errors: [{ field: 'watches[3].extra', code: 'unknown_field' }],
    });
    expect(refusal(42, 'watches[0].')).toMatchObject({
      code: 'invalid_body',
      errors: [{ field: 'watches[0]', code: 'invalid_type' }],
    });
  });

  it('accepts a good body, normalised as the register keys it', () => {
    expect(resolveWatchTarget({ country: 'no', registrationNumber: '923 609 016' })).toMatchObject({
      country: 'NO',
      registrationNumber: '923609016',
      notifyNoChange: false,
    });
  });
});
