import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { Provenance } from './company-row';
import type { ChunkSplit } from './dataset-format';
import { DatasetFileError, Rejection } from './dataset-row';

/** What a parse worker is started with (the same for every piece of one import). */
export interface WorkerSetup {
  country: string;
  formatId: string;
  split: ChunkSplit;
  urls: Record<string, string>;
  officialUrl: string;
  provenance: Provenance;
}

export interface ChunkJob {
  seq: number;
  chunk: Uint8Array;
  /** The CSV header line, for every piece but the first. */
  head: Uint8Array | null;
  first: boolean;
  last: boolean;
}

/** One piece of the file read: its rows as COPY text, in file order with the other pieces'. */
export interface ChunkResult {
  seq: number;
  /** Cut in the middle of a record: read again together with the next piece. */
  incomplete: boolean;
  copy: Uint8Array;
  rows: number;
  /** Items the reader gave (rows, rejections, skips): JSON rejections count elements from here. */
  records: number;
  /** Line feeds in the piece (CSV): rejections count lines from here. */
  lines: number;
  /** Positions relative to the piece until `parallelChunks` hands them over. */
  rejections: Rejection[];
  skipped: string[];
  words: Map<string, number> | null;
}

/** Bytes of file per piece: large enough that a piece's fixed costs vanish, small enough to keep memory flat. */
const PIECE_BYTES = 4 * 1024 * 1024;
/** Pieces read or waiting per worker: the reading runs that far ahead of the database. */
const AHEAD_PER_WORKER = 2;
/**
 * With no place to cut in this much of the file (a JSON array written on one line), it is not
 * of the layout the split assumes: the caller reads it with the format's reader alone.
 */
const NO_CUT_LIMIT = 16 * 1024 * 1024;
/** A record longer than this (pieces read again together) is a broken file. */
const MAX_RECORD_BYTES = 64 * 1024 * 1024;

/**
 * Thrown before any piece was handed over: the file cannot be cut, read it in one thread. The
 * bytes read so far are in `consumed`; the stream is left open at the point after them.
 */
export class NotSplittable extends Error {
  constructor(readonly consumed: Buffer[]) {
    super('no record boundary to cut at');
  }
}

/**
 * The worker's file: the compiled one beside this file, or the build's copy when this file is
 * the TypeScript source (tests under ts-jest; `npm test` builds first).
 */
function workerFile(): string {
  return __filename.endsWith('.ts') ? join(__dirname, '../../../dist/dataset/import/parse-worker.js') : join(__dirname, 'parse-worker.js');
}

/** How many threads read: one per core, at most four (Postgres needs cores too). */
export function parseThreads(): number {
  return Math.max(1, Math.min(4, availableParallelism()));
}

interface Pending {
  job: ChunkJob;
  result: Promise<ChunkResult>;
}

/**
 * Reads one part of a bulk file (already decompressed) on several threads: the bytes are cut
 * into pieces at record boundaries (`split`), each piece is read by a worker with the
 * format's reader (parse-worker.ts), and the results come back in file order, so the last
 * occurrence of a number still wins. A cut that fell inside a record (a CSV field with a line
 * break, a JSON element over several lines) shows in the piece's result: that piece is read
 * again together with the next one. Memory stays flat: at most AHEAD_PER_WORKER pieces per
 * worker are in flight.
 */
