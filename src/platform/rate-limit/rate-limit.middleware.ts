import { Inject, Injectable, Logger, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Clock } from '../clock';
import { AppConfig } from '../config/app-config';
import type { ApiError } from '../errors/api-error';
import { Hit, HOUR_MS, overLimit, rateLimitHeaders } from './hourly-counter';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { ClientIdentity, identifyClient } from './client-key';

export const RATE_LIMIT_STORAGE = Symbol('RATE_LIMIT_STORAGE');
/** What X-RateLimit-Remaining says to an allowlisted client without a limit (not counted). */
const UNLIMITED = Number.MAX_SAFE_INTEGER;
const UNLIMITED_HEADERS = {
  'X-RateLimit-Remaining': String(UNLIMITED),
  'X-RateLimit-Reset': String(HOUR_MS / 1000),
} as const;
/** Addresses whose identity (counting key, limit) is remembered. */
const MAX_REMEMBERED_CLIENTS = 10_000;

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
  private readonly clients = new Map<string, ClientIdentity>();

  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  /**
   * Sets the headers and calls `next`, or throws (rejects with) the 429. Synchronous for a
   * client without a limit: nothing to count, so nothing to wait for.
   */
  use(req: Request, res: Response, next: NextFunction): Promise<void> | void {
    if (req.method === 'OPTIONS') return next(); // CORS preflights are not requests for data.
    const client = this.identify(req.ip);
    if (client.limit === null) {
      res.setHeader('X-RateLimit-Remaining', UNLIMITED_HEADERS['X-RateLimit-Remaining']);
      res.setHeader('X-RateLimit-Reset', UNLIMITED_HEADERS['X-RateLimit-Reset']);
      return next();
    }
    return this.countClient(client).then((verdict) => {
      for (const [name, value] of Object.entries(verdict.headers)) res.setHeader(name, value);
      if (verdict.rejection) throw verdict.rejection;
      next();
    });
  }

  /**
   * Counts one request from `ip` and says which headers it gets and whether it is over its
   * limit. Also used for requests Node's parser refused, counted by the connecting address.
   */
  async count(ip: string | undefined): Promise<RateLimitVerdict> {
    return this.countClient(this.identify(ip));
  }

  /** identifyClient, remembered per address: the allowlist is fixed for the life of the process. */
  private identify(ip: string | undefined): ClientIdentity {
    const key = ip ?? '';
    let client = this.clients.get(key);
    if (!client) {
      client = identifyClient(ip, this.config.rateLimit.perHour, this.config.rateLimit.allowlist);
      // Bounded: a flood of distinct addresses only costs the parse again.
      if (this.clients.size >= MAX_REMEMBERED_CLIENTS) this.clients.clear();
      this.clients.set(key, client);
    }
    return client;
  }

  private async countClient(client: ClientIdentity): Promise<RateLimitVerdict> {
    const limit = client.limit;
    if (limit === null) return { headers: { ...UNLIMITED_HEADERS } };
    let hit: Hit;
    try {
      hit = await this.storage.increment(`rl:${client.key}`, HOUR_MS, limit, HOUR_MS, 'default');
    } catch (err) {
      // No count at all (should not happen: the storage falls back to memory): serve rather than fail.
      this.logger.warn({ err }, 'rate-limit storage unavailable; request not counted');
      return { headers: rateLimitHeaders(limit, { totalHits: 0, timeToExpire: HOUR_MS / 1000 }) };
    }
    const headers = rateLimitHeaders(limit, hit);
    if (!hit.isBlocked) return { headers };
    return { headers, rejection: overLimit(limit, hit, this.clock, 'requests from this address') };
  }
}

export interface RateLimitVerdict {
  /** X-RateLimit-* headers of the response. */
  headers: Record<string, string>;
  /** Set when the client is over its limit: the 429 to answer with. */
  rejection?: ApiError;
}
