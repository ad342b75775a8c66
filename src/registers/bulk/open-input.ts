import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { PassThrough, Readable, Transform, TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import * as yauzl from 'yauzl';
import { DatasetFileError } from './dataset-row';

export type InputCompression = 'plain' | 'gzip' | 'zip';

/** One stream of records: the file itself, its gunzipped content, or one zip entry. */
export interface InputPart {
  /** The zip entry's name, or the file's path. */
  name: string;
  stream: Readable;
}

export interface OpenedInput {
  compression: InputCompression;
  /** Size of the file on disk. */
  totalBytes: number;
  /** How far into the file on disk reading has got (estimated inside zip entries). */
  bytesRead(): number;
  /** The parts to read in order; the next part opens only after the previous one was consumed. */
  parts(): AsyncGenerator<InputPart>;
}

const UNSUPPORTED: Array<[number[], string]> = [
  [[0x28, 0xb5, 0x2f, 0xfd], 'zstd'],
  [[0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], 'xz'],
  [[0x42, 0x5a, 0x68], 'bzip2'],
  [[0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], '7z'],
];

function startsWith(head: Buffer, magic: number[]): boolean {
  return head.length >= magic.length && magic.every((b, i) => head[i] === b);
}

/** Decides from the first bytes, whatever the file's name says. */
export function detectCompression(head: Buffer): InputCompression {
  if (startsWith(head, [0x1f, 0x8b])) return 'gzip';
  if (
    startsWith(head, [0x50, 0x4b, 0x03, 0x04]) ||
    startsWith(head, [0x50, 0x4b, 0x05, 0x06]) ||
    startsWith(head, [0x50, 0x4b, 0x07, 0x08])
  ) {
    return 'zip';
  }
  for (const [magic, name] of UNSUPPORTED) {
    if (startsWith(head, magic))
      throw new DatasetFileError(`the file is ${name}-compressed; decompress it first or use .gz / .zip`);
  }
  return 'plain';
}

/** Counts bytes flowing through, for progress inside zip entries. */
class ByteCounter extends Transform {
  bytes = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    cb(null, chunk);
  }
}

/**
 * Opens a bulk file for streaming: plain, gzip (zlib) or zip (yauzl; each entry whose name
 * matches `entryPattern`, in the archive's order). Nothing is read ahead of the consumer.
 */
export async function openInput(path: string, options: { entryPattern?: RegExp } = {}): Promise<OpenedInput> {
  let size: number;
  try {
    const s = await stat(path);
    if (!s.isFile()) throw new DatasetFileError(`${path} is not a file`);
    size = s.size;
  } catch (err) {
    if (err instanceof DatasetFileError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new DatasetFileError(
      code === 'ENOENT' ? `file not found: ${path}` : `cannot read ${path}: ${(err as Error).message}`,
    );
  }
  const head = Buffer.alloc(8);
  const fh = await open(path, 'r').catch((err: Error) => {
    throw new DatasetFileError(`cannot read ${path}: ${err.message}`);
  });
  try {
    await fh.read(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
  const compression = size === 0 ? 'plain' : detectCompression(head);
  if (compression === 'zip') return openZip(path, size, options.entryPattern ?? /./);

  let raw: ReturnType<typeof createReadStream> | undefined;
  return {
    compression,
    totalBytes: size,
    bytesRead: () => raw?.bytesRead ?? 0,
    async *parts() {
      raw = createReadStream(path, { highWaterMark: 256 * 1024 });
      if (compression === 'plain') {
        yield { name: path, stream: raw };
        return;
      }
      const gunzip = createGunzip({ chunkSize: 256 * 1024 });
      raw.on('error', (err) => gunzip.destroy(err));
      gunzip.on('error', (err: NodeJS.ErrnoException) => {
        // zlib says "unexpected end of file"; say which file and what it means.
        if (err.code?.startsWith('Z_')) err.message = `${path}: the gzip data is corrupt or truncated (${err.message})`;
        raw?.destroy();
      });
      raw.pipe(gunzip);
      try {
        yield { name: path, stream: gunzip };
      } finally {
        raw.destroy();
      }
    },
  };
}

function openZip(path: string, size: number, entryPattern: RegExp): Promise<OpenedInput> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (err, zip) => {
      if (err || !zip) {
        reject(new DatasetFileError(`cannot open zip ${path}: ${err?.message ?? 'unknown error'}`));
        return;
      }
      // Progress is the position in the zip file: where the current entry starts plus the
      // share of its compressed bytes that its uncompressed output so far stands for.
      let position = 0;
      let current: ZipProgress | undefined;
      resolve({
        compression: 'zip',
        totalBytes: size,
        bytesRead: () => {
          if (!current || current.uncompressed === 0) return position;
          const fraction = Math.min(1, current.counter.bytes / current.uncompressed);
          return Math.max(position, current.start + Math.round(fraction * current.compressed));
        },
        parts: () =>
          zipParts(zip, path, entryPattern, {
            started: (c) => (current = c),
            finished: (end) => {
              position = Math.max(position, end);
              current = undefined;
            },
            done: () => (position = size),
          }),
      });
    });
  });
}

