import { Readable } from 'node:stream';
import fc from 'fast-check';
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

describe('jsonArrayElements on files of many units (the quick way: one JSON.parse up to the last `}`, `{`)', () => {
  // Strings and nested arrays that hold what the quick way cuts at: it must never cut there.
  const units = Array.from({ length: 400 }, (_, i) => ({
    organisasjonsnummer: String(100000000 + i),
    navn: i % 7 === 0 ? `A},{"B": "C"}, {D ${i}` : `SESAM ${i} AS`,
    nested: i % 5 === 0 ? [{ a: 1 }, { b: [{ c: '}, {' }] }] : { kode: 'AS' },
    adresse: ['Gate 1', '}\n,\n{'],
  }));

  it.each([
    ['one unit per line', `[\n${units.map((u) => JSON.stringify(u)).join(',\n')}\n]\n`],
    ['pretty-printed, Jackson style', `[ ${units.map((u) => JSON.stringify(u, null, 2)).join(', ')} ]`],
    ['on one line', JSON.stringify(units)],
  ])('yields every unit whole, %s, whatever the chunk size', async (_layout, text) => {
    for (const size of [7, 1000, 4096, 40_000, 1_000_000]) expect(await elements(text, size)).toEqual(units);
  });

  it('reads any array of objects, however laid out and cut, as JSON.parse reads it whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 })), { minLength: 1, maxLength: 40 }),
        fc.constantFrom(0, 1, 2),
        fc.integer({ min: 1, max: 300 }),
        async (objects, indent, size) => {
          const text = JSON.stringify(objects, null, indent);
          expect(await elements(text, size)).toEqual(JSON.parse(text));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('yields every unit whole when the quick way keeps failing (units ending in arrays of objects) or meets a unit longer than many chunks', async () => {
    const endingInObjects = units.map((u, i) => ({
      ...u,
      list: [{ a: i }, { b: '},{' }, { c: [{ d: 1 }, { e: 2 }] }],
    }));
    const long = [
      ...units.slice(0, 50),
      { navn: 'LONG', text: 'x},{'.repeat(200_000), list: [{ a: 1 }, { b: 2 }] },
      ...units.slice(50, 100),
    ];
    for (const values of [endingInObjects, long]) {
      const text = `[\n${values.map((u) => JSON.stringify(u)).join(',\n')}\n]\n`;
      for (const size of [4096, 100_000]) expect(await elements(text, size)).toEqual(values);
    }
  });

  it('names the broken unit after many good ones', async () => {
    const good = units.slice(0, 300).map((u) => JSON.stringify(u));
    const text = `[\n${[...good, '{"navn": tru}', ...good].join(',\n')}\n]`;
    const err = await elements(text, 4096).then(
      () => null,
      (e: unknown) => e as Error,
    );
    expect(err).toBeInstanceOf(DatasetFileError);
    const [, from, to] = /one of elements (\d+)–(\d+)/.exec(err!.message) ?? [];
    expect(Number(from)).toBeLessThanOrEqual(301);
    expect(Number(to)).toBeGreaterThanOrEqual(301);
  });

  it('refuses an array closed early, or a comma before its end', async () => {
    const good = units.slice(0, 100).map((u) => JSON.stringify(u));
    for (const bad of [
      `[${good.join(',')}] , ${good[0]}]`,
      `[${good.join(',')},]`,
      `[${good.join(',\n')},\n${good[0]}`,
    ]) {
      await expect(elements(bad, 2048)).rejects.toBeInstanceOf(DatasetFileError);
    }
  });
});
