import { ApiError } from '../platform/errors/api-error';
import { CountryCode, findRegister, REGISTER_TABLE, RegisterDefinition } from '../registers/registers';

/** Bounds of q, documented in OpenAPI and the README. */
export const QUERY_MIN_LENGTH = 2;
export const QUERY_MAX_LENGTH = 200;

/**
 * Checks q: present, given once, 2–200 characters after trimming, no control characters
 * (TAB, CR and LF included: no name or number holds one), and at least one letter or digit
 * (a name or a number, not punctuation or symbols only). Absent or empty is
 * missing_parameter; present but blank (only spaces) is invalid_query.
 * Returns it NFC-normalised with inner spaces collapsed.
 */
export function validateQuery(raw: unknown, field = 'q'): string {
  if (raw === undefined || raw === null || raw === '') throw ApiError.missingParameter(field);
  if (typeof raw !== 'string') throw invalid(field, `${field} must be given once, as a single string.`);
  if (/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\u2028\u2029]/u.test(raw)) {
    throw invalid(field, `${field} contains control characters (tab, line break…) or invisible formatting characters.`);
  }
  if (raw.trim() === '') throw invalid(field, `${field} is blank: give a company name or a registration number.`);
  const q = raw.normalize('NFC').replace(/\s+/g, ' ').trim();
  const length = [...q].length;
  if (length < QUERY_MIN_LENGTH)
    throw invalid(field, `${field} is too short: at least ${QUERY_MIN_LENGTH} characters.`);
  if (length > QUERY_MAX_LENGTH)
    throw invalid(field, `${field} is too long: at most ${QUERY_MAX_LENGTH} characters (got ${length}).`);
  if (!/[\p{L}\p{N}]/u.test(q))
    throw invalid(field, `${field} is not a name or a registration number: it has no letter or digit.`);
  return q;
}

/**
 * Checks a registration number given in a path: the rules of q, and only letters, digits,
 * spaces, dots and dashes (the separators people type inside numbers). A slash would let
 * `9%2F7%2F6…` pass for a number once separators are removed.
 */
export function validateRegistrationNumber(raw: unknown, field = 'registrationNumber'): string {
  const value = validateQuery(raw, field);
  if (!/^[\p{L}\p{N}][\p{L}\p{N} .-]*$/u.test(value)) {
    throw invalid(field, `${field} may hold only letters, digits, spaces, dots and dashes.`);
  }
  return value;
}

/** 400 missing_parameter naming every absent (or empty) parameter at once. */
export function requireParameters(params: Record<string, unknown>): void {
  const missing = Object.entries(params)
    .filter(([, v]) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0))
    .map(([k]) => k);
  if (missing.length === 0) return;
  throw new ApiError(
    'missing_parameter',
    `Required query parameter${missing.length > 1 ? 's' : ''} missing: ${missing.join(', ')}.`,
    {
      errors: missing.map((field) => ({ field, code: 'missing_parameter', message: `${field} is required` })),
    },
  );
}

/** Resolves a country parameter (case-insensitive ISO 3166-1 alpha-2) to its register. */
export function resolveCountry(raw: unknown): RegisterDefinition & { country: CountryCode } {
  if (raw === undefined || raw === null || raw === '') throw ApiError.missingParameter('country');
  // `?country=NO&country=GB`: which one was meant is not ours to guess (as for q).
  if (Array.isArray(raw)) throw invalid('country', 'country must be given once, as a single string.');
  if (typeof raw !== 'string' || !/^[A-Za-z]{2}$/.test(raw.trim())) {
    throw new ApiError(
      'country_not_covered',
      `country must be an ISO 3166-1 alpha-2 code (two letters); covered: ${covered()}.`,
    );
  }
  const register = findRegister(raw.trim());
  if (!register)
    throw new ApiError(
      'country_not_covered',
      `No register connector for "${raw.trim().toUpperCase()}"; covered: ${covered()}.`,
    );
  return register;
}

function covered(): string {
  return REGISTER_TABLE.map((r) => r.country).join(', ');
}

function invalid(field: string, message: string): ApiError {
  return new ApiError('invalid_query', message, { errors: [{ field, code: 'invalid_query', message }] });
}
