import { PublicAddress } from '../platform/http/public-address';
import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { OpenBreaker, RegisterBreaker, RegisterUnreachableError } from '../registers/client/register-breaker';
import { ApiError } from '../platform/errors/api-error';
import { DatasetService } from '../dataset/dataset.service';
import { LeiEnrichment } from '../lei/lei-enrichment.service';
import { ConnectorRegistry } from '../registers/connector-registry';
import { CompanyDetail, CompanyRecord } from '../registers/connector';
import { NameSearchUnsupportedError } from '../registers/name-search-unsupported.error';
import { QueryTooBroadError } from '../registers/query-too-broad.error';
import { UpstreamError } from '../registers/upstream-error';
import { CountryCode, RegisterDefinition } from '../registers/registers';
import { RegisterStatus } from '../status/register-status';
import { Coalescer } from './coalescer';
import { CompanyResponseDto, RegisterDescriptorDto, SearchResponseDto } from './dto/search-response.dto';
import { recognizeIdentifier } from '../registers/identifiers';
import { nameSimilarity } from './name-similarity';
import { requireParameters, resolveCountry, validateQuery, validateRegistrationNumber } from './query-validation';

/** Where an answer came from, and how to describe it honestly. */
interface Provenance {
  status: RegisterStatus;
  warning?: string;
  /** The register's own sentence for a lookup the dataset could not answer either (see `datasetOnly`). */
  notFound?: string;
}

/**
 * Search and company lookup: validate, recognise a registration number offline, read the
 * register live (identical concurrent reads shared), fall back to the dataset when the
 * register is paused or fails, and say which happened. Each company found gets its `lei` where
 * GLEIF maps its number (LeiEnrichment: at most one GLEIF request per response, a short wait).
 */
@Injectable()
export class SearchService {
  private readonly logger = new Logger(SearchService.name);
  private readonly coalescer = new Coalescer();

  constructor(
    private readonly connectors: ConnectorRegistry,
    private readonly dataset: DatasetService,
    private readonly config: AppConfig,
    private readonly breaker: RegisterBreaker,
    private readonly address: PublicAddress,
    private readonly lei: LeiEnrichment,
  ) {}

  async search(rawQuery: unknown, rawCountry: unknown): Promise<SearchResponseDto> {
    requireParameters({ q: rawQuery, country: rawCountry });
    const q = validateQuery(rawQuery);
    const register = resolveCountry(rawCountry);
    const id = recognizeIdentifier(register.country, q);
    if (id.kind === 'invalid')
      throw new ApiError('invalid_query', id.message, {
        errors: [{ field: 'q', code: 'invalid_query', message: id.message }],
      });
    const limit = this.config.searchMaxResults;
    const connector = this.connectors.get(register.country);

    const { records, provenance } = await this.read(
      register,
      id.kind === 'number' ? `n:${id.registrationNumber}` : `q:${q.toLowerCase()}`,
      async () => {
        if (id.kind === 'number') {
          const found = await connector.lookup(id.registrationNumber);
          return found ? [stripOfficers(found)] : [];
        }
        return connector.searchByName(q, limit);
      },
      async () => {
        if (id.kind === 'number') {
          const found = await this.dataset.findByNumber(register.country, id.registrationNumber);
          return found ? [found] : [];
        }
        return this.dataset.searchByName(register.country, q, limit);
      },
      id.kind === 'number' ? id.datasetOnly : undefined,
    );
    const ranked = rank(records, q, id.kind === 'number' ? id.registrationNumber : null).slice(0, limit);
    const results = await this.lei.enrich(register.country, ranked);
    return {
      apiVersion: this.config.apiVersion,
      query: rawQuery as string,
      country: register.country,
      countryName: register.countryName,
      register: this.descriptor(register, provenance.status),
      resolved: results.length > 0,
      count: results.length,
      results,
      attribution: this.attribution(register),
      ...(provenance.warning ? { warning: provenance.warning } : {}),
    };
  }

