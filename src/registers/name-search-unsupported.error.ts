import type { CountryCode } from './registers';

/**
 * The register offers no name search this service can read live (or no lookup by the kind of
 * number asked: KRS is read by KRS number only, not by NIP or REGON). Not a register failure
 * (it says nothing about the register's health and must not count against its probes): the
 * search pipeline answers the query for this country from the dataset, with a warning that
 * says so. The connector words both sentences, since only it knows what it cannot do.
 */
export class NameSearchUnsupportedError extends Error {
  readonly code = 'name_search_unsupported' as const;

  constructor(
    readonly country: CountryCode,
    /** Why the dataset answers instead of the register: the start of the answer's warning. */
    message: string,
    /** What to say when the dataset has nothing either (a lookup's 404), instead of "no company with number …". */
    readonly notFound?: string,
  ) {
    super(message);
    this.name = 'NameSearchUnsupportedError';
  }
}

export function isNameSearchUnsupported(err: unknown): err is NameSearchUnsupportedError {
  return err instanceof NameSearchUnsupportedError;
}
