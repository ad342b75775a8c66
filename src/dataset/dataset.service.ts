import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CompanyRecord, SourceKind, STATUS_CATEGORIES, StatusCategory } from '../registers/connectors/connector';
import { CountryCode, findRegister, isCountryCode } from '../registers/register-table';
import { normalizeName } from './normalize-name';

/** The newest import of a country, for the fallback warning. */
export interface DatasetInfo {
  datasetName: string;
  producedAt: Date;
  rows: number;
}

interface CompanyRowResult {
  country: string;
  registration_number: string;
  other_numbers: string[] | string | null;
  name: string;
  status: string | null;
  status_category: string;
  legal_form: string | null;
  address: string | null;
  city: string | null;
  incorporation_date: string | Date | null;
  source_url: string;
  source_kind: string;
  produced_at: Date | string;
  extra: Record<string, unknown> | string | null;
}

const COLUMNS = `country, registration_number, other_numbers, name, status, status_category, legal_form, address,
  city, incorporation_date, source_url, source_kind, produced_at, extra`;

/** How long the description of a country's dataset is reused (imports run rarely). */
const INFO_CACHE_MS = 30_000;

/** Longest folded query compared (a longer one is cut: trigram similarity gains nothing past it). */
const MAX_QUERY_CHARS = 200;

/**
 * The read side of the fallback dataset: lookup by number, trigram name search, and what is
 * loaded. Every record says it is not official: source.kind names the dataset and
 * retrievedAt is when the register produced the bulk file, not now.
 */
@Injectable()
export class DatasetService {
  private readonly infoCache = new Map<CountryCode, { at: number; info: DatasetInfo }>();

  constructor(private readonly dataSource: DataSource) {}

