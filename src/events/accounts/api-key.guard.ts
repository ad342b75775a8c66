import type { ThrottlerStorage } from '@nestjs/throttler';
import { CanActivate, createParamDecorator, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { ApiError } from '../../platform/errors/api-error';
import { countHourly } from '../../platform/rate-limit/hourly-counter';
import { RATE_LIMIT_STORAGE } from '../../platform/rate-limit/rate-limit.middleware';
import { Clock } from '../../platform/clock';
import { ApiKeyAuth, Principal } from './api-key-auth.service';

type AuthenticatedRequest = Request & { principal?: Principal };

/**
 * Guards every authenticated /api/v1 endpoint: the bearer key, then the account's hourly
 * request count (ACCOUNT_RATE_LIMIT_PER_HOUR, with its X-RateLimit-* headers). /api/v1 is
 * not counted in the public per-IP limit of the read API.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly logger = new Logger(ApiKeyGuard.name);

  constructor(
    private readonly auth: ApiKeyAuth,
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    req.principal = await this.auth.authenticate(req.headers.authorization);
    try {
      await countHourly(
        this.storage,
        this.clock,
        res,
        `acct:${req.principal.accountId}`,
        this.config.limits.accountRequestsPerHour,
        'requests from this account',
      );
    } catch (err) {
      if (err instanceof ApiError) throw err;
      // The count is unavailable (Redis down): serve rather than fail every request.
      this.logger.warn({ err }, 'rate-limit storage unavailable; request not counted');
    }
    return true;
  }
}

/** The authenticated account of the request (after ApiKeyGuard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
  return principal;
});
