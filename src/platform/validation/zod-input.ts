import { z } from 'zod';
import { ApiError, FieldError } from '../errors/api-error';
import './plain-messages';
import { nulCharacters } from './text-input';

/**
 * Request input checked against a zod schema (objects are `.strict()`: an unknown field is an
 * error, not silently dropped). Every problem is reported at once in errors[], one per field,
 * with the field's path (`events[2]`, `countries`).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) throw notAnObject();
  const nul = nulCharacters(body);
  if (nul.length) throw new ApiError('invalid_body', summary(nul), { errors: nul });
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const errors = fieldErrors(result.error);
  throw new ApiError('invalid_body', summary(errors), { errors });
}

/**
 * The body of a POST that takes none (a rotation, a retry): nothing, or `{}`. A field sent is
 * refused, never ignored: a client that sends one expects it to do something.
 */
export function expectNoFields(body: unknown): void {
  if (body !== undefined) parseBody(NO_FIELDS, body);
}
const NO_FIELDS = z.object({}).strict();

/** A request body that is missing, or JSON but not an object. */
export function notAnObject(): ApiError {
  return new ApiError('invalid_body', 'The request body must be a JSON object (Content-Type: application/json).', {
    errors: [{ field: '(body)', code: 'invalid_type', message: 'expected a JSON object' }],
  });
}

/** Query parameters: the same checks, reported as invalid_parameter. */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.infer<S> {
  const nul = nulCharacters(query);
  if (nul.length)
    throw new ApiError('invalid_parameter', summary(nul), {
      errors: nul.map((e) => ({ ...e, code: 'invalid_parameter' })),
    });
  const result = schema.safeParse(query ?? {});
  if (result.success) return result.data;
  // `?limit=1&limit=2` arrives as a list: which of the two was meant is not ours to guess.
  const repeated = (field: string) => Array.isArray((query as Record<string, unknown> | undefined)?.[field]);
  const errors = fieldErrors(result.error).map((e) =>
    e.code === 'unknown_field'
      ? { ...e, code: 'unknown_parameter', message: UNKNOWN_PARAMETER }
      : { ...e, code: 'invalid_parameter', ...(repeated(e.field) && { message: 'must be given once' }) },
  );
  throw new ApiError('invalid_parameter', summary(errors), { errors });
}

export const UNKNOWN_PARAMETER = 'not a parameter of this endpoint';

export function fieldErrors(error: z.ZodError): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const base = pathOf(issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys)
        out.push({ field: join(base, key), code: 'unknown_field', message: 'unknown field' });
      continue;
    }
    const params = (issue as { params?: { code?: string } }).params;
    const field = base || '(body)';
    // Several checks of one field that fail alike (1e308: not whole, and over the maximum) are said once.
    if (out.some((e) => e.field === field && e.message === issue.message)) continue;
    out.push({ field, code: params?.code ?? codeOf(issue.code), message: issue.message });
  }
  return out;
}

function codeOf(zodCode: string): string {
  switch (zodCode) {
    case 'invalid_type':
      return 'invalid_type';
    case 'too_small':
    case 'too_big':
      return 'out_of_range';
    default:
      return 'invalid_value';
  }
}

/** The detail of a problem with these errors: the first few, in one line. */
export function summary(errors: FieldError[]): string {
  const shown = errors.slice(0, 5).map((e) => `${e.field}: ${e.message}`);
  return `${shown.join('; ')}${errors.length > 5 ? `; and ${errors.length - 5} more` : ''}.`;
}

function pathOf(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : join(acc, String(part))),
    '',
  );
}

function join(base: string, key: string): string {
  const safe = key.length > 60 ? `${key.slice(0, 60)}…` : key;
  return base ? `${base}.${safe}` : safe;
}
