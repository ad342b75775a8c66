import { Readable } from 'node:stream';

/** Bytes read ahead of the consumer before the connection is left to the kernel's window. */
const READ_AHEAD_BYTES = 1 << 20;

/**
 * A response body read from the socket at once, whose chunks stay readable after the
 * connection drops: the drop's error comes after them. Node discards what an `IncomingMessage`
 * has buffered when it is destroyed, so a stream whose consumer was busy (a transaction, a
 * blocked event loop) lost lines it had received whole and had to ask for them again.
 */
export function holdReceived(source: Readable, readAheadBytes = READ_AHEAD_BYTES): Readable {
  let failure: Error | undefined;
  const held = new Readable({
    highWaterMark: readAheadBytes,
    read() {
      if (failure) fail();
      else source.resume();
    },
    destroy(err, callback) {
      source.destroy();
      callback(err);
    },
  });
  // The error destroys `held` and its buffer with it: only once the consumer has read that
  // buffer. Until then an empty push lets the next read come back here.
  const fail = () => {
    if (held.destroyed) return;
    if (held.readableLength === 0) held.destroy(failure);
    else held.push(Buffer.alloc(0));
  };
  source.on('data', (chunk: Buffer) => {
    if (!held.push(chunk)) source.pause();
  });
  source.once('end', () => held.push(null));
  // `on`, not `once`: an error emitted twice must not be an unhandled one.
  source.on('error', (err: Error) => {
    failure ??= err;
    fail();
  });
  return held;
}
