import { lookupTable } from '../../platform/lookup-table';
import type { CompanyRecord, StatusCategory } from '../connector';
import { UpstreamError } from '../upstream-error';
import { FI } from './fi.definition';
import { BUSINESS_ID } from './fi.identifier';

/** What a parsed PRH company carries before the connector adds provenance. */
export type PrhRecord = Omit<CompanyRecord, 'source'>;

type Json = Record<string, unknown>;

/** `languageCode` of descriptions and post offices: 1 suomi, 2 ruotsi, 3 englanti (schema `DescriptionEntry`). */
const FINNISH = '1';
/** `registeredEntries[].register` of the trade register (kaupparekisteri): the schema's `'1_0'` example. */
const TRADE_REGISTER = '1';

/**
 * Words of `tradeRegisterStatus` (code list REK_KDI) for when the company's trade register
 * entry carries none: "1" as the recorded Nokia entry describes it, "0" as the schema explains
 * `'1_0'` ("rekisteröimätön kaupparekisterissä"). Other codes' words come only from the entry.
 */
const TRADE_REGISTER_WORDS = lookupTable({ '0': 'Rekisteröimätön', '1': 'Rekisterissä' });

/**
 * `companySituations[].type` (SANE, SELTILA, KONK): the answer has no words for them, so they
 * are the schema's own ("mahdollinen saneeraus, selvitystila tai konkurssi"). Checked in this
 * order: a bankruptcy outweighs a liquidation, which outweighs a restructuring.
 */
const SITUATIONS = [
  ['KONK', 'Konkurssi', 'insolvency'],
  ['SELTILA', 'Selvitystila', 'in_liquidation'],
  ['SANE', 'Saneeraus', 'insolvency'],
] as const;

/**
 * Finnish words of `companyForms[].type` (code list YRMU) for an answer whose form has no
 * Finnish description: only the codes whose words a real answer showed (17 in the recorded
 * Nokia answer, 16 per registers-next.md). The full list is `/description?code=YRMU&lang=fi`.
 */
const COMPANY_FORMS = lookupTable({ '16': 'Osakeyhtiö', '17': 'Julkinen osakeyhtiö' });

/**
 * The `companies` of a `/companies` answer (`{totalResults, companies[]}`). Anything else
 * (an error body, an HTML page parsed as text) is an invalid response.
 */
export function prhCompanies(body: unknown): unknown[] {
  if (!isObject(body) || !Array.isArray(body.companies)) {
    throw UpstreamError.invalidResponse('PRH sent an answer without a companies list');
  }
  return body.companies;
}

/** Every company of a `/companies` answer, in the register's order. */
export function parsePrhSearch(body: unknown): PrhRecord[] {
  return prhCompanies(body).map(parsePrhCompany);
}

/**
 * One company of a `/companies` answer (the same object the `/all_companies` dump holds).
 * Throws UpstreamError only when it is not a company: no business ID or no trade name.
 */
export function parsePrhCompany(item: unknown): PrhRecord {
  const company = isObject(item) ? item : null;
  const businessId = company && isObject(company.businessId) ? text(company.businessId.value) : null;
  const name = company ? prhName(company) : null;
  if (!company || !businessId || !BUSINESS_ID.test(businessId) || !name) {
    throw UpstreamError.invalidResponse('PRH sent a company without a business ID or a trade name');
  }
  const form = currentEntry(objects(company.companyForms));
  const formCode = form ? code(form.type) : null;
  const address = registeredAddress(objects(company.addresses));
  const { status, statusCategory } = prhStatus(company);
  return {
    name,
    registrationNumber: businessId,
    country: FI,
    status,
    statusCategory,
    legalForm: (form && finnish(form.descriptions)) ?? (formCode ? COMPANY_FORMS[formCode] : undefined) ?? null,
    address: address ? formatPrhAddress(address) : null,
    city: address ? postOffice(address) : null,
    incorporationDate: prhDate(company.registrationDate),
    extra: prhExtra(company, formCode),
  };
}

/**
 * The current trade name: `names[]` of type 1 (päätoiminimi) without an end date, version 1
 * first (the schema: "1 nykyinen versio"). An ended company may have ended its name too: then
 * version 1, else the latest registered.
 */
export function prhName(company: Json): string | null {
  const main = objects(company.names).filter((n) => code(n.type) === '1' && text(n.name));
  const chosen =
    currentEntry(main) ??
    [...main].sort((a, b) => (prhDate(b.registrationDate) ?? '').localeCompare(prhDate(a.registrationDate) ?? ''))[0];
  return chosen ? text(chosen.name) : null;
}

/**
 * Status in the register's words, in this order: ended (`endDate`, "Lakkaamispäivä" in the
 * schema: "Lakannut"), a current bankruptcy, liquidation or restructuring, else the trade
 * register state (`tradeRegisterStatus`) as the company's trade register entry words it.
 * Only "1" (registered) is known to mean active; other codes are left `unknown`.
 */
