import { parseJsonText, storableJson } from './response-body';
import { UpstreamError } from './upstream-error';

describe('storableJson', () => {
  it('drops U+0000 and reads lone surrogates as U+FFFD, in values and keys, at any depth', () => {
    const value = storableJson({
      name: 'ABG\u0000 SUNDAL',
      ['ci\u0000ty']: 'OSLO',
      officers: [{ name: 'SMITH, J\ud800' }, { name: '\udc00LEE' }],
      deep: { deeper: ['\ud800\ud800'] },
      [`k\udfff`]: 1,
    });
    expect(value).toEqual({
      name: 'ABG SUNDAL',
      city: 'OSLO',
      officers: [{ name: 'SMITH, J\uFFFD' }, { name: '\uFFFDLEE' }],
      deep: { deeper: ['\uFFFD\uFFFD'] },
      'k\uFFFD': 1,
    });
    // What jsonb refuses is gone from what would be written.
    expect(JSON.stringify(value)).not.toMatch(/\\u0000|\\ud[89a-f]/i);
  });

  it('keeps paired surrogates (an emoji), numbers, booleans and nulls as they are', () => {
    const value = { name: 'Café 😀 AS', n: 1, b: true, z: null };
    expect(storableJson(structuredClone(value))).toEqual(value);
  });
});

describe('parseJsonText', () => {
  it('cleans what the escapes \\u0000 and \\ud800 become once parsed', () => {
    expect(parseJsonText('{"name":"ABG\\u0000 SUNDAL","city":"OS\\ud800LO"}', 200, 'CVR')).toEqual({
      name: 'ABG SUNDAL',
      city: 'OS\uFFFDLO',
    });
  });

  it('is an invalid response for a body that is not JSON', () => {
    expect(() => parseJsonText('<html>', 200, 'CVR')).toThrow(UpstreamError);
  });
});
