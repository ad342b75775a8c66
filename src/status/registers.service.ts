import { Injectable } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { ApiError } from '../platform/errors/api-error';
import { REGISTER_STATUSES, RegisterStatus } from './register-status';
import { CurrentStatus, RegisterStatusService } from './register-status.service';
import { ConnectorRegistry } from '../registers/connector-registry';
import { IndexDto, RegisterDto, RegisterListDto } from './dto/register.dto';
import { CountryCode, REGISTER_TABLE, RegisterProvides, REGISTERS } from '../registers/registers';
import { LEI_DEFINITION } from '../registers/lei/lei.definition';
import { LEI_INDEX, type SourceId } from '../registers/source-id';

export const PROVIDES_VALUES = ['officers', 'filings', 'monitoring'] as const;

export interface RegisterFilters {
  provides?: unknown;
  status?: unknown;
}

@Injectable()
export class RegistersService {
  constructor(
    private readonly statuses: RegisterStatusService,
    private readonly connectors: ConnectorRegistry,
    private readonly config: AppConfig,
  ) {}

  /** The last serialization of the unfiltered list, the values it was made of, and the statuses it was last found current for. */
  private rendered?: { key: unknown[]; json: string; checkedFor: ReadonlyMap<SourceId, CurrentStatus> };

  /**
   * The registers of the table, filtered: `provides` keeps registers that provide every
   * listed capability, `status` keeps registers in any listed status. Both take one value or
   * a comma-separated list, and apply to the indexes as well.
   */
  async list(filters: RegisterFilters): Promise<RegisterListDto> {
    const provides = parseList('provides', filters.provides, PROVIDES_VALUES);
    const status = parseList('status', filters.status, REGISTER_STATUSES);
    const current = await this.statuses.all();
    const kept = (r: { provides: RegisterProvides; status: RegisterStatus }) =>
      provides.every((p) => r.provides[p as keyof RegisterProvides]) &&
      (status.length === 0 || status.includes(r.status));
    const registers = this.describeFrom(current).filter(kept);
    const indexes = this.indexesFrom(current).filter(kept);
    return { apiVersion: this.config.apiVersion, count: registers.length, registers, indexes };
  }

  /**
   * The unfiltered list as JSON, the same string as long as nothing it says has changed. GET
   * /registers is the most frequent request, and its body changes only when a status does:
   * serializing it (and hashing it for the ETag) once per change rather than once per request.
   * Whether it changed is decided from the very values the body is made of, read afresh each
   * time, so a probe's new status is in the next answer.
   */
  async listJson(): Promise<string> {
    return this.listJsonFrom(await this.statuses.all());
  }

  /**
   * `listJson()` without waiting, when the statuses it was last found current for are still
   * the fresh ones (the common case: they are read at most once a second); otherwise undefined.
   */
  listJsonIfFresh(): string | undefined {
    const current = this.statuses.allIfFresh();
    return current && this.rendered?.checkedFor === current ? this.rendered.json : undefined;
  }

  private listJsonFrom(current: ReadonlyMap<SourceId, CurrentStatus>): string {
    if (this.rendered?.checkedFor === current) return this.rendered.json;
    const sources = REGISTER_TABLE.map((def) => this.connectors.get(def.country).source());
    const key: unknown[] = [this.config.apiVersion];
    REGISTER_TABLE.forEach((def, i) => {
      const s = current.get(def.country)!;
      key.push(
        s.status,
        s.reason,
        s.changedAt?.getTime() ?? null,
        sources[i].kind,
        sources[i].official,
        sources[i].description,
      );
    });
    const lei = current.get(LEI_INDEX)!;
    key.push(lei.status, lei.reason, lei.changedAt?.getTime() ?? null);
    const cached = this.rendered;
    if (cached && cached.key.length === key.length && cached.key.every((v, i) => v === key[i])) {
      cached.checkedFor = current;
      return cached.json;
    }
    const registers = this.describeFrom(current);
    const json = JSON.stringify({
      apiVersion: this.config.apiVersion,
      count: registers.length,
      registers,
      indexes: this.indexesFrom(current),
    } satisfies RegisterListDto);
    this.rendered = { key, json, checkedFor: current };
    return json;
  }

  private describeFrom(current: ReadonlyMap<SourceId, CurrentStatus>): RegisterDto[] {
    return REGISTER_TABLE.map((def) => {
      const s = current.get(def.country)!;
      const source = this.connectors.get(def.country).source();
      return {
        country: def.country,
        countryName: def.countryName,
        name: def.name,
        short: def.short,
        officialUrl: def.officialUrl,
        reuseTermsUrl: def.reuseTermsUrl,
        status: s.status as RegisterStatus,
        statusReason: s.reason,
        statusChangedAt: s.changedAt?.toISOString() ?? null,
        provides: { ...def.provides, filings: this.providesFilings(def.country) },
        liveSource: { kind: source.kind, official: source.official, description: source.description },
      };
    });
  }

  /** Filings are provided where detection sends company.filing_published under the configuration (GB with a stream key). */
  private providesFilings(country: CountryCode): boolean {
    const plan = REGISTERS[country].changeDetection;
    return plan.filings?.(this.connectors.depsOf(country).settings) ?? false;
  }

  /** GLEIF's LEI index, described like a register. */
  private indexesFrom(current: ReadonlyMap<SourceId, CurrentStatus>): IndexDto[] {
    const s = current.get(LEI_INDEX)!;
    return [
      {
        id: LEI_INDEX,
        name: LEI_DEFINITION.name,
        short: LEI_DEFINITION.short,
        officialUrl: LEI_DEFINITION.officialUrl,
        reuseTermsUrl: LEI_DEFINITION.reuseTermsUrl,
        licence: LEI_DEFINITION.licence,
        status: s.status,
        statusReason: s.reason,
        statusChangedAt: s.changedAt?.toISOString() ?? null,
        provides: { officers: false, filings: false, monitoring: false },
        liveSource: {
          kind: 'lei_index',
          official: true,
          description: `${LEI_DEFINITION.short}’s own API (the LEI records)`,
        },
        lookupPath: '/api/public/v1/lei/{lei}',
      },
    ];
  }
}

function parseList<T extends string>(field: string, raw: unknown, allowed: readonly T[]): T[] {
  if (raw === undefined) return [];
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [null]));
  const bad = values.filter((v) => v === null || !allowed.includes(v.trim().toLowerCase() as T));
  if (bad.length > 0 || values.length === 0) {
    const shown = bad.filter((v): v is string => v !== null).map((v) => `"${v.slice(0, 40)}"`);
    throw ApiError.invalidParameter(
      field,
      `${field} ${shown.length ? `has an unknown value ${shown.join(', ')}` : 'is malformed'}; allowed values: ${allowed.join(', ')} (one, or several separated by commas).`,
    );
  }
  return values.map((v) => v!.trim().toLowerCase() as T);
}
