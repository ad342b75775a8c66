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
      'q is too short, too long, not valid percent-encoded UTF-8, not a name (only punctuation, symbols or control characters), a registration number that is malformed or whose check digit is wrong (or that no check digit can complete, as a Finnish business ID whose weighted sum leaves 1), or a name so common that the register refuses to search it (ARES: more than 1,000 matches); on /lei/{lei}, the LEI is not 20 letters and digits or its ISO 17442 check digits are wrong. The message says which.',
  },
  malformed_request: {
    status: 400,
    title: 'The request is not valid HTTP',
    description:
      'The request line or a header could not be parsed; it was refused before any routing (no rate-limit count by path).',
  },
  invalid_parameter: {
    status: 400,
    title: 'A parameter has a value that is not allowed',
    description:
      'A query or path parameter has a value outside its allowed set (the message lists the allowed values), an /api/v1 request carries a query parameter its endpoint does not take (errors[] names it, code `unknown_parameter`), or the path or a query parameter is not valid percent-encoded UTF-8 (a stray `%`, `%FF`; errors[] names the parameter, or `path`). q on /search says invalid_query instead.',
  },
  invalid_body: {
    status: 400,
    title: 'The request body is not acceptable',
    description:
      'The JSON body of an /api/v1 request is malformed, has a field of the wrong type or value, lacks a required field, or has a field the endpoint does not know; errors[] names each field (an unknown event kind lists the allowed ones; a planned kind says it is not built yet).',
  },
  unauthorized: {
    status: 401,
    title: 'Authentication required',
    description:
      'The /api/v1 endpoint needs `Authorization: Bearer <api key>`, and the key given is absent, malformed, unknown or revoked. The WWW-Authenticate header says which. On the MCP endpoint the key is optional, but one given must be valid; its account tools called without a key answer this code as a tool error.',
  },
  country_not_covered: {
    status: 404,
    title: 'No register connector for this country',
    description:
      'The country code is not one of the covered ISO 3166-1 alpha-2 codes (GET /api/public/v1/registers lists them), or is malformed.',
  },
  company_not_found: {
    status: 404,
    title: 'No company with this registration number',
    description:
      'The register (or, when it is not answering, the fallback dataset) has no company with this number; or the number is of a kind the register cannot be asked for (a tax or statistical number where the register is read by its own number only) and the fallback dataset has no company with it either — the detail says which.',
  },
  lei_not_found: {
    status: 404,
    title: 'No LEI record with this code',
    description:
      'GLEIF’s Global LEI Index has no record of this LEI, although its check digits are right (never issued, or mistyped into another valid code).',
  },
  resource_not_found: {
    status: 404,
    title: 'No such object in this account',
    description:
      'No webhook endpoint, delivery, event, API key or access request with this id belongs to the account of the API key (objects of other accounts are reported the same way).',
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
    description:
      'The Accept header excludes every media type the endpoint can answer with. A header whose weights are not qvalues (`q=abc`, `q=1.5`) is disregarded, not refused.',
  },
  request_timeout: {
    status: 408,
    title: 'The request did not arrive in time',
    description:
      'The request headers did not arrive within HTTP_HEADERS_TIMEOUT_MS, or the whole request within HTTP_REQUEST_TIMEOUT_MS; the connection is closed.',
  },
  watch_quota_exceeded: {
    status: 409,
    title: 'Watch quota reached',
    description:
      'The account watches as many companies as it may (WATCHES_PER_ACCOUNT, 10,000 by default): delete watches it no longer needs, or ask for a higher quota. The body gives `limit` and `used`.',
  },
  conflict: {
    status: 409,
    title: 'Conflict with the current state',
    description:
      'The request cannot be applied to the object as it is now: e.g. revoking the last active API key, a second pending access request, sending a test event to a disabled endpoint, more endpoints than an account may have.',
  },
  precondition_failed: {
    status: 412,
    title: 'Precondition failed',
    description:
      'A conditional request for a page or asset (If-Match, If-Unmodified-Since) whose condition the current file does not meet.',
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
  range_not_satisfiable: {
    status: 416,
    title: 'Range not satisfiable',
    description:
      'The Range header of a request for a page or asset lies wholly past the end of the file; Content-Range gives its length.',
  },
  target_not_allowed: {
    status: 422,
    title: 'The webhook target is not allowed',
    description:
      'The webhook URL is, or its host name resolves to, a loopback, private, link-local, CGNAT, unique-local, multicast, unspecified, reserved or documentation address (in any spelling), or uses a scheme other than http and https.',
  },
  rate_limited: {
    status: 429,
    title: 'Hourly request limit reached',
    description:
      'The client IP (IPv6: its /64) made more requests than its hourly limit across all /api/public/v1 endpoints; on /api/v1, the account made more requests than its hourly limit, or the IP more sign-ups than allowed. resetAt says when requests are accepted again; Retry-After says it in seconds.',
  },
  simulator_limit_reached: {
    status: 429,
    title: 'Simulator limit reached',
    description:
      'The account sent as many test events from the simulator as it may in a rolling hour. resetAt says when the next one is accepted; Retry-After says it in seconds.',
  },
  headers_too_large: {
    status: 431,
    title: 'Request headers too large',
    description: 'The request headers exceed the 16 KiB the server accepts.',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    description:
      'Something failed inside the service. Nothing about it is exposed; the request id in the logs identifies it.',
  },
  upstream_error: {
    status: 502,
    title: 'The register did not answer',
    description:
      'The register failed, timed out or answered with something that could not be understood, and no fallback dataset row could stand in; on /lei/{lei}, GLEIF’s LEI index did (there is no fallback for it).',
  },
  service_unavailable: {
    status: 503,
    title: 'Service unavailable',
    description:
      'A dependency of the service (the database, the job queue) did not answer in time; Retry-After says when to try again.',
  },
} as const;

export type ProblemCode = keyof typeof PROBLEMS;

export const PROBLEM_CODES = Object.keys(PROBLEMS) as ProblemCode[];

export function problemTypeUri(code: ProblemCode): string {
  return `/api/public/v1/problems/${code}`;
}
