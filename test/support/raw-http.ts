import { connect, Socket } from 'node:net';
import type { TestApp } from './test-app';

export interface RawAnswer {
  text: string;
  closedAfterMs: number;
}

/**
 * Writes raw bytes (and maybe never finishes), then collects whatever comes back until the
 * server closes the connection. The socket is never half-closed: Node's server drops the
 * answer to a client that ended its side before the answer was written.
 */
export function raw(app: TestApp, chunks: string[], giveUpMs = 10_000): Promise<RawAnswer> {
  const { port } = new URL(app.url);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket: Socket = connect(Number(port), '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server held the connection for ${giveUpMs} ms; got: ${text.slice(0, 200)}`));
    }, giveUpMs);
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closedAfterMs: Date.now() - started });
    });
    socket.on('connect', () => chunks.forEach((c) => socket.write(c)));
  });
}