  /** By registration number, or by one of the other numbers of a company (an ACN, a BN9). */
  async findByNumber(country: string, registrationNumber: string): Promise<CompanyRecord | null> {
    const cc = this.country(country);
    const number = registrationNumber.trim();
    if (!number) return null;
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM company
       WHERE country = $1 AND (registration_number = $2 OR other_numbers @> ARRAY[$2]::text[])
       ORDER BY (registration_number = $2) DESC
       LIMIT 1`,
      [cc, number],
    )) as CompanyRowResult[];
    return rows.length ? toRecord(rows[0]) : null;
  }

  /**
   * Name search on the accent-, case- and punctuation-folded name (normalizeName on both
   * sides), in two passes:
   * 1. every distinctive word of the query (3+ letters, not a legal form such as "ltd" or
   *    "as") appears in the name — a trigram-indexed LIKE per word, precise and fast even on
   *    millions of rows — ranked by similarity to the whole query;
   * 2. only when that finds nothing: fuzzy matches — each distinctive word close to a word of
   *    the name (trigram word similarity, which forgives typos) — ranked the same way.
   * The query and its words are always bound parameters; the country (validated against the
   * register table) is written into the SQL so the planner uses that country's partial index.
   */
  async searchByName(country: string, query: string, limit: number): Promise<CompanyRecord[]> {
    const cc = this.country(country);
    const folded = normalizeName(query).slice(0, MAX_QUERY_CHARS).trim();
    const max = Math.max(1, Math.min(Math.floor(limit) || 1, 100));
    if (!folded) return [];
    const words = distinctiveWords(folded);
    if (words.length) {
      const exact = (await this.dataSource.query(exactSearchSql(cc, words.length), [folded, max, ...words.map((w) => `%${w}%`)])) as CompanyRowResult[];
      if (exact.length > 0) return exact.map(toRecord);
    }
    const terms = words.length ? words : [folded];
    const fuzzy = (await this.dataSource.query(searchSql(cc, terms.length), [folded, max, ...terms])) as CompanyRowResult[];
    return fuzzy.map(toRecord);
  }

  /**
   * The newest completed import of the country, or null when the country has no rows at all.
   * Kept for INFO_CACHE_MS once found: every fallback answer names it, and describing rows
   * loaded without the importer means a scan of the country's rows.
   */
  async datasetInfo(country: string): Promise<DatasetInfo | null> {
    const cc = this.country(country);
    const cached = this.infoCache.get(cc);
    if (cached && Date.now() - cached.at < INFO_CACHE_MS) return cached.info;
    const info = await this.readDatasetInfo(cc);
    if (info) this.infoCache.set(cc, { at: Date.now(), info });
    return info;
  }

  private async readDatasetInfo(cc: CountryCode): Promise<DatasetInfo | null> {
    const any = (await this.dataSource.query(`SELECT 1 FROM company WHERE country = $1 LIMIT 1`, [cc])) as unknown[];
    if (any.length === 0) return null;
    const imports = (await this.dataSource.query(
      `SELECT dataset_name, produced_at, dataset_rows AS rows FROM dataset_import
       WHERE country = $1 AND status = 'done' ORDER BY finished_at DESC, id DESC LIMIT 1`,
      [cc],
    )) as Array<{ dataset_name: string; produced_at: Date | string; rows: number | string | null }>;
    if (imports.length && imports[0].rows !== null) {
      const i = imports[0];
      return { datasetName: i.dataset_name, producedAt: new Date(i.produced_at), rows: Number(i.rows) };
    }
    // Rows that came without the importer (a seed dataset): describe them from the table itself.
    const groups = (await this.dataSource.query(
      `SELECT dataset_name, max(produced_at) AS produced_at, count(*)::bigint AS rows FROM company
       WHERE country = $1 GROUP BY dataset_name ORDER BY max(produced_at) DESC LIMIT 1`,
      [cc],
    )) as Array<{ dataset_name: string; produced_at: Date | string; rows: number | string }>;
    const g = groups[0];
    return { datasetName: g.dataset_name, producedAt: new Date(g.produced_at), rows: Number(g.rows) };
  }

  private country(country: string): CountryCode {
    const cc = country.trim().toUpperCase();
    if (!isCountryCode(cc)) throw new Error(`the dataset has no country "${country.slice(0, 10)}"`);
    return cc;
  }
}

/** Legal forms and particles that half the names of a country share: no use as a filter. */
const NOT_DISTINCTIVE = new Set([
  'ltd', 'limited', 'plc', 'llp', 'inc', 'corp', 'corporation', 'company', 'the', 'and', 'for', // GB, AU, CA
  'asa', 'ans', 'enk', 'nuf', 'aps', 'ivs', // NO, DK (shorter forms such as AS are under 3 letters)
  'sas', 'sasu', 'sarl', 'eurl', 'sci', 'snc', 'scop', 'les', 'des', 'cie', 'ltee', // FR, CA
  'pty', 'gmbh', 'srl', 'spa',
]);

/** The words of a folded query that narrow a search: 3+ characters, not a legal form. */
export function distinctiveWords(folded: string): string[] {
  return [...new Set(folded.split(' ').filter((w) => w.length >= 3 && !NOT_DISTINCTIVE.has(w)))].slice(0, 8);
}

/**
 * `cc` comes from the register table (checked by isCountryCode), never from the request:
 * inlined, it matches the partial index predicate `WHERE country = 'NO'`, which a bound
 * parameter would not under a generic plan. $1 the folded query, $2 the limit, $3… one
 * `%word%` pattern per distinctive word (folded words hold only letters and digits).
 */
export function exactSearchSql(cc: CountryCode, words: number): string {
  const likes = Array.from({ length: words }, (_, i) => `name_normalized LIKE $${i + 3}`).join(' AND ');
  return `SELECT ${COLUMNS}
    FROM company
    WHERE country = '${cc}' AND ${likes}
    ORDER BY similarity($1, name_normalized) DESC, name, registration_number
    LIMIT $2`;
}

/**
 * The fuzzy pass: each term ($3…) matches a word of the name by trigram word similarity;
 * ranked by similarity to the whole query ($1), $2 the limit. One condition per term, not
 * the whole query at once: the index then intersects the terms, and a common word in the
 * query cannot make millions of rows candidates.
 */
export function searchSql(cc: CountryCode, terms = 1): string {
  const close = Array.from({ length: terms }, (_, i) => `$${i + 3} <% name_normalized`).join(' AND ');
  return `SELECT ${COLUMNS}
    FROM company
    WHERE country = '${cc}' AND ${close}
    ORDER BY word_similarity($1, name_normalized) DESC, similarity($1, name_normalized) DESC, name, registration_number
    LIMIT $2`;
}

function isoDay(value: string | Date | null): string | null {
  if (value === null) return null;
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  return value.slice(0, 10);
}

function parseArray(value: string[] | string | null): string[] {
  if (Array.isArray(value)) return value;
  if (!value || value === '{}') return [];
  // A driver that leaves text[] as its literal: {a,b} or {"a b",c}.
  return value
    .slice(1, -1)
    .match(/"(?:[^"\\]|\\.)*"|[^,]+/g)!
    .map((v) => (v.startsWith('"') ? v.slice(1, -1).replace(/\\(.)/g, '$1') : v));
}

export function toRecord(r: CompanyRowResult): CompanyRecord {
  const country = r.country.trim() as CountryCode;
  const extra = typeof r.extra === 'string' ? (JSON.parse(r.extra) as Record<string, unknown>) : r.extra;
  const otherNumbers = parseArray(r.other_numbers);
  const fullExtra = { ...(extra ?? {}), ...(otherNumbers.length ? { otherNumbers } : {}) };
  const category = (STATUS_CATEGORIES as readonly string[]).includes(r.status_category) ? (r.status_category as StatusCategory) : 'unknown';
  return {
    name: r.name,
    registrationNumber: r.registration_number,
    country,
    status: r.status,
    statusCategory: category,
    legalForm: r.legal_form,
    address: r.address,
    city: r.city,
    incorporationDate: isoDay(r.incorporation_date),
    source: {
      register: findRegister(country)?.name ?? country,
      url: r.source_url,
      official: false,
      kind: r.source_kind as SourceKind,
      retrievedAt: new Date(r.produced_at).toISOString(),
    },
    ...(Object.keys(fullExtra).length ? { extra: fullExtra } : {}),
  };
}
