import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DataSource } from 'typeorm';
import { isPGlite } from '../../platform/database/engine';
import type { AppConfig } from '../../platform/config/app-config';
import type { RegistersConfig } from '../../registers/register-config';
import { COUNTRY_CODES, CountryCode, findRegister, REGISTERS } from '../../registers/registers';
import { refreshWordCounts } from '../word-counts';
import { DatasetImportStore, HEARTBEAT_MS } from './dataset-import-store';
import { CompanyWriter } from './company-writer';
import { completeRow, Provenance } from './complete-row';
import { DatasetFormat, formatsOf } from './dataset-formats';
import { DatasetFileError, ReaderContext, Rejection } from '../../registers/bulk/dataset-row';
import { ImportProgress, SILENT_PROGRESS } from './import-progress';
import { openInput } from '../../registers/bulk/open-input';
import { PGliteCopyWriter } from './pglite-copy-writer';
import { PostgresCopyWriter } from './postgres-copy-writer';
import { isEmptyDataset, PostgresBulkWriter } from './postgres-bulk-writer';
import { companyPartition } from './search-indexes';

export interface ImportOptions {
  dataSource: DataSource;
  config: AppConfig;
  /** The registers' settings: their URLs make the rows' record links. */
  registers: RegistersConfig;
  country: string;
  file: string;
  /** Format id; needed only where the country publishes several (AU). */
  format?: string;
  datasetName?: string;
  /** When the register produced the file; otherwise read from the file, its name, or its mtime. */
  producedAt?: Date;
  /** Rows per upsert statement (default 50,000 with COPY, 1,000 with INSERT). */
  batchSize?: number;
  progress?: ImportProgress;
  /** Examples kept per rejection reason for the summary. */
  examplesPerReason?: number;
}

export type ProducedAtSource = 'option' | 'file content' | 'file name' | 'file modification time';

export interface ReasonCount {
  reason: string;
  count: number;
  examples: Rejection[];
}

export interface ImportSummary {
  country: CountryCode;
  format: string;
  file: string;
  datasetName: string;
  producedAt: Date;
  producedAtSource: ProducedAtSource;
  /** postgres-copy-bulk: COPY straight into an empty dataset; postgres-copy: COPY to staging, then upsert; pglite-copy: the same through PGlite's /dev/blob. */
  writer: 'postgres-copy-bulk' | 'postgres-copy' | 'pglite-copy';
  /** Records read from the file: rows + rejected + skipped. */
  recordsRead: number;
  /** Rows handed to the database (a key repeated in the file counts each time). */
  rows: number;
  inserted: number;
  updated: number;
  unchanged: number;
  /** Rows whose number came again later in the same batch: only the last occurrence is written. */
  superseded: number;
  rejected: { total: number; reasons: ReasonCount[] };
  skipped: { total: number; reasons: Array<{ reason: string; count: number }> };
  /** Rows of this dataset for this country in the table after the import. */
  datasetRows: number;
  seconds: number;
  rowsPerSecond: number;
}

/** A usage problem (unknown country or format, bad option): one readable line, no stack. */
export class ImportUsageError extends Error {}

const DATASET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function resolveCountry(country: string): CountryCode {
  const cc = country.trim().toUpperCase();
  if (!(COUNTRY_CODES as readonly string[]).includes(cc)) {
    throw new ImportUsageError(`unknown country "${country}": the dataset covers ${COUNTRY_CODES.join(', ')}`);
  }
  return cc as CountryCode;
}

/** The country's bulk formats; a register that publishes no bulk file (ARES, KRS) has nothing to import, and says why. */
function publishedFormats(country: CountryCode): readonly DatasetFormat[] {
  const formats = formatsOf(country);
  if (formats.length === 0)
    throw new ImportUsageError(
      `${country} cannot be imported: ${REGISTERS[country].noBulkFile ?? 'it publishes no bulk file'}`,
    );
  return formats;
}

export function resolveFormat(country: CountryCode, format?: string): DatasetFormat {
  const formats = publishedFormats(country);
  const ids = formats.map((f) => f.id).join(', ');
  if (!format) {
    if (formats.length === 1) return formats[0];
    throw new ImportUsageError(
      `${country} publishes several bulk formats: give --format ${formats.map((f) => f.id).join('|')}`,
    );
  }
  const found = formats.find((f) => f.id === format.trim().toLowerCase());
  if (!found) throw new ImportUsageError(`unknown format "${format}" for ${country}: use ${ids}`);
  return found;
}

/**
 * The format of a file: the one given, the country's only one, or the one whose `recognize`
 * accepts the file's first characters (the AU ABN extract's <Transfer>/<ABR> XML against the
 * ASIC company CSV), so that --format is needed only when the content cannot tell.
 */
