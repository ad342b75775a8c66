import type { CompanyRecord, StatusCategory } from '../connector';
import { storableJson } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { lookupTable } from '../../platform/lookup-table';

/** What an ABN Lookup answer gives us, before the connector adds the provenance. */
export type AbrRecord = Omit<CompanyRecord, 'source'>;
type Json = Record<string, unknown>;

/**
 * The JSON inside an ABN Lookup JSONP body `callback({...})`. Only the callback name we sent is
 * accepted: anything else (an HTML error page, plain JSON, another function) is not an answer.
 */
export function unwrapJsonp(body: string, callback: string): unknown {
  const escaped = callback.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^\\s*${escaped}\\(([\\s\\S]*)\\)\\s*;?\\s*$`).exec(body);
  if (!match) throw UpstreamError.invalidResponse('ABN Lookup answer is not the expected JSONP callback');
  try {
    // After parsing: a NUL or a lone surrogate sent as an escape only exists once parsed.
    return storableJson(JSON.parse(match[1]) as unknown);
  } catch {
    throw UpstreamError.invalidResponse('ABN Lookup JSONP callback does not hold valid JSON');
  }
}

/**
 * ABN Lookup reports errors with HTTP 200 and a non-empty `Message`. "No record"-like messages
 * are an answer (nothing found); a GUID the ABR does not know is an authorisation failure; any
 * other message is something we cannot interpret.
 */
function checkMessage(payload: Json): 'ok' | 'not_found' {
  const message = typeof payload.Message === 'string' ? payload.Message.trim() : '';
  if (message === '') return 'ok';
  if (/no (matching )?records? (was |were )?found|not a valid (abn|acn)/i.test(message)) return 'not_found';
  if (/guid/i.test(message)) throw new UpstreamError('unauthorized', 'ABN Lookup did not accept the configured GUID');
  const safe = message.replace(/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}/gi, '<guid>').slice(0, 120);
  throw UpstreamError.invalidResponse(`ABN Lookup answered with an unknown message: "${safe}"`);
}

/** Company record from an AbnDetails / AcnDetails answer; null when the ABR has no such record. */
export function parseAbnDetails(payload: unknown): AbrRecord | null {
  if (!isObject(payload)) throw UpstreamError.invalidResponse('ABN Lookup answer is not a JSON object');
  if (checkMessage(payload) === 'not_found') return null;
  const abn = text(payload.Abn);
  const name = text(payload.EntityName);
  if (!abn || !/^\d{11}$/.test(abn) || !name) {
    // Never a blank record: an answer without an ABN or a name is not one we understand.
    throw UpstreamError.invalidResponse('ABN Lookup answer without an ABN or an entity name');
  }
  const status = text(payload.AbnStatus);
  const acn = digitsOrNull(payload.Acn, 9);
  return {
    name,
    registrationNumber: abn,
    country: 'AU',
    status,
    statusCategory: abnStatusCategory(status),
    legalForm: text(payload.EntityTypeName),
    address: stateAndPostcode(payload.AddressState, payload.AddressPostcode),
    // ABN Lookup publishes no street, no city and no incorporation date (an ABN status date is not one).
    city: null,
    incorporationDate: null,
    extra: {
      acn,
      otherNumbers: acn ? [acn] : [],
      abnStatusEffectiveFrom: isoDate(payload.AbnStatusEffectiveFrom),
      gstRegisteredFrom: isoDate(payload.Gst),
      entityTypeCode: text(payload.EntityTypeCode),
      businessNames: businessNames(payload.BusinessName),
    },
  };
}

/** MatchingNames results, one per ABN (the best-scored row), in the register's order. */
export function parseMatchingNames(payload: unknown): AbrRecord[] {
  if (!isObject(payload)) throw UpstreamError.invalidResponse('ABN Lookup answer is not a JSON object');
  if (checkMessage(payload) === 'not_found') return [];
  if (!Array.isArray(payload.Names))
    throw UpstreamError.invalidResponse('ABN Lookup MatchingNames answer without Names');
  const seen = new Set<string>();
  const records: AbrRecord[] = [];
  for (const row of payload.Names) {
    const abn = isObject(row) ? text(row.Abn) : null;
    const name = isObject(row) ? text(row.Name) : null;
    if (!isObject(row) || !abn || !/^\d{11}$/.test(abn) || !name) {
      throw UpstreamError.invalidResponse('ABN Lookup MatchingNames row without an ABN or a name');
    }
    if (seen.has(abn)) continue;
    seen.add(abn);
    const status = matchingNamesStatus(row.AbnStatus);
    records.push({
      name,
      registrationNumber: abn,
      country: 'AU',
      status,
      statusCategory: abnStatusCategory(status),
      legalForm: null,
      address: stateAndPostcode(row.State, row.Postcode),
      city: null,
      incorporationDate: null,
      extra: {
        nameType: text(row.NameType),
        isCurrentName: typeof row.IsCurrent === 'boolean' ? row.IsCurrent : null,
        score: typeof row.Score === 'number' ? row.Score : null,
      },
    });
  }
  return records;
}

// MatchingNames carries the ABN status as a code where AbnDetails has the word.
const STATUS_CODES: Record<string, string> = lookupTable({ '0000000001': 'Active', '0000000002': 'Cancelled' });

export function matchingNamesStatus(value: unknown): string | null {
  const s = text(value);
  if (!s) return null;
  if (STATUS_CODES[s]) return STATUS_CODES[s];
  return /^(Active|Cancelled)$/i.test(s) ? s : null;
}

/** ABN status → category: a cancelled ABN means the entity stopped trading under it. */
export function abnStatusCategory(status: string | null): StatusCategory {
  switch (status?.toLowerCase()) {
    case 'active':
      return 'active';
    case 'cancelled':
      return 'dissolved';
    default:
      return 'unknown';
  }
}

/** "NSW 2000": the only part of an address ABN Lookup publishes. */
function stateAndPostcode(state: unknown, postcode: unknown): string | null {
  const line = [text(state), text(postcode)].filter(Boolean).join(' ');
  return line || null;
}

function businessNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value
    .map((v) => (isObject(v) ? text(v.OrganisationName ?? v.Name) : text(v)))
    .filter((v): v is string => v !== null);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function digitsOrNull(value: unknown, length: number): string | null {
  const s = text(value);
  return s && new RegExp(`^\\d{${length}}$`).test(s) ? s : null;
}

function isoDate(value: unknown): string | null {
  const s = text(value);
  return s && /^\d{4}-\d{2}-\d{2}/.test(s) ? s.slice(0, 10) : null;
}