  async company(rawCountry: unknown, rawNumber: unknown): Promise<CompanyResponseDto> {
    const register = resolveCountry(rawCountry);
    const number = validateRegistrationNumber(rawNumber);
    const id = recognizeIdentifier(register.country, number);
    if (id.kind === 'invalid')
      throw new ApiError('invalid_query', id.message, {
        errors: [{ field: 'registrationNumber', code: 'invalid_query', message: id.message }],
      });
    if (id.kind === 'name') {
      const message = `"${number.slice(0, 40)}" is not a ${register.short} registration number. Use /search?q= to search by name.`;
      throw new ApiError('invalid_query', message, {
        errors: [{ field: 'registrationNumber', code: 'invalid_query', message }],
      });
    }
    const connector = this.connectors.get(register.country);
    const { records, provenance } = await this.read<CompanyDetail>(
      register,
      `d:${id.registrationNumber}`,
      async () => {
        const found = await connector.lookup(id.registrationNumber);
        return found ? [found] : [];
      },
      async () => {
        const found = await this.dataset.findByNumber(register.country, id.registrationNumber);
        return found ? [{ ...found, officers: null }] : [];
      },
      id.datasetOnly,
    );
    if (records.length === 0) {
      throw new ApiError(
        'company_not_found',
        provenance.notFound ?? `${register.short} has no company with number ${id.registrationNumber}.`,
        provenance.warning ? { warning: provenance.warning } : {},
      );
    }
    return {
      apiVersion: this.config.apiVersion,
      country: register.country,
      countryName: register.countryName,
      register: this.descriptor(register, provenance.status),
      company: (await this.lei.enrich(register.country, [records[0]]))[0],
      attribution: this.attribution(register),
      ...(provenance.warning ? { warning: provenance.warning } : {}),
    };
  }

  /**
   * The read pipeline shared by search and lookup: live when the register can be read,
   * the dataset when it is paused, unreachable or fails. A register failure with nothing in
   * the dataset to stand in is a 502, unless the dataset is a complete copy of the register.
   * A number the register cannot be asked for (`datasetOnly`) is never read live.
   */
  private async read<T extends CompanyRecord>(
    register: RegisterDefinition,
    key: string,
    live: () => Promise<T[]>,
    fallback: () => Promise<T[]>,
    datasetOnly?: { why: string; notFound: string },
  ): Promise<{ records: T[]; provenance: Provenance }> {
    const country = register.country;
    if (datasetOnly) return this.fromDataset(country, datasetOnly.why, datasetOnly.notFound, fallback);
    const pauseReason = this.connectors.pauseReason(country);
    if (pauseReason) {
      const records = await fallback();
      return {
        records,
        provenance: {
          status: 'paused',
          warning: await this.fallbackWarning(country, `${register.short} is paused: ${pauseReason}`, records.length),
        },
      };
    }
    // Known to be unreachable: no read waits in the register's queue to fail; the fallback answers now.
    const open = this.breaker.openState(country);
    if (open) return this.unreachable(register, open, fallback);
    try {
      const records = await this.coalescer.run(`${country}|${key}`, live);
      const source = this.connectors.get(country).source();
      if (source.official) return { records, provenance: { status: 'live' } };
      return {
        records,
        provenance: {
          status: 'degraded',
          warning: `These records come from ${source.description}, not from ${register.short} itself: they are not official (source.official is false). Verify with the register before relying on them.`,
        },
      };
    } catch (err) {
      if (err instanceof RegisterUnreachableError) return this.unreachable(register, err.open, fallback);
      // The register answered, refusing the query itself: no fallback, the query is to be narrowed.
      if (err instanceof QueryTooBroadError)
        throw new ApiError('invalid_query', err.message, {
          errors: [{ field: 'q', code: 'invalid_query', message: err.message }],
        });
      if (err instanceof NameSearchUnsupportedError)
        return this.fromDataset(country, err.message, err.notFound, fallback);
      const failure = UpstreamError.from(err);
      this.logger.warn(`${country} live read failed: ${failure.errorClass} (${failure.message})`);
      const records = await fallback();
      // A miss is an answer only when the dataset is a complete import of the register's bulk file.
      if (records.length === 0 && !(await this.dataset.datasetInfo(country))?.complete) {
        throw new ApiError(
          'upstream_error',
          `${register.short} did not answer (${failure.errorClass}) and the fallback dataset, which is not a complete copy of the register, has no matching record.`,
          { register: register.name, errorClass: failure.errorClass },
        );
      }
      const source = this.connectors.get(country).source();
      return {
        records,
        provenance: {
          status: 'degraded',
          warning: await this.fallbackWarning(
            country,
            `${capitalize(source.description)} did not answer (${failure.errorClass})`,
            records.length,
          ),
        },
      };
    }
  }

