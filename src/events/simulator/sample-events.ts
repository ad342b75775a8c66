import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { Clock } from '../../platform/clock';
import { ApiError } from '../../platform/errors/api-error';
import BUNDLED from '../../dataset/seed/bundled-sample.json';
import { BUNDLED_DATASET, BUNDLED_PRODUCED_AT } from '../../dataset/seed/bundled-sample';
import type { DatasetRow } from '../../registers/bulk/dataset-row';
import type { CompanyDetail, CompanyRecord, Officer } from '../../registers/connector';
import { entityId } from '../../registers/entity-id';
import { COUNTRY_CODES, CountryCode, REGISTER_TABLE, REGISTERS } from '../../registers/registers';
import { PublicAddress } from '../../platform/http/public-address';
import { SearchService } from '../../search/search.service';
import { registerAvailableData, registerUnavailableData } from '../monitoring/events/detection-events';
import { WatchService } from '../monitoring/watches/watch.service';
import { EventData, RegisterRef, sourceModeOf } from '../webhooks/events/envelope';
import { CHANGE_FIELD, ChangeKind, EventKind } from '../event-kinds';
import { plausibleChange } from './plausible-changes';

/**
 * The `data` of a test event, from real company data: the named company read as search
 * reads it (live, or the fallback dataset when the register does not answer — and
 * `provenance` says which), or a real company of the bundled sample (source_mode `dataset`).
 * An officer event names one of the company's real current officers when the read listed
 * any, else a placeholder officer in the register's words (`simulation.officer`); a filing
 * event, a filing as the register lists one (`simulation.filing`), filed today.
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
    if (kind === 'register.available') {
      const cc = country ?? pick(COUNTRY_CODES);
      return registerAvailableData(
        cc,
        'live',
        new Date(now.getTime() - 35 * 60_000),
        now,
        this.address.url('/api/public/v1/status'),
        await this.watches.watchedIn(accountId, cc),
      ) as unknown as EventData;
    }
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
    const only =
      kind === 'company.officers_changed' ? 'officer' : kind === 'company.filing_published' ? 'filing' : null;
    const company: CompanyRecord | CompanyDetail =
      registrationNumber && country
        ? ((await this.search.company(country, registrationNumber)).company as CompanyRecord)
        : bundledCompany(country, only);
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
    if (kind === 'company.officers_changed') {
      const officer = realOfficer(company) ?? placeholderOfficer(company.country, now);
      const summary = [officer.name, officer.role, officer.appointedOn && `appointed ${officer.appointedOn}`]
        .filter(Boolean)
        .join(', ');
      return {
        ...common,
        change: {
          field: 'officers',
          action: 'appointed',
          previous: null,
          current: summary,
          observed_at: now.toISOString(),
        },
        officer: {
          name: officer.name,
          role: officer.role,
          kind: officer.kind,
          appointed_on: officer.appointedOn,
          resigned_on: null,
        },
        provenance,
      };
    }
    if (kind === 'company.filing_published') {
      const filing = simulatedFiling(company, now);
      return {
        ...common,
        change: {
          field: 'filings',
          action: 'published',
          previous: null,
          current: `${filing.description} (${filing.type}, ${filing.date})`,
          observed_at: now.toISOString(),
        },
        filing,
        provenance,
      };
    }
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

/** A current officer of a company read with its officers, if any. */
function realOfficer(company: CompanyRecord | CompanyDetail): Officer | null {
  const officers = 'officers' in company ? company.officers : null;
  return officers?.find((o) => !o.resignedOn) ?? null;
}

function placeholderOfficer(country: CountryCode, now: Date): Officer {
  const o = REGISTERS[country].simulation.officer ?? { name: 'Jane Smith', role: 'Director' };
  return { ...o, kind: 'person', appointedOn: isoDay(new Date(now.getTime() - 86_400_000)), resignedOn: null };
}

function simulatedFiling(company: CompanyRecord, now: Date) {
  const f = REGISTERS[company.country].simulation.filing!;
  const id = randomBytes(18).toString('base64url');
  const madeUp = `${now.getUTCFullYear() - 1}-12-31`;
  const page = /\/company\/[A-Z0-9]+$/i.test(company.source.url) ? company.source.url : null;
  return {
    id,
    category: f.category,
    type: f.type,
    date: isoDay(now),
    description: f.description.replace('{made_up_date}', madeUp),
    description_code: f.descriptionCode,
    url: page ? `${page}/filing-history/${id}/document?format=pdf&download=0` : company.source.url,
  };
}

function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/** A real company of the bundled sample (of the country, when one is named; of a register that sends such events, for an officer or filing kind). */
function bundledCompany(country?: CountryCode, only: 'officer' | 'filing' | null = null): CompanyRecord {
  const rows = (BUNDLED as DatasetRow[]).filter(
    (r) => (!country || r.country === country) && (!only || REGISTERS[r.country].simulation[only]),
  );
  if (rows.length === 0) {
    // A register that never sends this kind: a test event of it would show what cannot happen.
    const field =
      country && only ? `${country} publishes no ${only === 'filing' ? 'filings' : 'officers'}` : 'no company';
    throw new ApiError(
      'invalid_body',
      `${field}: a test ${only ?? 'company'} event is simulated for a register that sends such events.`,
      {
        errors: [{ field: 'country', code: 'invalid_value', message: `${field} this event could be about` }],
      },
    );
  }
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