export function prhStatus(company: Json): { status: string | null; statusCategory: StatusCategory } {
  if (text(company.endDate)) return { status: 'Lakannut', statusCategory: 'dissolved' };
  const situations = new Set(
    objects(company.companySituations)
      .filter((s) => !text(s.endDate))
      .map((s) => code(s.type)),
  );
  for (const [type, status, statusCategory] of SITUATIONS) {
    if (situations.has(type)) return { status, statusCategory };
  }
  const state = code(company.tradeRegisterStatus);
  if (state === null) return { status: null, statusCategory: 'unknown' };
  const entry = objects(company.registeredEntries).find(
    (e) => code(e.register) === TRADE_REGISTER && code(e.type) === state && !text(e.endDate),
  );
  return {
    status: (entry && finnish(entry.descriptions)) ?? TRADE_REGISTER_WORDS[state] ?? null,
    statusCategory: state === '1' ? 'active' : 'unknown',
  };
}

/**
 * One line from a structured address: "c/o …", street, building, entrance, apartment (and its
 * letter), "PL <box>" (postilokero), post code and post office, a foreign country code. A
 * foreign `freeAddressLine` has its spaces written as `_` (schema): they are spaces again.
 */
export function formatPrhAddress(a: Json): string | null {
  const co = text(a.co);
  const coLine = co ? (/^c\/o\b/i.test(co) ? co : `c/o ${co}`) : null;
  const free = text(a.freeAddressLine);
  if (free) return joinLines([coLine, text(free.replace(/_/g, ' '))]);
  const street = joinWords([a.street, a.buildingNumber, a.entrance, a.apartmentNumber, a.apartmentIdSuffix]);
  const box = text(a.postOfficeBox);
  const country = code(a.country)?.toUpperCase();
  return joinLines([
    coLine,
    street,
    box ? `PL ${box}` : null,
    joinWords([a.postCode, postOffice(a)]),
    country && country !== 'FI' ? country : null,
  ]);
}

/** The record's page in the YTJ information service. */
export function prhRecordUrl(webBase: string, businessId: string): string {
  return `${webBase}/yritys/${businessId}`;
}

/** YYYY-MM-DD of a real day with a real year (1600–2100), or null. */
export function prhDate(value: unknown): string | null {
  const t = text(value);
  const m = t ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(t) : null;
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1600 || y > 2100 || mo < 1 || mo > 12 || d < 1) return null;
  return d <= new Date(Date.UTC(y, mo, 0)).getUTCDate() ? t : null;
}

function prhExtra(company: Json, formCode: string | null): Record<string, unknown> {
  const businessId = isObject(company.businessId) ? company.businessId : {};
  const euId = isObject(company.euId) ? text(company.euId.value) : null;
  const lastModified = text(company.lastModified);
  const situations = objects(company.companySituations)
    .filter((s) => !text(s.endDate) && SITUATIONS.some(([type]) => type === code(s.type)))
    .map((s) => ({ type: code(s.type), registrationDate: prhDate(s.registrationDate) }));
  const extra: Record<string, unknown> = {
    companyForm: formCode,
    tradeRegisterStatus: code(company.tradeRegisterStatus),
    businessIdRegistrationDate: prhDate(businessId.registrationDate),
    euId: euId && /^FIFPRO\.\d{7}-\d$/.test(euId) ? euId : null,
    endDate: prhDate(company.endDate),
    companySituations: situations.length ? situations : null,
    lastModified:
      lastModified && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(lastModified) && prhDate(lastModified.slice(0, 10))
        ? lastModified
        : null,
  };
  for (const key of Object.keys(extra)) if (extra[key] === null) delete extra[key];
  return extra;
}

/** The street (visiting) address, type 1, else the postal one, type 2: the first that says something. */
function registeredAddress(addresses: Json[]): Json | null {
  const said = addresses.filter((a) => formatPrhAddress(a) !== null);
  return said.find((a) => code(a.type) === '1') ?? said.find((a) => code(a.type) === '2') ?? said[0] ?? null;
}

/** The Finnish name of the post office, spelt as the register spells it (ESPOO), else any. */
function postOffice(a: Json): string | null {
  const offices = objects(a.postOffices).filter((o) => text(o.city));
  const office = offices.find((o) => code(o.languageCode) === FINNISH) ?? offices[0];
  return office ? text(office.city) : null;
}

/**
 * The current entry of a history (names, forms): without an end date, version 1 first; when
 * all have ended (an ended company), version 1 ("1 nykyinen versio", schema).
 */
function currentEntry(entries: Json[]): Json | undefined {
  const open = entries.filter((e) => !text(e.endDate));
  const latest = (e: Json) => code(e.version) === '1';
  return open.find(latest) ?? open[0] ?? entries.find(latest);
}

function finnish(descriptions: unknown): string | null {
  const entry = objects(descriptions).find((d) => code(d.languageCode) === FINNISH);
  return entry ? text(entry.description) : null;
}

function joinWords(parts: unknown[]): string | null {
  return text(parts.map(text).filter(Boolean).join(' '));
}

function joinLines(parts: Array<string | null>): string | null {
  return text(parts.filter(Boolean).join(', '));
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function objects(v: unknown): Json[] {
  return Array.isArray(v) ? v.filter(isObject) : [];
}

/** Trimmed text with runs of white space made one space; null for anything else or nothing. */
function text(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const t = v.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

/** A code: the register writes most as strings ("1") but some as integers (`addresses[].type`). */
function code(v: unknown): string | null {
  return typeof v === 'number' && Number.isInteger(v) ? String(v) : text(v);
}
