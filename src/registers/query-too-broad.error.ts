import type { CountryCode } from './registers';

/**
 * The register refuses a name search because too many companies match it (ARES: more than
 * 1,000), and gives no page of them. Not a failure of the register: it answered, and says
 * nothing of its health. Search answers 400 invalid_query, asking for a narrower name.
 */
export class QueryTooBroadError extends Error {
  readonly code = 'query_too_broad' as const;

  constructor(
    readonly country: CountryCode,
    message: string,
  ) {
    super(message);
    this.name = 'QueryTooBroadError';
  }
}
