import type { ThrottlerStorage } from '@nestjs/throttler';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../../platform/clock';
import { AppConfig } from '../../platform/config/app-config';
import { ApiError } from '../../platform/errors/api-error';
import { countHourly } from '../../platform/rate-limit/hourly-counter';
import { RATE_LIMIT_STORAGE } from '../../platform/rate-limit/rate-limit.middleware';

/**
 * The account's hourly request count (ACCOUNT_RATE_LIMIT_PER_HOUR), shared by every
 * authenticated surface: the /api/v1 routes (ApiKeyGuard) and the MCP account tools.
 */
@Injectable()
export class AccountRequestLimit {
  private readonly logger = new Logger(AccountRequestLimit.name);

  constructor(
    @Inject(RATE_LIMIT_STORAGE) private readonly storage: ThrottlerStorage,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Counts one request of the account; throws 429 `rate_limited` past the limit. With `res`,
   * writes the X-RateLimit-* headers of the count on it.
   */
  async count(accountId: string, res: Response | null): Promise<void> {
    try {
      await countHourly(
        this.storage,
        this.clock,
        res,
        `acct:${accountId}`,
        this.config.limits.accountRequestsPerHour,
        'requests from this account',
      );
    } catch (err) {
      if (err instanceof ApiError) throw err;
      // The count is unavailable (Redis down): serve rather than fail every request.
      this.logger.warn({ err }, 'rate-limit storage unavailable; request not counted');
    }
  }
}
