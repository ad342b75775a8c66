import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Response } from 'express';
import type { Clock } from '../clock';
import { ApiError } from '../errors/api-error';

export const HOUR_MS = 3_600_000;

/** One count of the storage (fixed-window-storage.ts): hits so far, and seconds until its window ends. */
export type Hit = Awaited<ReturnType<ThrottlerStorage['increment']>>;

/** The X-RateLimit-* headers of a count: `Reset` is when the window ends, which is also when a 429 ends. */
export function rateLimitHeaders(limit: number, hit: Pick<Hit, 'totalHits' | 'timeToExpire'>): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(limit),
    'X-RateLimit-Remaining': String(Math.max(0, limit - hit.totalHits)),
    'X-RateLimit-Reset': String(hit.timeToExpire),
  };
}

/** The 429 of a count past its limit: Retry-After and resetAt are the window's end, as the headers say. */
export function overLimit(limit: number, hit: Hit, clock: Clock, what: string): ApiError {
  const seconds = hit.timeToExpire;
  const resetAt = new Date(clock.now().getTime() + seconds * 1000).toISOString();
  return new ApiError(
    'rate_limited',
    `More than ${limit} ${what} in an hour. Requests are accepted again at ${resetAt}.`,
    { limit, resetAt },
    { 'Retry-After': String(seconds) },
  );
}

/**
 * Counts one request against an hourly limit under `key` (memory, or Redis shared by every
 * api replica), writes the X-RateLimit-* headers of that count on `res` (when given), and
 * throws 429 `rate_limited` past the limit. `what` names the limit in the message.
 */
export async function countHourly(
  storage: ThrottlerStorage,
  clock: Clock,
  res: Pick<Response, 'setHeader'> | null,
  key: string,
  limit: number,
  what: string,
): Promise<void> {
  const hit = await storage.increment(key, HOUR_MS, limit, HOUR_MS, 'default');
  if (res) for (const [name, value] of Object.entries(rateLimitHeaders(limit, hit))) res.setHeader(name, value);
  if (hit.isBlocked) throw overLimit(limit, hit, clock, what);
}
