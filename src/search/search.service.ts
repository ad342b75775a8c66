import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../core/config/app-config';
import { ApiError } from '../core/errors/api-error';
import { DatasetService } from '../dataset/dataset.service';
import { ConnectorRegistry } from '../registers/connector-registry';
import { CompanyDetail, CompanyRecord } from '../registers/connectors/connector';
import { NameSearchUnsupportedError } from '../registers/connectors/name-search-unsupported.error';
import { UpstreamError } from '../registers/connectors/upstream-error';
import { CountryCode, RegisterDefinition } from '../registers/register-table';
import { RegisterStatus } from '../status/register-status';
import { Coalescer } from './coalescer';
import { CompanyResponseDto, RegisterDescriptorDto, SearchResponseDto } from './dto/search-response.dto';
import { recognizeIdentifier } from './identifiers';
import { nameSimilarity } from './name-similarity';
import { requireParameters, resolveCountry, validateQuery } from './query-validation';

/** Where an answer came from, and how to describe it honestly. */
interface Provenance {
  status: RegisterStatus;
  warning?: string;
}

/**
 * Search and company lookup: validate, recognise a registration number offline, read the
 * register live (identical concurrent reads shared), fall back to the dataset when the
 * register is paused or fails, and say which happened.
 */
@Injectable()
export class SearchService {
  private readonly logger = new Logger(SearchService.name);
  private readonly coalescer = new Coalescer();

  constructor(
    private readonly connectors: ConnectorRegistry,
    private readonly dataset: DatasetService,
    private readonly config: AppConfig,
  ) {}

  async search(rawQuery: unknown, rawCountry: unknown): Promise<SearchResponseDto> {
    requireParameters({ q: rawQuery, country: rawCountry });
    const q = validateQuery(rawQuery);
    const register = resolveCountry(rawCountry);
    const id = recognizeIdentifier(register.country, q);
    if (id.kind === 'invalid') throw new ApiError('invalid_query', id.message, { errors: [{ field: 'q', code: 'invalid_query', message: id.message }] });
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
    );
    const results = rank(records, q, id.kind === 'number' ? id.registrationNumber : null).slice(0, limit);
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
    const number = validateQuery(rawNumber, 'registrationNumber');
    const id = recognizeIdentifier(register.country, number);
    if (id.kind === 'invalid') throw new ApiError('invalid_query', id.message, { errors: [{ field: 'registrationNumber', code: 'invalid_query', message: id.message }] });
    if (id.kind === 'name') {
      const message = `"${number.slice(0, 40)}" is not a ${register.short} registration number. Use /search?q= to search by name.`;
      throw new ApiError('invalid_query', message, { errors: [{ field: 'registrationNumber', code: 'invalid_query', message }] });
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
    );
    if (records.length === 0) {
      throw new ApiError('company_not_found', `${register.short} has no company with number ${id.registrationNumber}.`, provenance.warning ? { warning: provenance.warning } : {});
    }
    return {
      apiVersion: this.config.apiVersion,
      country: register.country,
      countryName: register.countryName,
      register: this.descriptor(register, provenance.status),
      company: records[0],
      attribution: this.attribution(register),
      ...(provenance.warning ? { warning: provenance.warning } : {}),
    };
  }

  /**
   * The read pipeline shared by search and lookup: live when the register can be read,
   * the dataset when it is paused or fails. A register failure with nothing in the
   * dataset to stand in is a 502.
   */
  private async read<T extends CompanyRecord>(
    register: RegisterDefinition,
    key: string,
    live: () => Promise<T[]>,
    fallback: () => Promise<T[]>,
  ): Promise<{ records: T[]; provenance: Provenance }> {
    const country = register.country;
    const pauseReason = this.connectors.pauseReason(country);
    if (pauseReason) {
      const records = await fallback();
      return { records, provenance: { status: 'paused', warning: await this.fallbackWarning(country, `${register.short} is paused: ${pauseReason}`, records.length) } };
    }
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
      if (err instanceof NameSearchUnsupportedError) {
        // Not a failure: the register has no live name search; the dataset is the answer.
        const records = await fallback();
        return { records, provenance: { status: 'degraded', warning: await this.fallbackWarning(country, `${register.short} offers no live name search`, records.length) } };
      }
      const failure = UpstreamError.from(err);
      this.logger.warn(`${country} live read failed: ${failure.errorClass} (${failure.message})`);
      const records = await fallback();
      if (records.length === 0) {
        throw new ApiError('upstream_error', `${register.short} did not answer (${failure.errorClass}) and the fallback dataset has no matching record.`, {
          register: register.name,
          errorClass: failure.errorClass,
        });
      }
      const source = this.connectors.get(country).source();
      return { records, provenance: { status: 'degraded', warning: await this.fallbackWarning(country, `${capitalize(source.description)} did not answer (${failure.errorClass})`, records.length) } };
    }
  }

  private async fallbackWarning(country: CountryCode, why: string, found: number): Promise<string> {
    const info = await this.dataset.datasetInfo(country);
    if (!info) return `${why}. No fallback dataset is loaded for ${country}, so nothing could be returned.`;
    const date = info.producedAt.toISOString().slice(0, 10);
    return `${why}. ${found > 0 ? 'Results come' : 'The answer comes'} from the fallback dataset "${info.datasetName}" (produced ${date}), not from a live read: records are not official and may be out of date.`;
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
    return `Data from ${register.name} (${register.officialUrl}), provided by Registry Lookup (${this.config.publicBaseUrl}). Reuse is subject to the register's own terms: ${register.reuseTermsUrl}`;
  }
}

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function stripOfficers(detail: CompanyDetail): CompanyRecord {
  const { officers: _officers, ...record } = detail;
  return record;
}

/** Exact registration-number match first, then name similarity to q; register order breaks ties. */
function rank<T extends CompanyRecord>(records: T[], q: string, number: string | null): T[] {
  return records
    .map((record, index) => ({
      record,
      index,
      exact: number !== null && (record.registrationNumber === number || (record.extra?.otherNumbers as string[] | undefined)?.includes(number)) ? 1 : 0,
      similarity: nameSimilarity(record.name, q),
    }))
    .sort((a, b) => b.exact - a.exact || b.similarity - a.similarity || a.index - b.index)
    .map((r) => r.record);
}
