import { Readable } from 'node:stream';
import { parentPort, workerData } from 'node:worker_threads';
import type { CountryCode } from '../../registers/register-table';
import { WordTally } from '../word-tally';
import { copyTextLine } from './company-writer';
import { Provenance, toCompanyRow } from './company-row';
import { formatsOf } from './dataset-formats';
import { DatasetFileError, Rejection } from './dataset-row';
import type { ChunkJob, ChunkResult, WorkerSetup } from './parallel-chunks';

/**
 * A thread that reads pieces of one bulk file with the format's own reader and turns their rows
 * into COPY text (in WRITE_COLUMNS order), with the words of their names counted: the work per
 * row that kept one core busy while Postgres waited. Answers each job with one message.
 */
const setup = workerData as WorkerSetup;
const format = formatsOf(setup.country as CountryCode).find((f) => f.id === setup.formatId)!;
const provenance: Provenance = setup.provenance;
const ctx = { urls: setup.urls, officialUrl: setup.officialUrl };

const COMMA = 0x2c;
const LF = 0x0a;

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** What the reader reads for one job: the piece, completed into a file of the format on its own. */
function inputOf(job: ChunkJob): Buffer[] {
  const chunk = Buffer.from(job.chunk.buffer, job.chunk.byteOffset, job.chunk.byteLength);
  if (setup.split === 'csv-lines') return job.head ? [Buffer.from(job.head), chunk] : [chunk];
  // A JSON array: the piece's elements between brackets, without the comma that followed the last.
  let end = chunk.length;
  if (!job.last) {
    while (end > 0 && isSpace(chunk[end - 1])) end -= 1;
    if (end > 0 && chunk[end - 1] === COMMA) end -= 1;
  }
  const parts = [chunk.subarray(0, end)];
  if (!job.first) parts.unshift(Buffer.from('['));
  if (!job.last) parts.push(Buffer.from(']'));
  return parts;
}

function countLines(chunk: Uint8Array): number {
  let n = 0;
  for (let at = chunk.indexOf(LF); at >= 0; at = chunk.indexOf(LF, at + 1)) n += 1;
  return n;
}

async function read(job: ChunkJob): Promise<ChunkResult> {
  let out = Buffer.allocUnsafeSlow(Math.max(64 * 1024, Math.ceil(job.chunk.byteLength * 1.25)));
  let used = 0;
  const tally = new WordTally();
  const rejections: Rejection[] = [];
  const skipped: string[] = [];
  let rows = 0;
  let records = 0;
  let incomplete = false;
  try {
    for await (const item of format.read(Readable.from(inputOf(job)), ctx)) {
      records += 1;
      if (item.kind === 'row') {
        if (item.row.country !== setup.country) throw new Error(`reader produced a ${item.row.country} row during a ${setup.country} import`);
        const row = toCompanyRow(item.row, provenance);
        tally.add(row.nameNormalized);
        const line = copyTextLine(row);
        if (used + line.length * 3 > out.length) {
          const bigger = Buffer.allocUnsafeSlow(Math.max(out.length * 2, used + line.length * 3));
          out.copy(bigger, 0, 0, used);
          out = bigger;
        }
        used += out.write(line, used);
        rows += 1;
      } else if (item.kind === 'rejected') rejections.push(item.rejection);
      else skipped.push(item.reason);
    }
  } catch (err) {
    // A piece cut inside a JSON element does not close: it is read again with the next piece.
    if (!(err instanceof DatasetFileError) || job.last) throw err;
    incomplete = true;
  }
  // A piece cut inside a quoted CSV field ends with a quote left open.
  const lastRejection = rejections[rejections.length - 1];
  if (setup.split === 'csv-lines' && !job.last && lastRejection?.detail === 'unclosed quote at the end of the file') incomplete = true;
  const counts = tally.result();
  return {
    seq: job.seq,
    incomplete,
    copy: out.subarray(0, used),
    rows,
    records,
    lines: setup.split === 'csv-lines' ? countLines(job.chunk) : 0,
    rejections,
    skipped,
    words: counts?.words ?? null,
  };
}

parentPort!.on('message', (job: ChunkJob) => {
  read(job).then(
    (result) => parentPort!.postMessage(result, [result.copy.buffer as ArrayBuffer]),
    (err: Error) => parentPort!.postMessage({ seq: job.seq, error: { message: err.message, fileError: err instanceof DatasetFileError } }),
  );
});