export async function recognizeFormat(country: CountryCode, file: string, format?: string): Promise<DatasetFormat> {
  const formats = publishedFormats(country);
  if (format || formats.length === 1) return resolveFormat(country, format);
  const matching: DatasetFormat[] = [];
  for (const candidate of formats) {
    if (!candidate.recognize) continue;
    const input = await openInput(file, { entryPattern: candidate.zipEntry });
    const parts = input.parts();
    try {
      // A zip without an entry of this format's kind is not of this format.
      const first = await parts.next().catch((err: Error) => {
        if (err instanceof DatasetFileError && input.compression === 'zip')
          return { done: true as const, value: undefined };
        throw err;
      });
      if (first.done) continue;
      let head = '';
      for await (const chunk of first.value.stream) {
        head += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
        if (head.length >= 4096) break;
      }
      if (candidate.recognize(head)) matching.push(candidate);
    } finally {
      await parts.return(undefined);
    }
  }
  if (matching.length === 1) return matching[0];
  throw new ImportUsageError(
    `${country} publishes several bulk formats and the beginning of the file is ${matching.length ? 'several' : 'none'} of them: give --format ${formats.map((f) => f.id).join('|')}`,
  );
}

/** A date written in the file name (…-2024-05-01.zip, 20250528_Public01.xml), at 00:00 UTC. */
export function dateFromFileName(file: string): Date | null {
  const name = basename(file);
  const m = /(?:^|[^\d])((?:19|20)\d\d)-?(0[1-9]|1[0-2])-?(0[1-9]|[12]\d|3[01])(?:[^\d]|$)/.exec(name);
  if (!m) return null;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCDate() === +m[3] ? d : null;
}

/**
 * The statistics the planner gets right after an import: of the columns the dataset's queries
 * filter, join and sort on, from a sample of 9,000 rows (statistics target 30). Autovacuum
 * analyses every column with the full sample soon after: an ANALYZE of some columns leaves the
 * table's count of changed rows as it was. Sampling all columns at the default target cost a
 * 500 k-row GB import 0.6 s, this 0.07 s.
 */
async function analyzeImported(ds: DataSource, country: CountryCode): Promise<void> {
  await ds.transaction(async (m) => {
    await m.query(`SET LOCAL statement_timeout = 0`);
    await m.query(`SET LOCAL default_statistics_target = 30`);
    await m.query(
      `ANALYZE ${companyPartition(country)} (id, country, registration_number, other_numbers, name_normalized, name_rank, dataset_name, produced_at)`,
    );
  });
}

class Tally {
  readonly reasons = new Map<string, ReasonCount>();
  total = 0;
  constructor(private readonly examples: number) {}
  add(reason: string, example?: Rejection): void {
    this.total += 1;
    let r = this.reasons.get(reason);
    if (!r) this.reasons.set(reason, (r = { reason, count: 0, examples: [] }));
    r.count += 1;
    if (example && r.examples.length < this.examples) r.examples.push(example);
  }
  sorted(): ReasonCount[] {
    return [...this.reasons.values()].sort((a, b) => b.count - a.count);
  }
}

/**
 * Imports one bulk file into the company table: open (plain / gzip / zip), read with the
 * format's reader, write through COPY (Postgres) or batched INSERT (PGlite), one record in
 * flight at a time so memory stays flat whatever the file size. Idempotent: a re-import
 * updates changed rows and leaves the others alone. Each run is logged in `dataset_import`.
 */
