import { Injectable } from '@nestjs/common';
import { Clock } from '../../platform/clock';
import BUNDLED from '../../dataset/seed/bundled-sample.json';
import { BUNDLED_DATASET, BUNDLED_PRODUCED_AT } from '../../dataset/seed/bundled-sample';
import type { DatasetRow } from '../../registers/bulk/dataset-row';
import type { CompanyRecord } from '../../registers/connector';
import { entityId } from '../../registers/entity-id';
import { COUNTRY_CODES, CountryCode, REGISTER_TABLE } from '../../registers/registers';
import { PublicAddress } from '../../platform/http/public-address';
import { SearchService } from '../../search/search.service';
import { registerUnavailableData } from '../monitoring/events/detection-events';
import { WatchService } from '../monitoring/watches/watch.service';
import { EventData, RegisterRef, sourceModeOf } from '../webhooks/events/envelope';
import { CHANGE_FIELD, ChangeKind, EventKind } from '../event-kinds';
import { plausibleChange } from './plausible-changes';

/**
 * The `data` of a test event, from real company data: the named company read as search
 * reads it (live, or the fallback dataset when the register does not answer — and
 * `provenance` says which), or a real company of the bundled sample (source_mode `dataset`).
 */
@Injectable()
export class SampleEvents {
  constructor(
    private readonly search: SearchService,
    private readonly watches: WatchService,
    private readonly address: PublicAddress,
    private readonly clock: Clock,
  ) {}

  async data(
    accountId: string,
    kind: EventKind,
    country?: CountryCode,
    registrationNumber?: string,
  ): Promise<EventData> {
    const now = this.clock.now();
    if (kind === 'register.unavailable') {
      // Built as detection builds the real one: the same fields, the account's own watch count.
      const cc = country ?? pick(COUNTRY_CODES);
      return registerUnavailableData(
        cc,
        'degraded',
        'Simulated: the register did not answer the service’s probe (timeout).',
        new Date(now.getTime() - 5 * 60_000).toISOString(),
        this.address.url('/api/public/v1/status'),
        await this.watches.watchedIn(accountId, cc),
      ) as unknown as EventData;
    }
    const company: CompanyRecord =
      registrationNumber && country
        ? ((await this.search.company(country, registrationNumber)).company as CompanyRecord)
        : bundledCompany(country);
    const common = {
      entity_id: entityId(company.country, company.registrationNumber),
      country: company.country,
      company_name: company.name,
      registration_number: company.registrationNumber,
      register: registerRef(company.country),
    };
    const provenance = {
      source_mode: sourceModeOf(company.source.kind),
      source_url: company.source.url,
      retrieved_at: company.source.retrievedAt,
    };
    if (kind === 'company.no_change') return { ...common, change: null, checked_at: now.toISOString(), provenance };
    const change = plausibleChange(kind as ChangeKind, company);
    return {
      ...common,
      change: { field: CHANGE_FIELD[kind as ChangeKind], ...change, observed_at: now.toISOString() },
      provenance,
    };
  }
}

function registerRef(country: CountryCode): RegisterRef {
  const def = REGISTER_TABLE.find((r) => r.country === country)!;
  return { name: def.name, official_url: def.officialUrl };
}

/** A real company of the bundled sample (of the country, when one is named). */
function bundledCompany(country?: CountryCode): CompanyRecord {
  const rows = (BUNDLED as DatasetRow[]).filter((r) => !country || r.country === country);
  const r = pick(rows);
  return {
    name: r.name,
    registrationNumber: r.registrationNumber,
    country: r.country,
    status: r.status,
    statusCategory: r.statusCategory,
    legalForm: r.legalForm,
    address: r.address,
    city: r.city,
    incorporationDate: r.incorporationDate,
    source: {
      register: registerRef(r.country).name,
      url: r.sourceUrl,
      official: false,
      kind: `dataset:${BUNDLED_DATASET}`,
      retrievedAt: BUNDLED_PRODUCED_AT,
    },
  };
}

function pick<T>(list: readonly T[]): T {
  return list[Math.floor(Math.random() * list.length)];
}
