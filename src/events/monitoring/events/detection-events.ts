import type { CountryCode } from '../../../registers/registers';
import { findRegister } from '../../../registers/registers';
import type { StreamedFiling } from '../../../registers/change-detection';
import type { Officer } from '../../../registers/connector';
import type { FieldChange } from '../snapshots/company-diff';
import { OfficerChange, officerChangeSummaries } from '../snapshots/officer-diff';

/**
 * `provenance.source_mode`: `live` — an official read of the register itself (its API, its
 * website, its change feed or stream); `mirror` — a public mirror of the register (France
 * without an INSEE key: recherche-entreprises), never presented as official. The fallback
 * dataset is never a source of detection.
 */
export type SourceMode = 'live' | 'mirror';

export interface Provenance {
  source_mode: SourceMode;
  source_url: string;
  retrieved_at: string;
}

export interface CompanyRef {
  entityId: string;
  country: CountryCode;
  registrationNumber: string;
  companyName: string | null;
}

function registerOf(country: CountryCode) {
  const r = findRegister(country)!;
  return { name: r.name, official_url: r.officialUrl };
}

function companyPart(c: CompanyRef) {
  return {
    entity_id: c.entityId,
    country: c.country,
    company_name: c.companyName,
    registration_number: c.registrationNumber,
    register: registerOf(c.country),
  };
}

/** `data` of company.*_changed: the contract's shape. */
export function changeEventData(
  company: CompanyRef,
  change: FieldChange,
  observedAt: string,
  provenance: Provenance,
): Record<string, unknown> {
  return {
    ...companyPart(company),
    change: { field: change.field, previous: change.previous, current: change.current, observed_at: observedAt },
    provenance,
  };
}

/** `data` of company.no_change: the company, `change: null`, when it was checked, and from what. */
export function noChangeEventData(
  company: CompanyRef,
  checkedAt: string,
  provenance: Provenance,
): Record<string, unknown> {
  return { ...companyPart(company), change: null, checked_at: checkedAt, provenance };
}

/** `data` of register.unavailable: which register, why, since when, where to follow it. */
export function registerUnavailableData(
  country: CountryCode,
  status: string,
  reason: string | null,
  since: string,
  statusUrl: string,
  watchedCompanies: number,
): Record<string, unknown> {
  return {
    country,
    register: registerOf(country),
    status,
    reason: reason ?? 'The register stopped answering.',
    since,
    status_url: statusUrl,
    watched_companies: watchedCompanies,
  };
}

/** `data` of register.available: the register answers again; the outage it ends, from its start to now. */
export function registerAvailableData(
  country: CountryCode,
  status: string,
  since: Date,
  until: Date,
  statusUrl: string,
  watchedCompanies: number,
): Record<string, unknown> {
  return {
    country,
    register: registerOf(country),
    status,
    outage: {
      started_at: since.toISOString(),
      ended_at: until.toISOString(),
      duration_seconds: Math.max(0, Math.round((until.getTime() - since.getTime()) / 1000)),
    },
    status_url: statusUrl,
    watched_companies: watchedCompanies,
  };
}

/** `data.officer`: the officer as the register writes it. */
function officerPart(o: Officer) {
  return { name: o.name, role: o.role, kind: o.kind, appointed_on: o.appointedOn, resigned_on: o.resignedOn };
}

/** `data` of company.officers_changed: `change` says what happened (field `officers`, its `action`), `officer` to whom. */
export function officersChangedEventData(
  company: CompanyRef,
  change: OfficerChange,
  observedAt: string,
  provenance: Provenance,
): Record<string, unknown> {
  return {
    ...companyPart(company),
    change: { field: 'officers', action: change.action, ...officerChangeSummaries(change), observed_at: observedAt },
    officer: officerPart(change.officer),
    provenance,
  };
}

/** `data` of company.filing_published: `change` (field `filings`) and the filing as the register lists it. */
export function filingPublishedEventData(
  company: CompanyRef,
  filing: StreamedFiling,
  observedAt: string,
  provenance: Provenance,
): Record<string, unknown> {
  const what = [filing.type, filing.date].filter(Boolean).join(', ');
  return {
    ...companyPart(company),
    change: {
      field: 'filings',
      action: 'published',
      previous: null,
      current: what ? `${filing.description} (${what})` : filing.description,
      observed_at: observedAt,
    },
    filing: {
      id: filing.resourceId,
      category: filing.category,
      type: filing.type,
      date: filing.date,
      description: filing.description,
      description_code: filing.descriptionCode,
      url: filing.url,
    },
    provenance,
  };
}
