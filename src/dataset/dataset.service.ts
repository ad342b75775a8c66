import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { CompanyRecord, SourceKind, STATUS_CATEGORIES, StatusCategory } from '../registers/connector';
import { COUNTRY_CODES, CountryCode, findRegister, isCountryCode } from '../registers/registers';
import { REGISTERS } from '../registers/registers';
import { DatasetImportStore } from './import/dataset-import-store';
import { normalizeName } from './normalize-name';
import {
  estimateDensity,
  estimateMatches,
  exactTier,
  expandPrefixes,
  parseQuery,
  prefixTier,
  Tier,
  tsquery,
  typoCandidates,
  typoTier,
} from './name-search';
import { PREFIX_EXPANSION, WordDictionaries, WordDictionary } from './word-dictionary';

/** What the fallback dataset of a country is, for the fallback warning and the miss rule. */
export interface DatasetInfo {
  datasetName: string;
  producedAt: Date;
  rows: number;
  /**
   * The rows come from a completed import of a register's bulk file: a name it does not hold is
   * vouched for as unknown. False for the bundled sample and rows loaded without the importer.
   */
  complete: boolean;
  /** The country's newest import did not reach the end of its file: what it wrote is served. */
  interrupted: { fileName: string; startedAt: Date; recordsRead: number } | null;
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

  private readonly dictionaries: WordDictionaries;
  private readonly imports: DatasetImportStore;

  /** Loads every country's word dictionary in the background, so that no first search waits for it. */
  onApplicationBootstrap(): void {
    for (const cc of COUNTRY_CODES) void this.dictionaries.of(cc).catch(() => undefined);
  }

  constructor(private readonly dataSource: DataSource) {
    this.dictionaries = new WordDictionaries(dataSource);
    this.imports = new DatasetImportStore(dataSource);
  }

  /** By registration number, or by one of the other numbers of a company (an ACN, a BN9). */
  async findByNumber(country: string, registrationNumber: string): Promise<CompanyRecord | null> {
    const cc = this.country(country);
    const number = registrationNumber.trim();
    if (!number) return null;
    const rows = (await this.dataSource.query(findByNumberSql(), [cc, number])) as CompanyRowResult[];
    return rows.length ? toRecord(rows[0]) : null;
  }

  /**
   * Name search on the accent-, case- and punctuation-folded name (normalizeName on both
   * sides), in the tiers of name-search.ts (exact words, then the last word as a prefix, then
   * one-edit corrections), each in static rank order, until `limit` names are found. The
   * country's word dictionary (in memory) plans it; the statements run in one transaction
   * that forbids sequential scans, so that no estimate can turn a search into a table scan.
   */
  async searchByName(country: string, query: string, limit: number): Promise<CompanyRecord[]> {
    const cc = this.country(country);
    const folded = normalizeName(query).slice(0, MAX_QUERY_CHARS).trim();
    const max = Math.max(1, Math.min(Math.floor(limit) || 1, 100));
    if (!folded) return [];
    const parsed = parseQuery(folded, STOP_WORDS.get(cc)!);
    if (parsed.required.length === 0) return [];
    const dictionary = await this.dictionaries.of(cc);
    const found: CompanyRowResult[] = [];
    const seen = new Set<string>();
    const add = (rows: CompanyRowResult[]) => {
      for (const r of rows) {
        if (found.length >= max) break;
        if (seen.has(r.registration_number)) continue;
        seen.add(r.registration_number);
        found.push(r);
      }
    };
    const last = parsed.last === null ? null : dictionary.prefix(parsed.last);
    // Names that begin with the query's words in the order typed come first where every match is sorted.
    const lead = folded.split(' ').filter(Boolean).join(' ');
    await this.inSearchTransaction(async (run) => {
      add(await this.readTier(run, cc, exactTier(parsed), max, dictionary, lead));
      // The prefix tier adds something only when another word begins with the last one.
      const prefix = prefixTier(parsed);
      if (found.length < max && prefix && last && last.words > (dictionary.has(parsed.last!) ? 1 : 0)) {
        add(await this.readTier(run, cc, prefix, max, dictionary, lead));
      }
      // Corrections when a word is unknown to the dictionary, or when nothing matched as typed.
      const unknown = parsed.required.some((w) => w !== parsed.last && !dictionary.has(w)) || last?.words === 0;
      if (found.length < max && (unknown || found.length === 0)) {
        const known = new Map(
          typoCandidates(parsed)
            .filter((w) => dictionary.has(w))
            .map((w) => [w, dictionary.count(w)] as const),
        );
        add(await this.readTier(run, cc, typoTier(parsed, known), max, dictionary, lead));
      }
    });
    return found.map(toRecord);
  }

