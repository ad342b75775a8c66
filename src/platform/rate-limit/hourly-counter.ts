import type { ThrottlerStorage } from '@nestjs/throttler';
import type { Response } from 'express';
import { ApiError } from '../errors/api-error';

const HOUR_MS = 3_600_000;

/**
 * Counts one request against an hourly limit in the rate-limit storage (memory, or Redis
 * shared by every api replica) under `key`, writes the X-RateLimit-* headers of that count,
 * and throws 429 `rate_limited` past the limit. `what` names the limit in the message.
 */
export async function countHourly(
  storage: ThrottlerStorage,
  res: Response,
  key: string,
  limit: number,
  what: string,
): Promise<void> {
  const hit = await storage.increment(key, HOUR_MS, limit, HOUR_MS, 'default');
  const blocked = hit.totalHits > limit;
  const resetSeconds = Math.max(0, blocked ? hit.timeToBlockExpire : hit.timeToExpire);
  res.setHeader('X-RateLimit-Limit', String(limit));
  res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - hit.totalHits)));
  res.setHeader('X-RateLimit-Reset', String(resetSeconds));
  if (!blocked) return;
  const resetAt = new Date(Date.now() + resetSeconds * 1000).toISOString();
  throw new ApiError(
    'rate_limited',
    `More than ${limit} ${what} in an hour. Accepted again at ${resetAt}.`,
    { limit, resetAt },
    { 'Retry-After': String(resetSeconds) },
  );
}
