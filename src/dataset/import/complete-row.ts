import { normalizeName } from '../normalize-name';
import type { CompanyRow } from './company-writer';
import type { DatasetRow } from '../../registers/bulk/dataset-row';

/** What every row of one import carries: where it came from. */
export interface Provenance {
  sourceKind: string;
  datasetName: string;
  /** ISO 8601 timestamp. */
  producedAt: string;
}

function clean(value: string | null): string | null {
  // Postgres text cannot hold NUL.
  return value !== null && value.includes('\u0000') ? value.replaceAll('\u0000', '') : value;
}

/**
 * Longest folded name stored, in UTF-8 bytes. The folded name is an index entry (the rank
 * index holds it beside the number), and Postgres refuses an entry over 2,704 bytes: one such
 * name would fail a whole import. No register's name comes near; a name longer than this is
 * still stored whole, and found by its first few hundred words.
 */
export const MAX_FOLDED_NAME_BYTES = 2_000;

/** The folded name, cut at a word boundary when it is longer than an index entry may be. */
export function indexableName(folded: string): string {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: only a long name needs counting.
  if (folded.length * 3 <= MAX_FOLDED_NAME_BYTES || Buffer.byteLength(folded) <= MAX_FOLDED_NAME_BYTES) return folded;
  let bytes = 0;
  let end = 0;
  for (const ch of folded) {
    bytes += Buffer.byteLength(ch);
    if (bytes > MAX_FOLDED_NAME_BYTES) break;
    end += ch.length;
  }
  const cut = folded.slice(0, end);
  // Folded names are words between single spaces: drop the word the cut went through.
  const lastSpace = folded[end] === ' ' ? end : cut.lastIndexOf(' ');
  return lastSpace > 0 ? cut.slice(0, lastSpace) : cut;
}

/**
 * Completes a reader's row in place (one allocation less per row of a large file): NULs
 * dropped, the name folded (and cut to what an index holds), the import's provenance added.
 * What the importer does to every row before a writer takes it (and bench/import-reading.js,
 * to read as an import reads).
 */
export function completeRow(r: DatasetRow, provenance: Provenance): CompanyRow {
  const c = r as CompanyRow;
  c.name = clean(r.name)!;
  c.status = clean(r.status);
  c.legalForm = clean(r.legalForm);
  c.address = clean(r.address);
  c.city = clean(r.city);
  c.nameNormalized = indexableName(normalizeName(c.name));
  c.sourceKind = provenance.sourceKind;
  c.datasetName = provenance.datasetName;
  c.producedAt = provenance.producedAt;
  return c;
}
