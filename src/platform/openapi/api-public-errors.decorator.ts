import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { PROBLEMS, ProblemCode } from '../errors/problem-catalog';
import { ProblemDetailsDto } from './problem-details.dto';

export const RATE_LIMIT_HEADERS = {
  'X-RateLimit-Limit': {
    description: 'Requests allowed per hour for this client (absent for unlimited allowlisted clients).',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': {
    description:
      'Requests left in the current window, counted per client IP (IPv6: per /64) across all /api/public/v1 endpoints.',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Reset': {
    description: 'Seconds (delta, not an epoch time) until the window resets and the count starts again.',
    schema: { type: 'integer' },
  },
} as const;

/**
 * Documents the rate-limit headers and the problem responses of a public endpoint.
 * Every public endpoint can answer 406, 429, 500 and 503, and 400 invalid_parameter for a URL
 * that is not percent-encoded UTF-8; `codes` adds its own.
 */
export function ApiPublicErrors(...codes: ProblemCode[]): MethodDecorator & ClassDecorator {
  const all: ProblemCode[] = [
    ...new Set<ProblemCode>([
      ...codes,
      'invalid_parameter',
      'not_acceptable',
      'rate_limited',
      'internal_error',
      'service_unavailable',
    ]),
  ];
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of all) byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  return applyDecorators(
    ApiExtraModels(ProblemDetailsDto),
    ...[...byStatus].map(([status, list]) =>
      ApiResponse({
        status,
        description: list.map((c) => `\`${c}\`: ${PROBLEMS[c].description}`).join('\n\n'),
        headers:
          status === 429 || status === 503
            ? {
                ...RATE_LIMIT_HEADERS,
                'Retry-After': {
                  description: 'Seconds until requests are accepted again.',
                  schema: { type: 'integer' },
                },
              }
            : RATE_LIMIT_HEADERS,
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
