import { CanActivate, createParamDecorator, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AccountRequestLimit } from './account-request-limit.service';
import { ApiKeyAuth, Principal } from './api-key-auth.service';

type AuthenticatedRequest = Request & { principal?: Principal };

/**
 * Guards every authenticated /api/v1 endpoint: the bearer key, then the account's hourly
 * request count (ACCOUNT_RATE_LIMIT_PER_HOUR, with its X-RateLimit-* headers). /api/v1 is
 * not counted in the public per-IP limit of the read API.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly auth: ApiKeyAuth,
    private readonly limit: AccountRequestLimit,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const res = context.switchToHttp().getResponse<Response>();
    req.principal = await this.auth.authenticate(req.headers.authorization);
    await this.limit.count(req.principal.accountId, res);
    return true;
  }
}

/** The authenticated account of the request (after ApiKeyGuard). */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<AuthenticatedRequest>().principal;
  if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
  return principal;
});
