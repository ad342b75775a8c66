/** What one attempt came to, as far as retrying is concerned. */
export interface AttemptOutcome {
  /** HTTP status, when the receiver answered. */
  status?: number;
  /** The Retry-After header of the answer, as sent. */
  retryAfter?: string;
}

export type NextStep =
  | { state: 'succeeded' }
  | { state: 'pending'; delayMs: number }
  | { state: 'failed'; reason: string; disableEndpoint?: string };

export interface RetryRules {
  /** Delays before each retry, in order (WEBHOOK_RETRY_SCHEDULE). */
  schedule: readonly number[];
  /** Attempts this delivery may make in all (a manual retry allows exactly one more). */
  maxAttempts: number;
  /** A number in [0, 1): jitter. */
  random: () => number;
}

/** ±10 %: retries of deliveries that failed together do not all come back at once. */
const JITTER = 0.1;

/**
 * After attempt `attempt` (1-based): done, again after a delay, or failed for good.
 * - any 2xx: succeeded; 410 Gone: failed, and the endpoint is disabled at once;
 * - otherwise the schedule's next delay (jittered), or failed after the last retry;
 * - a Retry-After (seconds or HTTP date) on 429 or 503 is honoured, but only between the
 *   schedule's delay and its longest delay: a receiver can slow retries, not stop them or
 *   hurry them.
 */
export function nextStep(outcome: AttemptOutcome, attempt: number, rules: RetryRules, now: Date): NextStep {
  const status = outcome.status;
  if (status !== undefined && status >= 200 && status < 300) return { state: 'succeeded' };
  if (status === 410)
    return {
      state: 'failed',
      reason: 'the endpoint answered 410 Gone',
      disableEndpoint: `The endpoint answered 410 Gone at ${now.toISOString()}.`,
    };
  if (attempt >= rules.maxAttempts || rules.schedule.length === 0)
    return { state: 'failed', reason: `failed ${attempt} attempt${attempt === 1 ? '' : 's'}; no retry left` };
  const scheduled = rules.schedule[Math.min(attempt, rules.schedule.length) - 1];
  let delayMs = Math.round(scheduled * (1 - JITTER + 2 * JITTER * rules.random()));
  if ((status === 429 || status === 503) && outcome.retryAfter !== undefined) {
    const asked = parseRetryAfter(outcome.retryAfter, now);
    if (asked !== null) delayMs = Math.max(delayMs, Math.min(Math.max(asked, scheduled), Math.max(...rules.schedule)));
  }
  return { state: 'pending', delayMs };
}

/** Retry-After: delta seconds or an HTTP date → milliseconds from now; null when unreadable. */
export function parseRetryAfter(value: string, now: Date): number | null {
  const text = value.trim();
  if (/^\d{1,10}$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return null;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}