  /**
   * Runs `work` in one transaction whose settings forbid sequential scans (and JIT, and give
   * sorts SEARCH_WORK_MEM), opened with its settings in one round trip: on PGlite every
   * statement costs a fixed ~0.4 ms, a tenth of a whole search, so `BEGIN` and the settings go
   * as one simple query rather than TypeORM's START TRANSACTION followed by a SELECT.
   */
  private async inSearchTransaction(
    work: (run: (sql: string, params: unknown[]) => Promise<CompanyRowResult[]>) => Promise<void>,
  ): Promise<void> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(
        `BEGIN; SELECT set_config('enable_seqscan', 'off', true), set_config('jit', 'off', true), set_config('work_mem', '${SEARCH_WORK_MEM}', true)`,
      );
      await work((sql, params) => runner.query(sql, params) as Promise<CompanyRowResult[]>);
      await runner.query('COMMIT');
    } catch (err) {
      // Never hand the session back inside a transaction (a failed BEGIN leaves none: harmless).
      await runner.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      await runner.release();
    }
  }

  /**
   * The first `limit` names of one tier, at a cost that does not grow with its matches. When
   * a term is narrow (the dictionary bounds its names by SPARSE_MATCHES), the GIN index of
   * words gives every name holding the narrowest term, the whole tier filters them and the rest
   * is sorted by rank: exact, and a few thousand rows at most. When every term is common, no
   * index narrows anything down: the names are read in order and the first matches kept — the
   * shortest names first (a bounded walk in rank order), then the register's own order (a walk
   * by registration number, in which a word is as frequent as anywhere, so that k matches cost
   * k ÷ frequency rows), and only if both walks fall short, the GIN index on the whole tier
   * (common words that rarely meet: the intersection is small).
   */
  private async readTier(
    run: (sql: string, params: unknown[]) => Promise<CompanyRowResult[]>,
    cc: CountryCode,
    tier: Tier,
    limit: number,
    dictionary: WordDictionary,
    lead: string,
  ): Promise<CompanyRowResult[]> {
    const count = (w: string) => dictionary.count(w);
    const prefixCount = (p: string) => dictionary.prefix(p).companies;
    const listed = expandPrefixes(tier, (p) => {
      const begun = dictionary.prefix(p);
      return begun.words <= PREFIX_EXPANSION ? begun.first : null;
    });
    if (!listed) return [];
    tier = listed;
    const q = tsquery(tier);
    const [narrowest] = tier.terms
      .map((t) => ({ t, n: estimateMatches({ ...tier, terms: [t] }, count, prefixCount) }))
      .sort((a, b) => a.n - b.n);
    if (narrowest.n <= SPARSE_MATCHES)
      return run(matchSql(cc), [tsquery({ ...tier, terms: [narrowest.t] }), q, limit, lead]);
    const short = await run(walkSql(cc), [q, tier.minWords * 1024, limit, WALK_SHORT_ROWS]);
    if (short.length >= limit || dictionary.total <= WALK_SHORT_ROWS) return short;
    // Rows a walk in registration order is expected to read (terms taken as independent): past
    // WALK_ROWS, the terms rarely meet and the GIN index is asked at once.
    const density = estimateDensity(tier, dictionary.total, count, prefixCount);
    let rest: CompanyRowResult[] = [];
    const walked = density * WALK_ROWS >= 2 * limit;
    if (walked) rest = await run(numberWalkSql(cc), [q, limit, WALK_ROWS]);
    if (rest.length < limit && (!walked || dictionary.total > WALK_ROWS))
      rest = await run(matchSql(cc), [q, q, limit, lead]);
    const seen = new Set(short.map((r) => r.registration_number));
    const page = [...short, ...rest.filter((r) => !seen.has(r.registration_number))].slice(0, limit);
    // Within the page, names that begin with the query as typed first (a stable sort).
    return [...page.filter((r) => leads(r, lead)), ...page.filter((r) => !leads(r, lead))];
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
    const { done, newest } = await this.imports.latest(cc);
    const interrupted =
      newest?.status === 'interrupted'
        ? { fileName: newest.fileName, startedAt: newest.startedAt, recordsRead: newest.rowsRead }
        : null;
    if (done) {
      return {
        datasetName: done.datasetName,
        producedAt: done.producedAt,
        rows: done.datasetRows!,
        complete: true,
        interrupted,
      };
    }
    // Rows that came without a completed import (the bundled sample, a partial import): described from the table itself.
    const groups = (await this.dataSource.query(
      `SELECT dataset_name, max(produced_at) AS produced_at, count(*)::bigint AS rows FROM company
       WHERE country = $1 GROUP BY dataset_name ORDER BY max(produced_at) DESC LIMIT 1`,
      [cc],
    )) as Array<{ dataset_name: string; produced_at: Date | string; rows: number | string }>;
    const g = groups[0];
    return {
      datasetName: g.dataset_name,
      producedAt: new Date(g.produced_at),
      rows: Number(g.rows),
      complete: false,
      interrupted,
    };
  }

  private country(country: string): CountryCode {
    const cc = country.trim().toUpperCase();
    if (!isCountryCode(cc)) throw new Error(`the dataset has no country "${country.slice(0, 10)}"`);
    return cc;
  }
}

