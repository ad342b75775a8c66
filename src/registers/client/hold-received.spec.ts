import { PassThrough, Readable } from 'node:stream';
import { holdReceived } from './hold-received';

const tick = () => new Promise((r) => setImmediate(r));
const readAll = async (stream: Readable) => {
  const chunks: string[] = [];
  try {
    for await (const chunk of stream) chunks.push(String(chunk));
    return { body: chunks.join(''), error: null };
  } catch (err) {
    return { body: chunks.join(''), error: (err as Error).message };
  }
};

describe('holdReceived', () => {
  it('gives every chunk received before an error, then the error', async () => {
    const source = new PassThrough();
    const held = holdReceived(source);
    source.write('a');
    source.write('b');
    await tick();
    source.destroy(new Error('aborted'));
    await tick();
    expect(await readAll(held)).toEqual({ body: 'ab', error: 'aborted' });
  });

  it('gives the error after chunks its slow reader had not yet taken', async () => {
    const source = new PassThrough();
    const held = holdReceived(source);
    const chunks: string[] = [];
    const reading = (async () => {
      for await (const chunk of held) {
        chunks.push(String(chunk));
        if (chunks.length === 1) {
          source.write('b');
          source.write('c');
          await tick();
          source.destroy(new Error('aborted'));
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    })();
    source.write('a');
    await expect(reading).rejects.toThrow('aborted');
    expect(chunks.join('')).toBe('abc');
  });

  it('ends where its source ends', async () => {
    const held = holdReceived(Readable.from([Buffer.from('x'), Buffer.from('y')]));
    expect(await readAll(held)).toEqual({ body: 'xy', error: null });
  });

  it('stops reading its source past the read-ahead and goes on as it is read', async () => {
    const source = new PassThrough();
    const held = holdReceived(source, 4);
    for (let i = 0; i < 3; i++) source.write('12');
    await tick();
    expect(source.isPaused()).toBe(true);
    source.end();
    expect(await readAll(held)).toEqual({ body: '121212', error: null });
  });

  it('gives the first of two errors and takes the second without throwing', async () => {
    const source = new PassThrough();
    const held = holdReceived(source);
    source.write('a');
    await tick();
    source.destroy(new Error('first'));
    await tick();
    expect(() => source.emit('error', new Error('second'))).not.toThrow();
    expect(await readAll(held)).toEqual({ body: 'a', error: 'first' });
  });

  it('destroys its source when it is destroyed (an idle timeout, an abort)', async () => {
    const source = new PassThrough();
    const held = holdReceived(source);
    held.on('error', () => undefined);
    held.destroy(new Error('idle'));
    await tick();
    expect(source.destroyed).toBe(true);
  });
});
