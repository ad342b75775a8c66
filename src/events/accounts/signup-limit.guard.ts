import type { ThrottlerStorage } from '@nestjs/throttler';
import { CanActivate, ExecutionContext, Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { AppConfig } from '../../platform/config/app-config';
import { ApiError } from '../../platform/errors/api-error';
import { identifyClient } from '../../platform/rate-limit/client-key';
import { countHourly } from '../../platform/rate-limit/hourly-counter';
import { RATE_LIMIT_STORAGE } from '../../platform/rate-limit/rate-limit.middleware';
import { Clock } from '../../platform/clock';

/** Sign-ups per client IP (IPv6: per /64) per hour, in the shared rate-limit storage. */
@Injectable()
export class SignupLimitGuard implements CanActivate {
  private readonly logger = new Logger(SignupLimitGuard.name);

  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    const limit = this.config.limits.signupsPerHourPerIp;
    const client = identifyClient(req.ip, limit, []);
    try {
      await countHourly(
        this.storage,
        this.clock,
        context.switchToHttp().getResponse<Response>(),
        `signup:${client.key}`,
        limit,
        'sign-ups from this address',
      );
    } catch (err) {
      if (err instanceof ApiError) throw err;
      this.logger.warn({ err }, 'rate-limit storage unavailable; sign-up not counted');
    }
    return true;
  }
}
