import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEMS, ProblemCode } from '../errors/problem-catalog';
import { ProblemDetailsDto } from './problem-details.dto';

/** Name of the bearer security scheme in the OpenAPI document. */
export const BEARER_SCHEME = 'apiKey';

const ACCOUNT_RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per hour for this account.', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window, counted per account across the authenticated /api/v1 endpoints.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds (delta, not an epoch time) until the window resets.',
    schema: { type: 'integer' },
  },
} as const;

/**
 * The problem responses of an /api/v1 endpoint and, unless `open`, its bearer security:
 * every one can answer 400 invalid_parameter (a query parameter it does not take), 401 (not with
 * `open`), 406, 429, 500 and 503; `codes` adds its own.
 */
export function ApiAccountErrors(
  options: { open?: boolean } | ProblemCode = {},
  ...rest: ProblemCode[]
): MethodDecorator & ClassDecorator {
  const open = typeof options === 'object' && options.open === true;
  const codes = typeof options === 'string' ? [options, ...rest] : rest;
  const all: ProblemCode[] = [
    ...codes,
    'invalid_parameter',
    ...(open ? [] : (['unauthorized'] as ProblemCode[])),
    'not_acceptable',
    'rate_limited',
    'internal_error',
    'service_unavailable',
  ];
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of new Set(all))
    byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  return applyDecorators(
    ...(open ? [] : [ApiBearerAuth(BEARER_SCHEME)]),
    ApiExtraModels(ProblemDetailsDto),
    ...[...byStatus].map(([status, list]) =>
      ApiResponse({
        status,
        description: list.map((c) => `\`${c}\`: ${PROBLEMS[c].description}`).join('\n\n'),
        headers:
          status === 429 || status === 503
            ? {
                'Retry-After': {
                  description: 'Seconds until requests are accepted again.',
                  schema: { type: 'integer' },
                },
              }
            : status === 401
              ? { 'WWW-Authenticate': { description: 'The bearer challenge (RFC 6750).', schema: { type: 'string' } } }
              : undefined,
        content: {
          'application/problem+json': {
            schema: {
              allOf: [
                { $ref: getSchemaPath(ProblemDetailsDto) },
                { properties: { code: { type: 'string', enum: list } } },
              ],
            },
          },
        },
      }),
    ),
  );
}

export { ACCOUNT_RATE_LIMIT_HEADERS };
