import type { CompanyRecord, Officer, StatusCategory } from '../connector';
import { UpstreamError } from '../upstream-error';
import { lookupTable } from '../../platform/lookup-table';

/** What a Corporations Canada answer gives us, before the connector adds the provenance. */
export type CorpCanRecord = Omit<CompanyRecord, 'source'>;
type Json = Record<string, unknown>;

/**
 * The federal corporation JSON (`api/corporations/{id}.json?lang=eng`, keyless, and the v1 of the
 * ISED gateway): a 2-element array `[english, french]`. An unknown number comes back as
 * `["could not find corporation N", "Corporation N est inconnu."]` → null.
 */
export function parseCorpCanCorporation(body: unknown): CorpCanRecord | null {
  if (!Array.isArray(body) || body.length === 0)
    throw UpstreamError.invalidResponse('Corporations Canada answer is not a JSON array');
  const [english] = body;
  if (typeof english === 'string' && /could not find corporation/i.test(english)) return null;
  if (!isObject(english)) throw UpstreamError.invalidResponse('Corporations Canada answer without an English record');

  const corporationId = text(english.corporationId);
  const name = currentName(english.corporationNames);
  if (!corporationId || !/^\d{1,8}$/.test(corporationId) || !name) {
    throw UpstreamError.invalidResponse('Corporations Canada record without a corporation number or a current name');
  }
  const status = wording(english.status);
  const address = currentAddress(english.adresses ?? english.addresses);
  const bn9 = businessNumber(english.businessNumbers);
  return {
    name,
    registrationNumber: corporationId,
    country: 'CA',
    status,
    statusCategory: corpCanStatusCategory(status),
    legalForm: wording(english.act),
    address: address ? formatAddress(address) : null,
    city: address ? text(address.city) : null,
    incorporationDate: incorporationDate(english.activities),
    extra: { businessNumber: bn9, otherNumbers: bn9 ? [bn9] : [] },
  };
}

/** Directors from the gateway's v2 `/directors` (HAL): persons, role "Director", no dates published. */
export function parseCorpCanDirectors(body: unknown): Officer[] {
  if (!isObject(body) || (!isObject(body._embedded) && !isObject(body._links))) {
    throw UpstreamError.invalidResponse('Corporations Canada directors answer is not a HAL document');
  }
  const directors = isObject(body._embedded) ? body._embedded.directors : undefined;
  if (directors === undefined) return [];
  if (!Array.isArray(directors)) throw UpstreamError.invalidResponse('Corporations Canada directors is not a list');
  return directors.map((d) => {
    const name = isObject(d) ? [text(d.firstName), text(d.lastName)].filter(Boolean).join(' ') : '';
    if (!name) throw UpstreamError.invalidResponse('Corporations Canada director without a name');
    return { name, role: 'Director', kind: 'person' as const, appointedOn: null, resignedOn: null };
  });
}

/** Open-data status codes with the register's English wording (shared/registers-dk-au-ca.md §3). */
export const CA_STATUS_WORDING: Readonly<Record<string, string>> = lookupTable({
  '1': 'Active',
  '2': 'Active - Intent to Dissolve Filed',
  '3': 'Active - Dissolution Pending (Non-compliance)',
  '4': 'Active - Discontinuance Pending',
  '9': 'Inactive - Amalgamated',
  '10': 'Inactive - Discontinued',
  '11': 'Dissolved',
  '19': 'Inactive',
});

const CATEGORY_BY_WORDING: Record<string, StatusCategory> = lookupTable({
  active: 'active',
  'active - discontinuance pending': 'active', // leaving federal jurisdiction, still alive
  'active - intent to dissolve filed': 'in_liquidation', // voluntary dissolution under way
  'active - dissolution pending (non-compliance)': 'struck_off', // being dissolved by the Director
  'inactive - amalgamated': 'dissolved',
  'inactive - discontinued': 'dissolved',
  dissolved: 'dissolved',
  // "Inactive" alone is not explained by the register: no category claimed.
});

export function corpCanStatusCategory(status: string | null): StatusCategory {
  if (!status) return 'unknown';
  const key = status
    .toLowerCase()
    .replace(/\s+[-‐‑–—]\s+/g, ' - ')
    .replace(/\s+/g, ' ')
    .trim();
  return CATEGORY_BY_WORDING[key] ?? 'unknown';
}

function currentName(list: unknown): string | null {
  const names = (Array.isArray(list) ? list : [])
    .map((n) => (isObject(n) && isObject(n.CorporationName) ? n.CorporationName : n))
    .filter(isObject);
  const current = names.filter((n) => n.current === true);
  const pick = current.find((n) => text(n.nameType)?.toLowerCase() === 'primary') ?? current[0] ?? null;
  return text(pick?.name);
}

function currentAddress(list: unknown): Json | null {
  const addresses = (Array.isArray(list) ? list : [])
    .map((a) => (isObject(a) && isObject(a.address) ? a.address : a))
    .filter(isObject);
  return addresses.find((a) => a.current === true) ?? addresses[0] ?? null;
}

/** "207 - 32900 SOUTH FRASER WAY, ABBOTSFORD BC V2S 5A1" (country only when not Canada). */
function formatAddress(a: Json): string | null {
  const lines = (Array.isArray(a.addressLine) ? a.addressLine : [a.addressLine]).map(text);
  const locality = [text(a.city), text(a.provinceCode), text(a.postalCode)].filter(Boolean).join(' ');
  const country = text(a.countryCode);
  const parts = [...lines, locality || null, country && country !== 'CA' ? country : null].filter(
    (p): p is string => !!p,
  );
  return parts.length > 0 ? parts.join(', ') : null;
}

function incorporationDate(list: unknown): string | null {
  for (const entry of Array.isArray(list) ? list : []) {
    const activity = isObject(entry) && isObject(entry.activity) ? entry.activity : entry;
    if (isObject(activity) && text(activity.activity)?.toLowerCase() === 'incorporation') {
      const date = text(activity.date);
      if (date && /^\d{4}-\d{2}-\d{2}/.test(date)) return date.slice(0, 10);
    }
  }
  return null;
}

function businessNumber(value: unknown): string | null {
  const raw = isObject(value) ? value.businessNumber : Array.isArray(value) ? value[0] : value;
  const bn = text(isObject(raw) ? raw.businessNumber : raw);
  return bn && /^\d{9}/.test(bn) ? bn.slice(0, 9) : null;
}

/** A text value, or the `text` of a `{code, text}` object. */
function wording(value: unknown): string | null {
  return isObject(value) ? text(value.text ?? value.description) : text(value);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
