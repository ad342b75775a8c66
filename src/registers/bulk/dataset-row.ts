import type { Readable } from 'node:stream';
import type { CompanyRecord, StatusCategory } from '../connector';
import type { CountryCode } from '../registers';

/**
 * One company as a bulk-file reader hands it over. The pipeline adds what is the same for
 * every row of one import (normalised name, dataset name, source kind, production date).
 */
export interface DatasetRow {
  country: CountryCode;
  registrationNumber: string;
  /** Other identifiers of the same company (an ABN's ACN, a corporation's BN9). */
  otherNumbers: string[];
  name: string;
  status: string | null;
  statusCategory: StatusCategory;
  legalForm: string | null;
  address: string | null;
  city: string | null;
  /** YYYY-MM-DD. */
  incorporationDate: string | null;
  /** The record's human-readable page at the register. */
  sourceUrl: string;
  extra: Record<string, unknown> | null;
  /**
   * The reader vouches that no text value of the row but `extra` holds a character COPY's text
   * format escapes (backslash, tab, newline, carriage return): writers pass them through.
   */
  copyPlain?: boolean;
}

/** A record of the file that could not become a row. */
export interface Rejection {
  /** Line (CSV, JSON lines) or record (JSON array, XML) number in the file, 1-based. */
  at: number;
  /** Short, countable reason ("missing registration number", "bad date"). */
  reason: string;
  /** The offending value or parser message, for the examples of the summary. */
  detail?: string;
  /** Zip entry the record came from, when there are several. */
  entry?: string;
}

/**
 * What a reader yields: a row, a rejection, or a record deliberately left out (an ASIC
 * former-name row, a Sirene unit whose name is not public).
 */
export type ReaderItem =
  { kind: 'row'; row: DatasetRow } | { kind: 'rejected'; rejection: Rejection } | { kind: 'skipped'; reason: string };

export interface ReaderContext {
  /** Base URLs of the register per PURPOSE (config.register(cc).urls), for record pages. */
  urls: Record<string, string>;
  /** The register's official address from the register table (for registers without a WEB endpoint). */
  officialUrl: string;
  /**
   * Called by readers whose file says when the register produced it (the CA open-data root
   * `date`, the ABN extract's `ExtractTime`), before the first row.
   */
  onProducedAt?: (producedAt: Date) => void;
}

/**
 * Yields items one by one, or the items of a chunk of the file as one array: a file of
 * millions of records then costs an async step per chunk rather than per record.
 */
export type DatasetReader = (input: Readable, ctx: ReaderContext) => AsyncGenerator<ReaderItem | ReaderItem[]>;

/** A connector's parsed record (no provenance yet) as a dataset row. */
export function fromConnectorRecord(
  record: Omit<CompanyRecord, 'source'>,
  sourceUrl: string,
  otherNumbers: string[] = [],
): DatasetRow {
  return {
    country: record.country,
    registrationNumber: record.registrationNumber,
    otherNumbers,
    name: record.name,
    status: record.status,
    statusCategory: record.statusCategory,
    legalForm: record.legalForm,
    address: record.address,
    city: record.city,
    incorporationDate: record.incorporationDate,
    sourceUrl,
    extra: compactExtra(record.extra ?? {}),
  };
}

export function row(r: DatasetRow): ReaderItem {
  return { kind: 'row', row: r };
}

export function rejected(at: number, reason: string, detail?: string): ReaderItem {
  return detail === undefined
    ? { kind: 'rejected', rejection: { at, reason } }
    : { kind: 'rejected', rejection: { at, reason, detail } };
}

/** A problem with the file as a whole (missing, not this format, unsupported compression): one readable line for the user. */
export class DatasetFileError extends Error {}

/** Thrown by a reader for a record that must be rejected; caught where the record number is known. */
export class RecordRejected extends Error {
  constructor(
    readonly reason: string,
    readonly detail?: string,
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
  }
}

/** Drops null/undefined values so the stored jsonb holds only what the register said; null when empty. */
export function compactExtra(values: Record<string, unknown>): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return Object.keys(out).length ? out : null;
}