  /**
   * Not a failure: the register cannot answer this query live (it has no name search, or the
   * number is not its key); the dataset is the answer, and the register's own sentence says why.
   */
  private async fromDataset<T extends CompanyRecord>(
    country: CountryCode,
    why: string,
    notFound: string | undefined,
    fallback: () => Promise<T[]>,
  ): Promise<{ records: T[]; provenance: Provenance }> {
    const records = await fallback();
    const warning = await this.fallbackWarning(country, why, records.length);
    const status = this.connectors.pauseReason(country) ? 'paused' : 'degraded';
    return { records, provenance: { status, warning, ...(notFound ? { notFound } : {}) } };
  }

  /** The register's breaker is open: the fallback answers, and the warning says why and since when. */
  private async unreachable<T extends CompanyRecord>(
    register: RegisterDefinition,
    open: OpenBreaker,
    fallback: () => Promise<T[]>,
  ): Promise<{ records: T[]; provenance: Provenance }> {
    const records = await fallback();
    const why = `${register.short} is unreachable (${open.errorClass}) since ${open.since.toISOString()}; live reads are tried again every ${open.retrySeconds} s`;
    // The same rule as a failed read: a miss is an answer only when the dataset is a complete import.
    if (records.length === 0 && !(await this.dataset.datasetInfo(register.country))?.complete) {
      throw new ApiError(
        'upstream_error',
        `${why}, and the fallback dataset, which is not a complete copy of the register, has no matching record.`,
        {
          register: register.name,
          errorClass: open.errorClass,
        },
      );
    }
    return {
      records,
      provenance: { status: 'degraded', warning: await this.fallbackWarning(register.country, why, records.length) },
    };
  }

  /**
   * Names the dataset that answered and its date; says when its newest import was interrupted
   * (the rows are partial), and, for an empty answer from a dataset that is not a complete
   * import of the register (the bundled sample), that only a sample was searched.
   */
  private async fallbackWarning(country: CountryCode, because: string, found: number): Promise<string> {
    const why = because.trim().replace(/[.\s]+$/, '');
    const info = await this.dataset.datasetInfo(country);
    if (!info) return `${why}. No fallback dataset is loaded for ${country}, so nothing could be returned.`;
    const date = info.producedAt.toISOString().slice(0, 10);
    const parts = [
      `${why}. ${found > 0 ? 'Results come' : 'The answer comes'} from the fallback dataset "${info.datasetName}" (produced ${date}), not from a live read: records are not official and may be out of date.`,
    ];
    if (info.interrupted) {
      const i = info.interrupted;
      parts.push(
        `Its latest import (${i.fileName}, started ${i.startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC) was interrupted after ${i.recordsRead.toLocaleString('en-US')} records: the dataset is partial until that import is run again.`,
      );
    }
    if (found === 0 && !info.complete) {
      parts.push(
        `Only a sample of ${info.rows.toLocaleString('en-US')} ${info.rows === 1 ? 'company' : 'companies'} was searched, not a complete copy of the register: a company missing from it may well exist.`,
      );
    }
    return parts.join(' ');
  }

  private descriptor(register: RegisterDefinition, status: RegisterStatus): RegisterDescriptorDto {
    return {
      name: register.name,
      short: register.short,
      officialUrl: register.officialUrl,
      reuseTermsUrl: register.reuseTermsUrl,
      status,
      provides: { ...register.provides },
    };
  }

  private attribution(register: RegisterDefinition): string {
    return `Data from ${register.name} (${register.officialUrl}), provided by Registry Lookup (${this.address.url('/')}). Reuse is subject to the register's own terms: ${register.reuseTermsUrl}`;
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function stripOfficers(detail: CompanyDetail): CompanyRecord {
  const { officers: _officers, ...record } = detail;
  return record;
}

/**
 * Exact registration-number match first, then name similarity to q; register order breaks
 * ties. Fallback dataset answers come ranked already (exact words, then prefix, then typo
 * corrections; shorter names first: see dataset/name-search.ts) and keep their order.
 */
function rank<T extends CompanyRecord>(records: T[], q: string, number: string | null): T[] {
  const ranked = records.length > 0 && records.every((r) => r.source.kind.startsWith('dataset:'));
  return records
    .map((record, index) => ({
      record,
      index,
      exact:
        number !== null &&
        (record.registrationNumber === number || (record.extra?.otherNumbers as string[] | undefined)?.includes(number))
          ? 1
          : 0,
      similarity: ranked ? 0 : nameSimilarity(record.name, q),
    }))
    .sort((a, b) => b.exact - a.exact || b.similarity - a.similarity || a.index - b.index)
    .map((r) => r.record);
}
