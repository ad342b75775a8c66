/**
 * Every error code the API can answer with. The contract's codes come first; the rest are
 * ours. The OpenAPI document, the README and `GET /api/public/v1/problems/{code}` are
 * generated from this one list.
 */
export const PROBLEMS = {
  missing_parameter: {
    status: 400,
    title: 'A required parameter is missing',
    description: 'A required query parameter (q or country on /search) is absent or empty.',
  },
  invalid_query: {
    status: 400,
    title: 'The query is not acceptable',
    description:
      'q is too short, too long, not a name (only punctuation, symbols or control characters), or a registration number whose check digit is wrong.',
  },
  invalid_parameter: {
    status: 400,
    title: 'A parameter has a value that is not allowed',
    description: 'A query or path parameter has a value outside its allowed set; the message lists the allowed values.',
  },
  country_not_covered: {
    status: 404,
    title: 'No register connector for this country',
    description: 'The country code is not one of the covered ISO 3166-1 alpha-2 codes (GB, AU, CA, FR, DK, NO), or is malformed.',
  },
  company_not_found: {
    status: 404,
    title: 'No company with this registration number',
    description: 'The register (or, when it is not answering, the fallback dataset) has no company with this number.',
  },
  not_found: {
    status: 404,
    title: 'No such endpoint',
    description: 'The path does not exist. See /api/public/v1/openapi.json for the endpoints.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed on this endpoint',
    description: 'The endpoint exists but not with this HTTP method; the Allow header lists the methods it accepts.',
  },
  not_acceptable: {
    status: 406,
    title: 'Not acceptable',
    description: 'The Accept header excludes every media type the endpoint can answer with.',
  },
  payload_too_large: {
    status: 413,
    title: 'Request body too large',
    description: 'The request body exceeds the size the endpoint accepts.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    description: 'The request body is not in a media type the endpoint accepts (application/json).',
  },
  rate_limited: {
    status: 429,
    title: 'Hourly request limit reached',
    description:
      'The client IP (IPv6: its /64) made more requests than its hourly limit across all /api/public/v1 endpoints. resetAt says when requests are accepted again; Retry-After says it in seconds.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    description: 'Something failed inside the service. Nothing about it is exposed; the request id in the logs identifies it.',
  },
  upstream_error: {
    status: 502,
    title: 'The register did not answer',
    description:
      'The register failed, timed out or answered with something that could not be understood, and no fallback dataset row could stand in.',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    description: 'A dependency of the service (database, queue) is not available.',
  },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;

export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

export function problemTypeUri(code: ProblemCode): string {
  return `/api/public/v1/problems/${code}`;
}
