import type { ApiAnswer } from '../shared/api';
import type { SimulationResult } from '../shared/api-types';
import { duration, plural } from '../shared/format';
import { problemSentence } from '../shared/problem-sentence';

type Failure = Extract<ApiAnswer<unknown>, { ok: false }>;

/** What the page was doing when the API said no: a few codes read differently. */
export type Doing = 'signup' | 'account' | 'endpoint' | 'send' | 'deliveries' | 'retry' | 'access';

/** Names of the API's fields as the page labels them. */
const LABELS: Record<string, string> = {
  email: 'Email',
  url: 'Endpoint URL',
  event: 'Event',
  country: 'Country',
  registrationNumber: 'Registration number',
  countries: 'Countries',
  monthlyVolume: 'Monthly volume',
  events: 'Events',
  useCase: 'Use case',
};

/** A failed /api/v1 answer as a sentence for people; the problem's code picks it, never shown. */
export function accountProblemSentence(failure: Failure, doing: Doing): string {
  const { problem } = failure;
  switch (problem?.code) {
    case 'unauthorized':
      return `This key is not valid or was revoked. ${doing === 'account' ? 'Create a new account or paste another key.' : 'Press Forget key, then create a new account or paste another key.'}`;
    case 'target_not_allowed': {
      const why = rangeInWords(problem.errors?.[0]?.message ?? problem.detail);
      return `The service will not send webhooks to that address: ${sentence(why)} Webhooks go only to public internet addresses; a receiver on your own computer needs a public URL (a tunnel, for example).`;
    }
    case 'simulator_limit_reached': {
      const seconds = failure.retryAfterSeconds ?? secondsUntil(problem.resetAt);
      const limit =
        problem.limit !== undefined ? plural(problem.limit, 'test event') : 'as many test events as allowed';
      return `This account has sent ${limit} in the last hour. The next one can be sent in ${seconds !== null ? duration(seconds) : 'an hour'}.`;
    }
    case 'rate_limited': {
      const seconds = failure.retryAfterSeconds ?? secondsUntil(problem.resetAt);
      const wait = seconds !== null ? duration(seconds) : 'an hour';
      return doing === 'signup'
        ? `Too many accounts were created from your address this hour. Try again in ${wait}.`
        : `This account has made too many requests this hour. Try again in ${wait}.`;
    }
    case 'invalid_body': {
      const fields = (problem.errors ?? []).map((e) => `${LABELS[e.field] ?? e.field}: ${e.message}`);
      return fields.length > 0 ? `Please check ${fields.join('; ')}.` : `That was refused: ${sentence(problem.detail)}`;
    }
    case 'conflict':
      if (/^The endpoint is disabled/.test(problem.detail))
        return 'This endpoint is disabled: enable it first (the button under Endpoint, above).';
      return sentence(problem.detail);
    case 'resource_not_found':
      return sentence(problem.detail);
    case 'invalid_query':
    case 'company_not_found':
    case 'country_not_covered':
      return `That company cannot be used: ${sentence(problem.detail)}`;
    case 'payload_too_large':
      return 'That is too long to send. Shorten the text and try again.';
    default:
      return problemSentence(failure);
  }
}

/** What happened to the test event, in one sentence (and why it failed, when it did). */
export function outcomeSentence(result: SimulationResult): string {
  if (!result.sent)
    return 'Queued: your endpoint already has as many requests in flight as allowed. The event is sent when one finishes; see Recent deliveries.';
  const { response, error } = result;
  const retry =
    result.state === 'pending' && result.nextAttemptAt
      ? ` It will be tried again at ${new Date(result.nextAttemptAt).toISOString().slice(11, 19)} UTC.`
      : '';
  if (!error && response) return `Delivered: your endpoint answered ${response.status} in ${response.durationMs} ms.`;
  return `Not delivered: ${errorSentence(error?.class ?? 'network_error', error?.message ?? '', response?.status)}${retry}`;
}

/** A failed attempt's error class (the delivery log's words) as a sentence. */
export function errorSentence(errorClass: string, message: string, status?: number | null): string {
  const detail = message ? ` (${message.replace(/[.\s]+$/, '')})` : '';
  switch (errorClass) {
    case 'http_error':
      return `your endpoint answered ${status ?? 'with an error'}; only a 2xx answer counts as received.`;
    case 'redirect_not_followed':
      return `your endpoint answered with a redirect${status ? ` (${status})` : ''}, and redirects are never followed. Give the final URL.`;
    case 'timeout':
      return `your endpoint did not answer in time${detail}.`;
    case 'connection_refused':
      return `nothing accepted the connection at that address and port${detail}. Is your receiver running?`;
    case 'connection_reset':
      return `the connection was closed before an answer came${detail}.`;
    case 'dns_error':
      return `the host name could not be resolved${detail}.`;
    case 'tls_error':
      return `the secure connection (TLS) could not be set up${detail}.`;
    case 'target_not_allowed':
      return `the address connected to is not a public one${rangeInWords(detail)}. Webhooks go only to public internet addresses.`;
    case 'abandoned':
      return 'the attempt was interrupted (the worker stopped); it is made again.';
    default:
      return `a network error${detail}.`;
  }
}

/** The guard names address ranges as ipaddr.js does (linkLocal); people read "link-local". */
function rangeInWords(text: string): string {
  const words: Record<string, string> = {
    linkLocal: 'link-local',
    uniqueLocal: 'unique-local',
    carrierGradeNat: 'carrier-grade NAT',
    ipv4Mapped: 'IPv4-mapped',
    rfc6052: 'NAT64',
  };
  return text.replace(/\b(linkLocal|uniqueLocal|carrierGradeNat|ipv4Mapped|rfc6052)\b/g, (name) => words[name] ?? name);
}

function sentence(text: string): string {
  const t = text.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function secondsUntil(iso: string | undefined): number | null {
  if (!iso) return null;
  const ms = new Date(iso).getTime() - Date.now();
  return Number.isFinite(ms) && ms > 0 ? ms / 1000 : null;
}
