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
  const queue: Buffer[] = [];
  let queued = 0;
  let failure: Error | undefined;
  let ended = false;
  let wanted = false;
  const held = new Readable({
    read() {
      wanted = true;
      feed();
    },
    destroy(err, callback) {
      source.destroy();
      callback(err);
    },
  });
  const feed = () => {
    while (wanted && queue.length > 0) {
      const chunk = queue.shift()!;
      queued -= chunk.length;
      wanted = held.push(chunk);
    }
    if (queued < readAheadBytes && source.isPaused() && !ended && !failure) source.resume();
    if (!wanted || queue.length > 0 || held.readableEnded || held.destroyed) return;
    if (ended) held.push(null);
    else if (failure) {
      // The error destroys `held` and its buffer with it: only once the consumer has read that buffer.
      if (held.readableLength === 0) held.destroy(failure);
      else held.push(Buffer.alloc(0));
    }
  };
  source.on('data', (chunk: Buffer) => {
    queue.push(chunk);
    queued += chunk.length;
    if (queued >= readAheadBytes) source.pause();
    feed();
  });
  source.once('end', () => {
    ended = true;
    feed();
  });
  // `on`, not `once`: an error emitted twice must not be an unhandled one.
  source.on('error', (err: Error) => {
    failure ??= err;
    feed();
  });
  return held;
}
