import { Readable } from 'node:stream';
import { DatasetFileError } from './dataset-row';
import { jsonArrayElements } from './json-array-elements';

async function elements(text: string, chunkSize: number): Promise<unknown[]> {
  // Byte chunks, as a file or gunzip delivers them: multi-byte letters may be cut in two.
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunkSize) chunks.push(bytes.subarray(i, i + chunkSize));
  const out: unknown[] = [];
  for await (const v of jsonArrayElements(Readable.from(chunks))) out.push(v);
  return out;
}

describe('jsonArrayElements', () => {
  const values = [
    { navn: 'SESAM "STASJON" AS', adresse: ['Gate 1', null, ''], tricky: '}],[{\\"' },
    [1, [2, [3]], { a: [] }],
    'plain string with , and ] and }',
    42,
    null,
    true,
    { æøå: 'Brønnøysund', emoji: '😀', nested: { deep: { deeper: [{}] } } },
    { backslashes: ['\\', '\\\\', 'a\\"b', '\\\\"]}', '"\\', ''] },
  ];
  const text = `\ufeff [\n ${values.map((v) => JSON.stringify(v, null, 2)).join(' ,\n')} \n] \n`;

  it.each([1, 2, 3, 7, 64, 100_000])('yields every element whole whatever the chunk size (%i)', async (size) => {
    expect(await elements(text, size)).toEqual(values);
  });

  it('reads an empty array', async () => {
    expect(await elements(' [ ] ', 1)).toEqual([]);
  });

  it.each([
    ['', 'empty'],
    ['{"a":1}', 'does not start with ['],
    ['[{"a":1},', 'not closed'],
    ['[{"a":1}', 'not closed'],
    ['[{"a":1}] x', 'after the closing'],
    ['[{"a":1},,{"b":2}]', 'unexpected ,'],
    ['[{"a":tru}]', 'JSON'],
  ])('refuses %j as a DatasetFileError', async (bad, why) => {
    const err = await elements(bad, 3).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DatasetFileError);
    expect((err as Error).message).toContain(why === 'JSON' ? 'not a JSON array' : why);
  });
});
