import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateRawSync, gzipSync } from 'node:zlib';
import { makeZip } from '../../../test/support/zip';
import { detectCompression, openInput } from './open-input';

async function readAll(path: string, entryPattern?: RegExp): Promise<Array<{ name: string; text: string }>> {
  const input = await openInput(path, { entryPattern });
  const out: Array<{ name: string; text: string }> = [];
  for await (const part of input.parts()) {
    const chunks: Buffer[] = [];
    for await (const c of part.stream) chunks.push(c as Buffer);
    out.push({ name: part.name, text: Buffer.concat(chunks).toString('utf8') });
  }
  return out;
}

describe('openInput', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'rl-open-input-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('detects gzip and zip from the first bytes, whatever the name says', async () => {
    const text = 'siren,denominationUniteLegale\n552032534,DANONE\n';
    const gz = join(dir, 'looks-plain.csv');
    writeFileSync(gz, gzipSync(text));
    const zip = join(dir, 'looks-gzipped.gz');
    writeFileSync(zip, makeZip([{ name: 'StockUniteLegale_utf8.csv', data: text }]));
    const plain = join(dir, 'looks-zipped.zip');
    writeFileSync(plain, text);

    expect((await openInput(gz)).compression).toBe('gzip');
    expect((await openInput(zip)).compression).toBe('zip');
    expect((await openInput(plain)).compression).toBe('plain');
    expect((await readAll(gz))[0].text).toBe(text);
    expect(await readAll(zip, /\.csv$/)).toEqual([{ name: 'StockUniteLegale_utf8.csv', text }]);
    expect((await readAll(plain))[0].text).toBe(text);
  });

  it('streams every matching zip entry in order and skips the others', async () => {
    const zip = join(dir, 'OPEN_DATA_SPLIT.zip');
    writeFileSync(
      zip,
      makeZip([
        { name: 'readme.txt', data: 'not data' },
        { name: 'OPEN_DATA_1.xml', data: '<a/>' },
        { name: 'codes/', data: '', store: true },
        { name: 'OPEN_DATA_2.xml', data: '<b/>', store: true },
      ]),
    );
    expect(await readAll(zip, /\.xml$/i)).toEqual([
      { name: 'OPEN_DATA_1.xml', text: '<a/>' },
      { name: 'OPEN_DATA_2.xml', text: '<b/>' },
    ]);
    const input = await openInput(zip, { entryPattern: /\.xml$/ });
    const positions: number[] = [];
    for await (const part of input.parts()) {
      for await (const _ of part.stream) void _;
      positions.push(input.bytesRead());
    }
    // After OPEN_DATA_1.xml: its local header and data follow readme.txt's; then the end of the file.
    const readme = 30 + 'readme.txt'.length + deflateRawSync('not data').length;
    expect(positions[0]).toBe(readme + 30 + 'OPEN_DATA_1.xml'.length + deflateRawSync('<a/>').length);
    expect(input.bytesRead()).toBe(input.totalBytes);
  });

  it('says which entries a zip holds when none matches', async () => {
    const zip = join(dir, 'wrong.zip');
    writeFileSync(zip, makeZip([{ name: 'notes.txt', data: 'x' }]));
    await expect(readAll(zip, /\.csv$/i)).rejects.toThrow(/no entry matching \/\\\.csv\$\/i \(entries: notes\.txt\)/);
  });

  it('gives one readable line for a missing file, and refuses other compressions', async () => {
    await expect(openInput(join(dir, 'nope.csv'))).rejects.toThrow(/^file not found: .*nope\.csv$/);
    expect(() => detectCompression(Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0, 0]))).toThrow(/zstd-compressed/);
    expect(() => detectCompression(Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]))).toThrow(/xz-compressed/);
  });

  it('reports a corrupt gzip as an error of the stream', async () => {
    const bad = join(dir, 'bad.gz');
    writeFileSync(bad, Buffer.concat([gzipSync('a'.repeat(1000)).subarray(0, 20)]));
    await expect(readAll(bad)).rejects.toThrow(
      /bad\.gz: the gzip data is corrupt or truncated \(unexpected end of file\)/,
    );
  });
});
