import type { CountryCode } from '../../registers/registers';
import type { DatasetRow } from '../../registers/bulk/dataset-row';
import { companyPartition } from './search-indexes';

/** A dataset row with what the pipeline adds: the folded name and the import's provenance. */
export interface CompanyRow extends DatasetRow {
  nameNormalized: string;
  sourceKind: string;
  datasetName: string;
  /** ISO 8601 timestamp. */
  producedAt: string;
}

export interface WriteCounts {
  /** New (country, registration number) keys. */
  inserted: number;
  /** Existing keys whose values changed. */
  updated: number;
  /** Existing keys written again with identical values (left untouched). */
  unchanged: number;
}

/**
 * Takes rows one at a time. `write` returns a promise when the caller must wait before the
 * next row (the database is busy or its buffer is full), nothing when it can go on at once:
 * this is what keeps the reader from running ahead of the database without an async step
 * per row.
 */
export interface CompanyWriter {
  write(row: CompanyRow): Promise<void> | void;
  /** Flushes what is buffered and returns the totals. */
  finish(): Promise<WriteCounts>;
  /** Gives up: drops what is buffered, releases the connection. */
  abort(): Promise<void>;
  /** True when `finish` left the country's word counts (company_word, dataset_country) up to date itself. */
  readonly refreshesWordCounts?: boolean;
  /** The imported dataset's rows in the table, when the writer knows them without a count (after `finish`). */
  datasetRows?(): number | null;
}

/** Columns of the company table a writer fills, in COPY / VALUES order. */
export const WRITE_COLUMNS = [
  'country',
  'registration_number',
  'other_numbers',
  'name',
  'name_normalized',
  'status',
  'status_category',
  'legal_form',
  'address',
  'city',
  'incorporation_date',
  'source_url',
  'source_kind',
  'dataset_name',
  'produced_at',
  'extra',
] as const;

/** The columns that are the import's, the same in every row of it: where it came from and when. */
export const PROVENANCE_COLUMNS = ['source_kind', 'dataset_name', 'produced_at'] as const;

/** WRITE_COLUMNS but the provenance, in COPY order: the lines of `copyTextLine(row, false)`. */
export const ROW_COLUMNS = WRITE_COLUMNS.filter((c) => !(PROVENANCE_COLUMNS as readonly string[]).includes(c));

/** The values compared to decide whether an existing row changed. */
const COMPARED = WRITE_COLUMNS.filter((c) => c !== 'country' && c !== 'registration_number');

/**
 * The upsert shared by both writers. `source` is a SELECT of the WRITE_COLUMNS of `country`
 * with no two rows on the same (country, registration_number) (ON CONFLICT may not meet a key
 * twice in one statement). A row whose values are all equal is not rewritten, so a re-import
 * of the same file touches nothing; `xmax = 0` tells inserted rows from updated ones — which
 * is why it writes into the country's partition of `company`: a partitioned table cannot
 * return a system column.
 */
export function upsertSql(source: string, country: CountryCode): string {
  const cols = WRITE_COLUMNS.join(', ');
  const set = [...COMPARED.map((c) => `${c} = EXCLUDED.${c}`), 'imported_at = now()'].join(',\n        ');
  const changed = `(${COMPARED.map((c) => `company.${c}`).join(', ')}) IS DISTINCT FROM (${COMPARED.map((c) => `EXCLUDED.${c}`).join(', ')})`;
  return `
    WITH src AS MATERIALIZED (${source}),
    upserted AS (
      INSERT INTO ${companyPartition(country)} AS company (${cols})
      SELECT ${cols} FROM src
      ON CONFLICT (registration_number) DO UPDATE SET
        ${set}
      WHERE ${changed}
      RETURNING (xmax = 0) AS inserted
    )
    SELECT (SELECT count(*) FROM src)::int AS submitted,
           count(*) FILTER (WHERE inserted)::int AS inserted,
           count(*)::int AS written
    FROM upserted`;
}

/** Adds one upsert statement's result row to running totals. */
export function addCounts(totals: WriteCounts, result: { submitted: number; inserted: number; written: number }): void {
  totals.inserted += Number(result.inserted);
  totals.updated += Number(result.written) - Number(result.inserted);
  totals.unchanged += Number(result.submitted) - Number(result.written);
}

/** Postgres array literal of text values ({"a","b"}). */
export function textArrayLiteral(values: readonly string[]): string {
  if (values.length === 0) return '{}';
  return `{${values.map((v) => `"${v.replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}

// COPY text format: backslash, tab, newline and carriage return must be escaped; \N is NULL.
const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_SPECIAL_ALL = /[\\\t\n\r]/g;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return COPY_SPECIAL.test(value) ? value.replace(COPY_SPECIAL_ALL, (c) => COPY_ESCAPES[c]) : value;
}

/**
 * The settings of a Postgres session that writes an import (both Postgres writers), sent in one
 * round trip: one import is one long job, so no statement timeout; a batch's sort fits in
 * memory; and a commit need not wait for its WAL to reach the disk — a crash loses at most the
 * last batches, and the import, then recorded as interrupted, is run again anyway.
 */
export const IMPORT_SESSION_SETTINGS = `SET statement_timeout = 0; SET work_mem = '64MB'; SET synchronous_commit = off`;

/** The provenance columns of the rows last written, as COPY text: the same for every row of one import. */
let provenance = { sourceKind: '', datasetName: '', producedAt: '', text: '' };

function provenanceText(r: CompanyRow): string {
  const p = provenance;
  if (r.sourceKind !== p.sourceKind || r.datasetName !== p.datasetName || r.producedAt !== p.producedAt) {
    const text = `${copyField(r.sourceKind)}\t${copyField(r.datasetName)}\t${copyField(r.producedAt)}`;
    provenance = { sourceKind: r.sourceKind, datasetName: r.datasetName, producedAt: r.producedAt, text };
  }
  return provenance.text;
}

/** A value the reader vouched for (`copyPlain`): nothing to escape, only NULL to write. */
function plain(value: string | null): string {
  return value === null ? '\\N' : value;
}

/**
 * One row in COPY text format, in WRITE_COLUMNS order (ROW_COLUMNS without its provenance,
 * which a writer may give the table as defaults instead): what every writer's COPY sends. The
 * country code, the folded name (letters, digits and single spaces) and the status category
 * cannot hold a character COPY escapes, and the provenance is escaped once per import: seven
 * of the sixteen checks per row gone. A row whose reader vouched for its values (`copyPlain`)
 * skips the checks of its text values too; its other numbers and `extra` (JSON, which escapes
 * a quote with a backslash) are always checked.
 */
export function copyTextLine(r: CompanyRow, provenance = true): string {
  const f = r.copyPlain === true ? plain : copyField;
  const otherNumbers = r.otherNumbers.length === 0 ? '{}' : copyField(textArrayLiteral(r.otherNumbers));
  return (
    `${r.country}\t${f(r.registrationNumber)}\t${otherNumbers}\t${f(r.name)}\t${r.nameNormalized}\t` +
    `${f(r.status)}\t${r.statusCategory}\t${f(r.legalForm)}\t${f(r.address)}\t${f(r.city)}\t${f(r.incorporationDate)}\t` +
    `${f(r.sourceUrl)}\t${provenance ? `${provenanceText(r)}\t` : ''}${copyField(r.extra ? JSON.stringify(r.extra) : null)}\n`
  );
}