export async function* parallelChunks(stream: Readable, setup: WorkerSetup, threads = parseThreads()): AsyncGenerator<ChunkResult> {
  const workers = Array.from({ length: threads }, () => new Worker(workerFile(), { workerData: setup }));
  const waiting = new Map<number, { resolve: (r: ChunkResult) => void; reject: (e: Error) => void }>();
  let failure: Error | undefined;
  for (const worker of workers) {
    worker.on('message', (msg: ChunkResult | { seq: number; error: { message: string; fileError: boolean } }) => {
      const w = waiting.get(msg.seq)!;
      waiting.delete(msg.seq);
      if ('error' in msg) w.reject(msg.error.fileError ? new DatasetFileError(msg.error.message) : new Error(msg.error.message));
      else w.resolve(msg);
    });
    worker.on('error', (err) => {
      failure = err;
      for (const w of waiting.values()) w.reject(err);
      waiting.clear();
    });
  }
  let nextSeq = 0;
  let turn = 0;
  const submit = (job: ChunkJob): Pending => {
    if (failure) throw failure;
    const result = new Promise<ChunkResult>((resolve, reject) => waiting.set(job.seq, { resolve, reject }));
    result.catch(() => undefined); // awaited in order below
    workers[turn++ % workers.length].postMessage(job);
    return { job, result };
  };

  const inFlight: Pending[] = [];
  let head: Uint8Array | null = null;
  let jsonCut: Buffer | null = null;
  let handedOver = false;
  let linesBefore = 0;
  let recordsBefore = 0;

  /** The oldest piece's result, with positions counted from the start of the file. */
  const next = async (): Promise<ChunkResult> => {
    for (;;) {
      const { job, result } = inFlight.shift()!;
      const r = await result;
      if (r.incomplete && inFlight.length > 0) {
        // Read again with the next piece (whose own result, cut from a record's middle, is dropped).
        const after = inFlight.shift()!.job;
        if (job.chunk.byteLength + after.chunk.byteLength > MAX_RECORD_BYTES) {
          throw new DatasetFileError(`a record runs past ${MAX_RECORD_BYTES} bytes: an unclosed quote or bracket?`);
        }
        const merged = concat([job.chunk, after.chunk]);
        inFlight.unshift(submit({ seq: nextSeq++, chunk: merged, head: job.head, first: job.first, last: after.last }));
        continue;
      }
      const offset = setup.split === 'csv-lines' ? (job.first ? 0 : linesBefore - 1) : recordsBefore;
      for (const rejection of r.rejections) rejection.at += offset;
      linesBefore += r.lines;
      recordsBefore += r.records;
      handedOver = true;
      return r;
    }
  };

  /** Where to cut the bytes read so far: after the last complete record that can be seen. */
  const cutOf = (bytes: Buffer): number => {
    if (setup.split === 'csv-lines') {
      if (head === null) {
        const eol = bytes.indexOf(0x0a);
        if (eol < 0) return -1;
        head = copyOf(bytes.subarray(0, eol + 1));
      }
      const at = bytes.lastIndexOf(0x0a);
      return at < 0 ? -1 : at + 1;
    }
    if (jsonCut === null) {
      // The elements begin lines with this indentation ("\n{" for one per line, "\n  {" pretty-printed).
      const open = bytes.indexOf(0x7b);
      if (open < 0) return -1;
      const eol = bytes.lastIndexOf(0x0a, open);
      const indent = eol < 0 ? '' : bytes.subarray(eol + 1, open).toString('latin1');
      if (!/^[ \t]*$/.test(indent)) return -1;
      jsonCut = Buffer.from(`\n${indent}{`, 'latin1');
    }
    const at = bytes.lastIndexOf(jsonCut);
    return at <= 0 ? -1 : at;
  };

  let keepStream = false;
  try {
    let parts: Buffer[] = [];
    let size = 0;
    let first = true;
    for await (const data of stream.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      parts.push(data);
      size += data.length;
      if (size < PIECE_BYTES) continue;
      const bytes = concat(parts);
      const cut = cutOf(bytes);
      if (cut < 0) {
        if (!handedOver && inFlight.length === 0 && size > NO_CUT_LIMIT) {
          keepStream = true;
          throw new NotSplittable([bytes]);
        }
        if (size > MAX_RECORD_BYTES) throw new DatasetFileError(`a record runs past ${MAX_RECORD_BYTES} bytes`);
        parts = [bytes];
        continue;
      }
      inFlight.push(submit({ seq: nextSeq++, chunk: copyOf(bytes.subarray(0, cut)), head: first ? null : head, first, last: false }));
      first = false;
      const rest = bytes.subarray(cut);
      parts = rest.length ? [copyOf(rest)] : [];
      size = rest.length;
      while (inFlight.length >= workers.length * AHEAD_PER_WORKER) yield await next();
    }
    // (A CSV file that ends right at a cut has nothing left: its last piece sent was complete.)
    if (size > 0 || first) inFlight.push(submit({ seq: nextSeq++, chunk: concat(parts), head: first ? null : head, first, last: true }));
    while (inFlight.length > 0) yield await next();
  } finally {
    if (!keepStream) stream.destroy();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** The bytes in a buffer of their own (a worker is sent the whole buffer behind a view). */
function copyOf(bytes: Uint8Array): Buffer {
  const own = Buffer.allocUnsafeSlow(bytes.byteLength);
  own.set(bytes);
  return own;
}

function concat(parts: Uint8Array[]): Buffer {
  if (parts.length === 1) return Buffer.from(parts[0].buffer, parts[0].byteOffset, parts[0].byteLength);
  const all = Buffer.allocUnsafeSlow(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return all;
}