/** A company by registration number ($2), or by one of its other numbers, in country $1. */
export function findByNumberSql(): string {
  return `SELECT ${COLUMNS} FROM company
    WHERE country = $1 AND (registration_number = $2 OR (other_numbers <> '{}' AND other_numbers @> ARRAY[$2]::text[]))
    ORDER BY (registration_number = $2) DESC
    LIMIT 1`;
}

/** Legal forms and particles that half the names of any country share: optional in a query that has other words. */
const COMMON_STOP_WORDS = [
  'the',
  'and',
  'for',
  'ltd',
  'limited',
  'plc',
  'llp',
  'inc',
  'corp',
  'corporation',
  'company',
  'gmbh',
  'srl',
  'spa',
];
const STOP_WORDS = new Map<CountryCode, ReadonlySet<string>>(
  COUNTRY_CODES.map((cc) => [cc, new Set([...COMMON_STOP_WORDS, ...REGISTERS[cc].nameStopWords])]),
);

/** A term whose dictionary bound is at most this is narrow: the GIN index gives its names, then they are sorted. */
export const SPARSE_MATCHES = 5_000;
/** Names of a common-words tier read in rank order (the shortest names) before the register's order. */
export const WALK_SHORT_ROWS = 1_000;
/** Most names read in registration-number order before the GIN index is asked instead. */
export const WALK_ROWS = 10_000;
/** Memory for one search's sorts and bitmaps (the GIN index's bitmap of a common word stays exact). */
const SEARCH_WORK_MEM = '32MB';

/** The words of a name as the GIN index holds them; the walk evaluates the same expression on the row. */
/** The walked rows' words, and the company columns of the join: written once, not per query. */
const WALKED_NAME_WORDS = `array_to_tsvector(string_to_array(w.name_normalized, ' '))`;
const JOINED_COLUMNS = COLUMNS.replace(/(\w+)/g, 'c.$1');

/**
 * A bounded walk: the country's rows in `order` (an index's order) from `from`, at most `read`
 * of them, keeping the first `keep` whose words match $1; returned in rank order. `cc` comes
 * from the register table (checked by isCountryCode), never from the request: inlined, it
 * matches the partial index.
 */
function boundedWalkSql(cc: CountryCode, walk: { from: string; order: string; read: string; keep: string }): string {
  return `WITH walk AS MATERIALIZED (
      SELECT id, name_rank, registration_number FROM (
        SELECT id, name_rank, registration_number, name_normalized FROM company
        WHERE country = '${cc}'${walk.from}
        ORDER BY ${walk.order}
        LIMIT ${walk.read}
      ) w
      WHERE ${WALKED_NAME_WORDS} @@ $1::tsquery
      LIMIT ${walk.keep}
    )
    SELECT ${JOINED_COLUMNS}
    FROM walk JOIN company c ON c.country = '${cc}' AND c.id = walk.id
    ORDER BY walk.name_rank, walk.registration_number`;
}

/** The walk: the country's names in rank order from $2 (fewest words a match can have), at most $4 of them, keeping the first $3 that match $1. */
export function walkSql(cc: CountryCode): string {
  return boundedWalkSql(cc, {
    from: ' AND name_rank >= $2',
    order: 'name_rank, registration_number',
    read: '$4',
    keep: '$3',
  });
}

/**
 * Names holding $1 (the narrowest term) through the country's GIN index of words — by
 * company_name_matches, whose plan can only be that bitmap scan — kept when they match $2:
 * the first $3, those that begin with $4 (the query's words as typed) first, then rank order.
 */
export function matchSql(cc: CountryCode): string {
  return `SELECT ${JOINED_COLUMNS}
    FROM company_name_matches('${cc}', $1::tsquery, $2::tsquery, $3, $4) m JOIN company c ON c.country = '${cc}' AND c.id = m.id
    ORDER BY m.leads DESC, m.name_rank, m.registration_number`;
}

/** The first $2 names matching $1 in registration-number order (the unique index), at most $3 read; returned in rank order. */
export function numberWalkSql(cc: CountryCode): string {
  return boundedWalkSql(cc, { from: '', order: 'registration_number', read: '$3', keep: '$2' });
}

function leads(r: CompanyRowResult, lead: string): boolean {
  return lead !== '' && normalizeName(r.name).startsWith(lead);
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
  const category = (STATUS_CATEGORIES as readonly string[]).includes(r.status_category)
    ? (r.status_category as StatusCategory)
    : 'unknown';
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
