import { Readable } from 'node:stream';
import { textChunks } from './text-chunks';

async function pieces(input: Readable): Promise<string[]> {
  const out: string[] = [];
  for await (const piece of textChunks(input)) out.push(piece);
  return out;
}

describe('textChunks', () => {
  it('decodes a byte stream in pieces of at most 32 kB, letters cut between chunks kept whole', async () => {
    const text = 'Brønnøysund 😀 æøå '.repeat(20_000);
    const bytes = Buffer.from(text, 'utf8');
    const chunks: Buffer[] = [];
    for (let i = 0; i < bytes.length; i += 100_003) chunks.push(bytes.subarray(i, i + 100_003));
    const out = await pieces(Readable.from(chunks));
    expect(out.join('')).toBe(text);
    expect(Math.max(...out.map((p) => Buffer.byteLength(p)))).toBeLessThanOrEqual(32 * 1024 + 3); // + the bytes of a letter begun in the piece before
  });

  it('passes strings through', async () => {
    expect(await pieces(Readable.from(['a', 'b'], { objectMode: true }))).toEqual(['a', 'b']);
  });
});
