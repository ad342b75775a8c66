import { z } from 'zod';
import type { CompanyRecord, Officer, StatusCategory } from '../connector';
import { collapseSpaces } from '../bulk/values';
import { UpstreamError } from '../upstream-error';
import {
  COMPANY_STATUS_CATEGORIES,
  COMPANY_STATUS_DETAIL_LABELS,
  COMPANY_STATUS_LABELS,
  COMPANY_TYPE_LABELS,
  OFFICER_ROLE_LABELS,
} from './ch-constants';

/** What a parsed Companies House answer carries before provenance is added. */
export type ChRecord = Omit<CompanyRecord, 'source'>;

const text = z.string().nullish();

const address = z.object({
  care_of: text,
  po_box: text,
  premises: text,
  address_line_1: text,
  address_line_2: text,
  locality: text,
  region: text,
  country: text,
  postal_code: text,
});
type ChAddress = z.infer<typeof address>;

const profile = z.object({
  company_number: z.string().min(1),
  company_name: z.string().min(1),
  company_status: text,
  company_status_detail: text,
  type: text,
  date_of_creation: text,
  date_of_cessation: text,
  jurisdiction: text,
  registered_office_address: address.nullish(),
});

const searchItem = z.object({
  company_number: z.string().min(1),
  title: z.string().min(1),
  company_status: text,
  company_type: text,
  date_of_creation: text,
  date_of_cessation: text,
  address: address.nullish(),
  address_snippet: text,
});
const search = z
  .object({ items: z.array(searchItem).nullish(), total_results: z.number().nullish() })
  .refine((s) => Array.isArray(s.items) || typeof s.total_results === 'number', 'neither items nor total_results');

const officerList = z.object({
  items: z
    .array(
      z.object({
        name: z.string().min(1),
        officer_role: z.string().min(1),
        appointed_on: text,
        resigned_on: text,
      }),
    )
    .nullish(),
  total_results: z.number().nullish(),
});

/** The register's wording of a status: its label, with the detail as the website shows it ("Active — Active proposal to strike off"). */
export function chStatus(
  code: string | null | undefined,
  detail?: string | null,
): { status: string | null; statusCategory: StatusCategory } {
  if (!code) return { status: null, statusCategory: 'unknown' };
  const label = COMPANY_STATUS_LABELS[code] ?? code;
  const detailLabel = detail ? (COMPANY_STATUS_DETAIL_LABELS[detail] ?? detail) : '';
  return {
    status: detailLabel ? `${label} — ${detailLabel}` : label,
    statusCategory: COMPANY_STATUS_CATEGORIES[code] ?? 'unknown',
  };
}

export function chLegalForm(type: string | null | undefined): string | null {
  return type ? (COMPANY_TYPE_LABELS[type] ?? type) : null;
}

export function parseCompanyProfile(body: unknown): ChRecord {
  const parsed = profile.safeParse(body);
  if (!parsed.success)
    throw UpstreamError.invalidResponse(
      'Companies House sent a company profile without company_number or company_name',
    );
  const p = parsed.data;
  const roa = p.registered_office_address ?? null;
  return {
    name: squashName(p.company_name),
    registrationNumber: p.company_number.trim().toUpperCase(),
    country: 'GB',
    ...chStatus(p.company_status, p.company_status_detail),
    legalForm: chLegalForm(p.type),
    address: roa ? formatChAddress(roa) : null,
    city: roa?.locality?.trim() || null,
    incorporationDate: isoDate(p.date_of_creation),
    extra: compact({
      companyStatus: p.company_status,
      companyStatusDetail: p.company_status_detail,
      companyType: p.type,
      jurisdiction: p.jurisdiction,
      dateOfCessation: isoDate(p.date_of_cessation),
    }),
  };
}

