import { ApiError } from '../../../../platform/errors/api-error';
import { parseBody } from '../../../../platform/validation/zod-input';
import { replaySchema } from './delivery.dto';

describe('a replay’s window', () => {
  it('is refused when until is not after since (swapped, most likely), rather than replaying nothing', () => {
    let refused: unknown;
    try {
      parseBody(replaySchema, { since: '2026-11-28T00:00:00Z', until: '2026-11-01T00:00:00Z' });
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).extras.errors).toEqual([
      { field: 'until', code: 'invalid_value', message: 'must be later than since' },
    ]);
  });

  it('accepts since alone, or since before until', () => {
    expect(parseBody(replaySchema, { since: '2026-11-01T00:00:00Z' })).toEqual({ since: '2026-11-01T00:00:00Z' });
    expect(
      parseBody(replaySchema, { since: '2026-11-01T00:00:00Z', until: '2026-11-02T00:00:00Z' }).until,
    ).toBeDefined();
  });
});
