import { CopyBlocks } from './copy-blocks';

describe('CopyBlocks', () => {
  it('hands back every byte of every line, in order, across block boundaries and multi-byte characters', () => {
    const blocks = new CopyBlocks(64);
    const lines = Array.from({ length: 50 }, (_, i) => `${i}\tSésam-Stasjon Ø ${'x'.repeat(i % 7)} 🚀\n`);
    const sent: Buffer[] = [];
    for (const line of lines) {
      const full = blocks.add(line);
      if (full) sent.push(full);
    }
    sent.push(blocks.take());
    expect(sent.length).toBeGreaterThan(10);
    expect(Buffer.concat(sent).toString('utf8')).toBe(lines.join(''));
  });

  it('takes a line longer than a block whole, in a block of its own size', () => {
    const blocks = new CopyBlocks(32);
    expect(blocks.add('short\n')).toBeNull();
    const long = `${'é'.repeat(40)}\n`;
    expect(blocks.add(long)?.toString()).toBe('short\n');
    expect(blocks.length).toBe(Buffer.byteLength(long));
    expect(blocks.take().toString()).toBe(long);
    expect(blocks.take().length).toBe(0);
  });
});
