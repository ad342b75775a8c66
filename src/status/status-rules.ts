import type { RegisterStatus } from './register-status';

/**
 * When a register's status changes, from probe results:
 * - the first probe ever decides at once (success → live, failure → degraded);
 * - live → degraded at the FIRST failed probe (a read may already be failing for users);
 * - degraded → live after RECOVER_AFTER consecutive successful probes, so that a register
 *   that answers one probe in two does not flap between the two states;
 * - a register read through a mirror (not the register itself) is never live: degraded
 *   while the mirror answers.
 * `paused` is not decided here: it comes from configuration (see RegisterStatusService).
 */
export const DEGRADE_AFTER_FAILURES = 1;
export const RECOVER_AFTER_SUCCESSES = 2;

export interface StreakState {
  status: RegisterStatus;
  consecutiveFailures: number;
  consecutiveSuccesses: number;
  reason: string | null;
}

export interface ProbeVerdict {
  ok: boolean;
  /** On failure: what failed, e.g. "timeout: register did not answer in time". */
  failure?: string;
  /** The live source is a mirror, not the register itself. */
  isMirror: boolean;
  mirrorDescription?: string;
}

export function nextState(previous: StreakState | null, verdict: ProbeVerdict): StreakState {
  const failures = verdict.ok ? 0 : (previous?.consecutiveFailures ?? 0) + 1;
  const successes = verdict.ok ? (previous?.consecutiveSuccesses ?? 0) + 1 : 0;
  const healthy: StreakState = verdict.isMirror
    ? {
        status: 'degraded',
        consecutiveFailures: 0,
        consecutiveSuccesses: successes,
        reason: `Live reads come from ${verdict.mirrorDescription ?? 'a mirror'}, not from the register itself.`,
      }
    : { status: 'live', consecutiveFailures: 0, consecutiveSuccesses: successes, reason: null };
  const failing: StreakState = {
    status: 'degraded',
    consecutiveFailures: failures,
    consecutiveSuccesses: 0,
    reason: `The last probe failed (${verdict.failure ?? 'unknown error'}).`,
  };
  if (!previous || previous.status === 'paused') return verdict.ok ? healthy : failing;
  if (!verdict.ok) {
    if (previous.status === 'live' && failures < DEGRADE_AFTER_FAILURES)
      return { ...previous, consecutiveFailures: failures, consecutiveSuccesses: 0 };
    return failing;
  }
  if (previous.status === 'live') return healthy;
  // degraded: recover after enough successes in a row
  if (successes >= RECOVER_AFTER_SUCCESSES || verdict.isMirror) return healthy;
  return {
    status: 'degraded',
    consecutiveFailures: 0,
    consecutiveSuccesses: successes,
    reason: `Recovering: ${successes} of ${RECOVER_AFTER_SUCCESSES} probes in a row succeeded.`,
  };
}
