import type { ApiAnswer } from './api';
import { duration } from './format';

type Failure = Extract<ApiAnswer<unknown>, { ok: false }>;

/** What the user was doing, for sentences that name it. */
export interface FailureContext {
  /** Short name of the register asked, e.g. "Brønnøysund". */
  register?: string;
}

/**
 * A failed API answer as a sentence for people: the problem's `code` picks the sentence,
 * its `detail` (already written for humans) fills it in; no status code is shown.
 */
export function problemSentence(failure: Failure, context: FailureContext = {}): string {
  const { problem } = failure;
  const register = context.register ?? 'The register';
  if (failure.status === 0) return 'The service could not be reached. Check your connection and try again.';
  switch (problem?.code) {
    case 'rate_limited': {
      const seconds = failure.retryAfterSeconds ?? secondsUntil(problem.resetAt);
      return `You have made too many requests. Try again in ${seconds !== null ? duration(seconds) : 'an hour'}.`;
    }
    case 'missing_parameter':
      return 'Choose a country and type a company name or number.';
    case 'invalid_query':
    case 'invalid_parameter':
      return `That search cannot be run: ${forPeople(problem.detail)}`;
    case 'country_not_covered':
      return 'That country is not covered. Choose one of the countries in the list.';
    case 'company_not_found':
      return forPeople(problem.detail);
    case 'upstream_error':
      return `${register} did not answer, and no stored copy of a matching record can stand in. Try again in a few minutes.`;
    case 'service_unavailable':
      return 'The service is temporarily unavailable. Try again in a few minutes.';
    default:
      return `Something went wrong on our side${problem?.instance ? ` (reference ${problem.instance.replace(/^urn:request:/, '')})` : ''}. Try again in a few minutes.`;
  }
}

function secondsUntil(iso: string | undefined): number | null {
  if (!iso) return null;
  const ms = new Date(iso).getTime() - Date.now();
  return Number.isFinite(ms) && ms > 0 ? ms / 1000 : null;
}

/** The API names its parameter "q"; people typed something into a box. */
function forPeople(detail: string): string {
  const text = detail.replace(/^q\b/, 'what you typed').replace(/^registrationNumber\b/, 'the registration number');
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
