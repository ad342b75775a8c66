import { z } from 'zod';
import { ApiError } from '../../../platform/errors/api-error';
import { fieldErrors, parseBody, summary } from '../../../platform/validation/zod-input';
import { entityId } from '../../../registers/entity-id';
import { CountryCode, findRegister, REGISTER_TABLE } from '../../../registers/registers';
import { REGISTERS } from '../../../registers/registers';

/** Rows one bulk request may hold (a KYC portfolio). */
export const BULK_MAX_WATCHES = 10_000;

/** The code of a request body that is not acceptable. */
export const BODY_ERROR = 'invalid_body' as const;

export const watchInputSchema = z
  .object({
    country: z.string().max(8),
    registrationNumber: z.string().min(1).max(64),
    notifyNoChange: z.boolean().optional(),
  })
  .strict();

export interface WatchTarget {
  country: CountryCode;
  registrationNumber: string;
  entityId: string;
  notifyNoChange: boolean;
}

/**
 * A watch request checked like search checks a query: the country must be one of the six
 * (404 country_not_covered), and the number must be in the register's format with a good
 * check digit (400), normalised as the register keys it.
 */
export function resolveWatchTarget(raw: unknown, field = ''): WatchTarget {
  const { country: rawCountry, registrationNumber: rawNumber, notifyNoChange } = checkedInput(raw, field);
  const register = /^[A-Za-z]{2}$/.test(rawCountry.trim()) ? findRegister(rawCountry.trim()) : undefined;
  if (!register) {
    throw new ApiError(
      'country_not_covered',
      `No register is watched for "${rawCountry.slice(0, 8)}"; covered: ${REGISTER_TABLE.map((r) => r.country).join(', ')}.`,
    );
  }
  const country = register.country;
  const match = REGISTERS[country].recognizeIdentifier(rawNumber.normalize('NFC').trim());
  // A number the register cannot be asked for (a NIP at KRS) could never be read: refused, not watched.
  if (match.kind !== 'number' || match.datasetOnly) {
    const message =
      match.kind === 'invalid'
        ? match.message
        : match.kind === 'number'
          ? `${match.registrationNumber} is a ${match.scheme.toUpperCase()}, not a ${register.short} registration number: watch the company by its ${register.short} number (a search by this number finds it where the service holds it).`
          : `"${rawNumber.slice(0, 64)}" is not a ${register.short} registration number.`;
    throw new ApiError(BODY_ERROR, message, {
      errors: [{ field: `${field}registrationNumber`, code: 'invalid_registration_number', message }],
    });
  }
  return {
    country,
    registrationNumber: match.registrationNumber,
    entityId: entityId(country, match.registrationNumber),
    notifyNoChange: notifyNoChange ?? false,
  };
}

/**
 * The body of one watch, checked as every /api/v1 body is (zod-input's words and codes); a bulk
 * row's errors carry its place (`watches[3].country`, `watches[3]` for a row that is no object).
 */
function checkedInput(raw: unknown, field: string): z.infer<typeof watchInputSchema> {
  if (!field) return parseBody(watchInputSchema, raw);
  const parsed = watchInputSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const errors = fieldErrors(parsed.error).map((e) => ({
    ...e,
    field: e.field === '(body)' ? field.replace(/\.$/, '') : `${field}${e.field}`,
  }));
  throw new ApiError(BODY_ERROR, summary(errors), { errors });
}
