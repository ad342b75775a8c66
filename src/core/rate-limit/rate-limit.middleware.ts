import { Inject, Injectable, Logger, NestMiddleware } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { NextFunction, Request, Response } from 'express';
import { AppConfig } from '../config/app-config';
import { ApiError } from '../errors/api-error';
import { identifyClient } from './client-key';

export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
const HOUR_MS = 3_600_000;
/** What X-RateLimit-Remaining says to an allowlisted client without a limit (not counted). */
const UNLIMITED = Number.MAX_SAFE_INTEGER;

/**
 * Counts every request under /api/public/v1 — known paths, unknown paths, errors — per
 * client IP (IPv6: per /64) in the throttler storage (memory, or Redis shared by every api
 * replica), and sets X-RateLimit-Limit / -Remaining / -Reset on every response.
 * It runs as middleware rather than as ThrottlerGuard because guards do not run for
 * unknown paths, and the contract wants the headers on every response.
 */
@Injectable()
export class RateLimitMiddleware implements NestMiddleware {
  private readonly logger = new Logger(RateLimitMiddleware.name);

  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
  ) {}

  async use(req: Request, res: Response, next: NextFunction): Promise<void> {
    if (req.method === 'OPTIONS') return next(); // CORS preflights are not requests for data.
    const client = identifyClient(req.ip, this.config.rateLimit.perHour, this.config.rateLimit.allowlist);
    const limit = client.limit;
    if (limit === null) {
      res.setHeader('X-RateLimit-Remaining', String(UNLIMITED));
      res.setHeader('X-RateLimit-Reset', String(HOUR_MS / 1000));
      return next();
    }
    // blockDuration = the window: once over the limit, a client waits a full window.
    let hit: Awaited<ReturnType<ThrottlerStorage['increment']>>;
    try {
      hit = await this.storage.increment(`rl:${client.key}`, HOUR_MS, limit, HOUR_MS, 'default');
    } catch (err) {
      // The count is unavailable (Redis down): serve rather than fail every request.
      this.logger.warn({ err }, 'rate-limit storage unavailable; request not counted');
      res.setHeader('X-RateLimit-Limit', String(limit));
      res.setHeader('X-RateLimit-Remaining', String(limit));
      res.setHeader('X-RateLimit-Reset', String(HOUR_MS / 1000));
      return next();
    }
    const blocked = hit.totalHits > limit;
    const resetSeconds = Math.max(0, blocked ? hit.timeToBlockExpire : hit.timeToExpire);
    res.setHeader('X-RateLimit-Limit', String(limit));
    res.setHeader('X-RateLimit-Remaining', String(Math.max(0, limit - hit.totalHits)));
    res.setHeader('X-RateLimit-Reset', String(resetSeconds));
    if (!blocked) return next();
    // The storage counts in wall-clock time, so the reset time is wall-clock time too.
    const resetAt = new Date(Date.now() + resetSeconds * 1000).toISOString();
    throw new ApiError(
      'rate_limited',
      `More than ${limit} requests in an hour from this address. Requests are accepted again at ${resetAt}.`,
      { limit, resetAt },
      { 'Retry-After': String(resetSeconds) },
    );
  }
}
