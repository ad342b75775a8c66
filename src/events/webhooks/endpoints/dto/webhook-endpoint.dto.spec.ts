import { parseBody } from '../../../../platform/validation/zod-input';
import { MAX_URL_LENGTH } from '../../outbound/target-url';
import { createEndpointSchema } from './webhook-endpoint.dto';

/** The errors an endpoint's creation is refused with. */
function errorsOf(body: unknown): unknown {
  try {
    parseBody(createEndpointSchema, body);
  } catch (err) {
    return (err as { extras: { errors: unknown } }).extras.errors;
  }
  throw new Error('accepted');
}

describe('an endpoint’s url, refused for what is wrong with it', () => {
  it('a url with a fragment is refused: the receiver would never see it', () => {
    for (const url of ['https://example.com/hook#frag', 'https://example.com/hook#'])
      expect(errorsOf({ url })).toEqual([
        {
          field: 'url',
          code: 'invalid_url',
          message: 'has a fragment (#…), which is never sent to the receiver: remove it',
        },
      ]);
  });

  it('a url that is no text is "a URL string"', () => {
    expect(errorsOf({ url: 42 })).toEqual([{ field: 'url', code: 'invalid_type', message: 'a URL string' }]);
  });

  it('a url too long says how long it may be, not "a URL string"', () => {
    expect(errorsOf({ url: `https://example.com/${'a'.repeat(MAX_URL_LENGTH)}` })).toEqual([
      { field: 'url', code: 'out_of_range', message: `must have at most ${MAX_URL_LENGTH} characters` },
    ]);
    expect(errorsOf({ url: '' })).toEqual([{ field: 'url', code: 'out_of_range', message: 'must not be empty' }]);
  });
});