export function parseCompanySearch(body: unknown): ChRecord[] {
  const parsed = search.safeParse(body);
  if (!parsed.success) throw UpstreamError.invalidResponse('Companies House sent a search answer without items');
  return (parsed.data.items ?? []).map((item) => ({
    name: squashName(item.title),
    registrationNumber: item.company_number.trim().toUpperCase(),
    country: 'GB' as const,
    ...chStatus(item.company_status),
    legalForm: chLegalForm(item.company_type),
    address: item.address ? formatChAddress(item.address) : item.address_snippet?.trim() || null,
    city: item.address?.locality?.trim() || null,
    incorporationDate: isoDate(item.date_of_creation),
    extra: compact({
      companyStatus: item.company_status,
      companyType: item.company_type,
      dateOfCessation: isoDate(item.date_of_cessation),
    }),
  }));
}

/** Officers (current and resigned) with Companies House's role labels; corporate-* roles are companies. */
export function parseOfficerList(body: unknown): { officers: Officer[]; totalResults: number | null } {
  const parsed = officerList.safeParse(body);
  if (!parsed.success)
    throw UpstreamError.invalidResponse('Companies House sent an officer list without names or roles');
  const officers = (parsed.data.items ?? []).map(toOfficer);
  return { officers, totalResults: parsed.data.total_results ?? null };
}

/** One appointment as Companies House serves it (the officers list, or the officers stream's `data`). */
export function toOfficer(o: {
  name: string;
  officer_role: string;
  appointed_on?: string | null;
  resigned_on?: string | null;
}): Officer {
  return {
    name: o.name.trim(),
    role: OFFICER_ROLE_LABELS[o.officer_role] ?? o.officer_role,
    kind: o.officer_role.startsWith('corporate-') ? 'company' : 'person',
    appointedOn: isoDate(o.appointed_on),
    resignedOn: isoDate(o.resigned_on),
  };
}

/** An appointment of the officers stream (the same document as `/company/{n}/appointments/{id}`); null without name or role. */
export function parseStreamedAppointment(data: unknown): Officer | null {
  const parsed = officerList.shape.items.unwrap().unwrap().element.safeParse(data);
  return parsed.success ? toOfficer(parsed.data) : null;
}

/** A part of an address trimmed, without its trailing comma, its runs of white space made one space; null when empty. */
function cleanAddressPart(v: string | null | undefined): string | null {
  if (!v) return null;
  let t = v.trim();
  if (t.endsWith(',')) t = t.slice(0, -1);
  return collapseSpaces(t) || null;
}

/**
 * One line in Companies House's own order (as its `address_snippet`): care of, PO box,
 * premises and street, locality, region, country, postcode. A premises that is a house
 * number ("74", "20-22") runs into the street: "74 Lairgate".
 */
export function formatChAddress(a: ChAddress): string | null {
  const clean = cleanAddressPart;
  const premises = clean(a.premises);
  const line1 = clean(a.address_line_1);
  const street =
    premises && line1 && /^\d[\dA-Za-z]*(?:\s*[-/]\s*\d+[A-Za-z]?)?$/.test(premises)
      ? [`${premises} ${line1}`]
      : [premises, line1];
  const careOf = clean(a.care_of);
  const poBox = clean(a.po_box);
  const parts = [
    careOf ? `C/O ${careOf}` : null,
    poBox ? (/^\d+$/.test(poBox) ? `PO Box ${poBox}` : poBox) : null,
    ...street,
    clean(a.address_line_2),
    clean(a.locality),
    clean(a.region),
    clean(a.country),
    clean(a.postal_code),
  ].filter((p): p is string => Boolean(p));
  return parts.length ? parts.join(', ') : null;
}

/**
 * Companies House names often carry a double space before the suffix ("YOU  LIMITED"); its
 * website shows them collapsed. Collapsed here too, so that the API and the website give the
 * same name and switching source never reads as a name change.
 */
function squashName(name: string): string {
  return name.replace(/\s+/g, ' ').trim();
}

function isoDate(value: string | null | undefined): string | null {
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : null;
}

function compact(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined && v !== ''));
}
