import { Injectable } from '@nestjs/common';
import { Clock } from '../platform/clock';
import { AppConfig } from '../platform/config/app-config';
import type { CompanyRecord } from '../registers/connector';
import { GleifClient } from '../registers/lei/gleif.client';
import { LEI_BATCH_MAX_NUMBERS } from '../registers/lei/lei-authorities';
import type { CountryCode } from '../registers/registers';
import { LeiCache } from './lei-cache';

/** A day: an LEI is rarely issued or changed for a company, and GLEIF allows about 60 requests a minute. */
export const LEI_CACHE_TTL_MS = 24 * 3_600_000;
/** About 1 MB of numbers and LEIs. */
export const LEI_CACHE_MAX_ENTRIES = 10_000;

/**
 * The `lei` of search results and company lookups: each number from the cache, the others from
 * at most ONE GLEIF request per response (GleifClient.lookupNumbers: one batched filter on the
 * registration authorities and the numbers), waited for LEI_LOOKUP_TIMEOUT_MS at most. Never
 * throws: when GLEIF is slow, failing or unreachable (its breaker open), the field is absent.
 */
@Injectable()
export class LeiEnrichment {
  private readonly cache = new LeiCache(LEI_CACHE_MAX_ENTRIES, LEI_CACHE_TTL_MS);

  constructor(
    private readonly gleif: GleifClient,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /** The numbers of a record GLEIF may know it by: its registration number, and an AU record's ACN. */
  static numbersOf(record: Pick<CompanyRecord, 'registrationNumber' | 'extra'>): string[] {
    const acn = record.extra?.acn;
    return typeof acn === 'string' && acn !== record.registrationNumber
      ? [record.registrationNumber, acn]
      : [record.registrationNumber];
  }

  /** The records with their `lei` where GLEIF maps one (leisOf's answer for their numbers). */
  static attach<T extends CompanyRecord>(records: T[], leis: ReadonlyMap<string, string>): Array<T & { lei?: string }> {
    return records.map((record) => {
      const lei = LeiEnrichment.numbersOf(record)
        .map((n) => leis.get(n))
        .find(Boolean);
      return lei ? { ...record, lei } : record;
    });
  }

  /**
   * The LEIs of registration numbers of one country (number as given → LEI), the registration
   * numbers first: the cached ones at once, the rest in one request (the first
   * LEI_BATCH_MAX_NUMBERS of them).
   */
  async leisOf(country: CountryCode, numbers: readonly string[]): Promise<Map<string, string>> {
    const now = this.clock.now().getTime();
    const leis = new Map<string, string>();
    const missing: string[] = [];
    for (const number of new Set(numbers)) {
      const cached = this.cache.get(key(country, number), now);
      if (typeof cached === 'string') leis.set(number, cached);
      else if (cached === undefined) missing.push(number);
    }
    if (missing.length === 0) return leis;
    const asked = missing.slice(0, LEI_BATCH_MAX_NUMBERS);
    const answer = await this.gleif.lookupNumbers(country, asked, this.config.leiLookupTimeoutMs);
    const at = this.clock.now().getTime();
    for (const number of asked) {
      const lei = answer.leis.get(number);
      if (lei) leis.set(number, lei);
      if (lei || answer.known) this.cache.set(key(country, number), lei ?? null, at);
    }
    return leis;
  }

  /** leisOf for these records, attached. */
  async enrich<T extends CompanyRecord>(country: CountryCode, records: T[]): Promise<Array<T & { lei?: string }>> {
    if (records.length === 0) return records;
    const numbers = [
      ...records.map((r) => r.registrationNumber),
      ...records.flatMap((r) => LeiEnrichment.numbersOf(r).slice(1)),
    ];
    return LeiEnrichment.attach(records, await this.leisOf(country, numbers));
  }

  /** Forgets every answer (operator and test use). */
  clearCache(): void {
    this.cache.clear();
  }
}

function key(country: CountryCode, number: string): string {
  return `${country}:${number}`;
}