export async function importDataset(options: ImportOptions): Promise<ImportSummary> {
  const country = resolveCountry(options.country);
  const format = await recognizeFormat(country, options.file, options.format);
  const datasetName = options.datasetName ?? format.defaultDatasetName;
  if (!DATASET_NAME.test(datasetName)) {
    throw new ImportUsageError(
      `invalid dataset name "${datasetName}": letters, digits, dot, dash and underscore, at most 64`,
    );
  }
  const register = findRegister(country)!;
  const input = await openInput(options.file, { entryPattern: format.zipEntry });

  let producedAt: Date;
  let producedAtSource: ProducedAtSource;
  if (options.producedAt) {
    producedAt = options.producedAt;
    producedAtSource = 'option';
  } else {
    const fromName = dateFromFileName(options.file);
    if (fromName) {
      producedAt = fromName;
      producedAtSource = 'file name';
    } else {
      producedAt = (await stat(options.file)).mtime;
      producedAtSource = 'file modification time';
    }
  }
  let firstRowWritten = false;
  const provenance: Provenance = {
    sourceKind: `dataset:${datasetName}`,
    datasetName,
    producedAt: producedAt.toISOString(),
  };

  const ctx: ReaderContext = {
    urls: options.registers.of(country).urls,
    officialUrl: register.officialUrl,
    onProducedAt: (date) => {
      // The file's own statement beats its name or mtime, but never an explicit option, and
      // only before the first row was written with the earlier value.
      if (producedAtSource === 'option' || firstRowWritten || Number.isNaN(date.getTime())) return;
      producedAt = date;
      producedAtSource = 'file content';
      provenance.producedAt = date.toISOString();
    },
  };

  const pglite = isPGlite(options.dataSource);
  const bulk = !pglite && (await isEmptyDataset(options.dataSource, country));
  const writer: CompanyWriter = pglite
    ? new PGliteCopyWriter(options.dataSource, country, options.batchSize)
    : bulk
      ? new PostgresBulkWriter(options.dataSource, country)
      : new PostgresCopyWriter(options.dataSource, country, options.batchSize);
  const progress = options.progress ?? SILENT_PROGRESS;
  const rejected = new Tally(options.examplesPerReason ?? 5);
  const skipped = new Tally(0);
  let rows = 0;
  const startedAt = Date.now();
  const log = new DatasetImportStore(options.dataSource);
  await log.markInterrupted();
  const importId = await log.start({
    country,
    datasetName,
    format: format.id,
    fileName: basename(options.file),
    producedAt,
  });
  // Says the import is alive (and how far it got) while it runs: what a killed one leaves behind.
  const heartbeat = setInterval(() => {
    log.heartbeat(importId, rows + rejected.total, rejected.total).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref();
  const snapshot = () => ({
    rows,
    rejected: rejected.total,
    bytesRead: input.bytesRead(),
    totalBytes: input.totalBytes,
  });

  progress.start(input.totalBytes);
  try {
    let parts = 0;
    for await (const part of input.parts()) {
      parts += 1;
      let seen = 0;
      for await (const got of format.read(part.stream, ctx)) {
        for (const item of Array.isArray(got) ? got : [got]) {
          if (item.kind === 'row') {
            if (item.row.country !== country)
              throw new Error(`reader produced a ${item.row.country} row during a ${country} import`);
            firstRowWritten = true;
            const wait = writer.write(completeRow(item.row, provenance));
            if (wait) await wait;
            rows += 1;
          } else if (item.kind === 'rejected') {
            rejected.add(
              item.rejection.reason,
              input.compression === 'zip' ? { ...item.rejection, entry: part.name } : item.rejection,
            );
          } else {
            skipped.add(item.reason);
          }
          if ((++seen & 1023) === 0) progress.update(snapshot());
        }
      }
    }
    if (parts === 0) throw new DatasetFileError('nothing to read in the file');
    if (rows + rejected.total + skipped.total === 0) {
      throw new DatasetFileError(`no ${format.id} record in the file: expected ${format.expects}`);
    }
    const counts = await writer.finish();
    // Side by side: the word dictionary is another table than the one analysed.
    const [, , datasetRows] = await Promise.all([
      writer.refreshesWordCounts ? undefined : refreshWordCounts(options.dataSource, country),
      analyzeImported(options.dataSource, country),
      writer.datasetRows?.() ?? countDatasetRows(options.dataSource, country, datasetName),
    ]);
    progress.stop(snapshot());
    const seconds = (Date.now() - startedAt) / 1000;
    const summary: ImportSummary = {
      country,
      format: format.id,
      file: options.file,
      datasetName,
      producedAt,
      producedAtSource,
      writer: pglite ? 'pglite-copy' : bulk ? 'postgres-copy-bulk' : 'postgres-copy',
      recordsRead: rows + rejected.total + skipped.total,
      rows,
      ...counts,
      superseded: rows - counts.inserted - counts.updated - counts.unchanged,
      rejected: { total: rejected.total, reasons: rejected.sorted() },
      skipped: { total: skipped.total, reasons: skipped.sorted().map(({ reason, count }) => ({ reason, count })) },
      datasetRows,
      seconds,
      rowsPerSecond: rows / Math.max(seconds, 0.001),
    };
    await log.finish(importId, {
      producedAt: summary.producedAt,
      rowsRead: summary.recordsRead,
      inserted: summary.inserted,
      updated: summary.updated,
      unchanged: summary.unchanged,
      rejected: summary.rejected.total,
      skipped: summary.skipped.total,
      datasetRows: summary.datasetRows,
      rejections: Object.fromEntries(summary.rejected.reasons.map((r) => [r.reason, r.count])),
    });
    return summary;
  } catch (err) {
    clearInterval(heartbeat);
    progress.stop(snapshot(), true);
    await writer.abort().catch(() => undefined);
    await log.fail(importId, rows + rejected.total, rejected.total, err as Error).catch(() => undefined);
    throw err;
  } finally {
    clearInterval(heartbeat);
  }
}

async function countDatasetRows(ds: DataSource, country: CountryCode, datasetName: string): Promise<number> {
  const rows = (await untimed(
    ds,
    `SELECT count(*)::bigint AS n FROM company WHERE country = $1 AND dataset_name = $2`,
    [country, datasetName],
  )) as Array<{
    n: number | string;
  }>;
  return Number(rows[0].n);
}

/** A statement over a whole country's rows, which may outlast the pool's statement timeout. */
async function untimed(ds: DataSource, sql: string, params: unknown[] = []): Promise<unknown[]> {
  return ds.transaction(async (m) => {
    await m.query(`SET LOCAL statement_timeout = 0`);
    return (await m.query(sql, params)) as unknown[];
  });
}
