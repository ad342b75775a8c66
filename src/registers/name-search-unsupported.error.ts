import type { CountryCode } from './registers';

/**
 * The register offers no name search this service can read live. Not a register failure (it
 * says nothing about the register's health and must not count against its probes): the search
 * pipeline answers name queries for this country from the dataset, with a warning that says so.
 */
export class NameSearchUnsupportedError extends Error {
  readonly code = 'name_search_unsupported' as const;

  constructor(
    readonly country: CountryCode,
    message: string,
  ) {
    super(message);
    this.name = 'NameSearchUnsupportedError';
  }
}

export function isNameSearchUnsupported(err: unknown): err is NameSearchUnsupportedError {
  return err instanceof NameSearchUnsupportedError;
}