interface ZipProgress {
  counter: ByteCounter;
  start: number;
  compressed: number;
  uncompressed: number;
}

interface ZipTracker {
  started: (c: ZipProgress) => void;
  /** The entry ended at this offset of the file. */
  finished: (end: number) => void;
  done: () => void;
}

async function* zipParts(
  zip: yauzl.ZipFile,
  path: string,
  entryPattern: RegExp,
  track: ZipTracker,
): AsyncGenerator<InputPart> {
  const seen: string[] = [];
  let matched = 0;
  try {
    for (;;) {
      const entry = await nextEntry(zip);
      if (!entry) break;
      seen.push(entry.fileName);
      // Local header (30 bytes + name + extra field) then the data; the extra length is not known here.
      const dataStart = entry.relativeOffsetOfLocalHeader + 30 + entry.fileNameLength;
      const end = dataStart + entry.compressedSize;
      if (entry.fileName.endsWith('/') || !entryPattern.test(entry.fileName)) {
        track.finished(end);
        continue;
      }
      matched += 1;
      const raw = await openEntry(zip, entry);
      const counter = new ByteCounter({ highWaterMark: 256 * 1024 });
      raw.on('error', (e) => counter.destroy(e));
      raw.pipe(counter);
      track.started({
        counter,
        start: dataStart,
        compressed: entry.compressedSize,
        uncompressed: entry.uncompressedSize,
      });
      try {
        yield { name: entry.fileName, stream: counter };
      } finally {
        raw.destroy();
      }
      track.finished(end);
    }
    track.done();
  } finally {
    zip.close();
  }
  if (matched === 0) {
    const list = seen.slice(0, 10).join(', ') + (seen.length > 10 ? ', …' : '');
    throw new DatasetFileError(`${path}: the zip holds no entry matching ${entryPattern} (entries: ${list || 'none'})`);
  }
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: yauzl.Entry) => {
      cleanup();
      resolve(entry);
    };
    const onEnd = () => {
      cleanup();
      resolve(undefined);
    };
    const onError = (err: Error) => {
      cleanup();
      reject(new DatasetFileError(`corrupt zip: ${err.message}`));
    };
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Readable> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (err, stream) => {
      if (err || !stream)
        reject(new DatasetFileError(`cannot read zip entry ${entry.fileName}: ${err?.message ?? 'unknown error'}`));
      else resolve(stream);
    });
  });
}

/**
 * Reads the first line of a stream without losing it: returns the line and a stream that
 * yields everything again from the first byte (used to sniff a CSV delimiter).
 */
export async function peekFirstLine(
  input: Readable,
  maxBytes = 1024 * 1024,
): Promise<{ firstLine: string; stream: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  const iterator = input[Symbol.asyncIterator]();
  let firstLine: string | undefined;
  while (firstLine === undefined) {
    const { value, done } = await iterator.next();
    if (done) break;
    const chunk = Buffer.isBuffer(value) ? value : Buffer.from(value as string);
    chunks.push(chunk);
    length += chunk.length;
    const nl = chunk.indexOf(0x0a);
    if (nl >= 0) firstLine = Buffer.concat(chunks).toString('utf8').split(/\r?\n/, 1)[0];
    else if (length > maxBytes) break;
  }
  firstLine ??= Buffer.concat(chunks).toString('utf8');
  const head = Buffer.concat(chunks);
  const out = new PassThrough({ highWaterMark: 256 * 1024 });
  const rest = Readable.from(
    (async function* () {
      yield head;
      for (;;) {
        const { value, done } = await iterator.next();
        if (done) return;
        yield value as Buffer;
      }
    })(),
    { objectMode: false },
  );
  rest.on('error', (e) => out.destroy(e));
  rest.pipe(out);
  return { firstLine: firstLine.replace(/^\uFEFF/, ''), stream: out };
}
