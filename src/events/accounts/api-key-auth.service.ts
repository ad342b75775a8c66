import { Injectable, Logger } from '@nestjs/common';
import { Clock } from '../../platform/clock';
import { ApiError } from '../../platform/errors/api-error';
import { ApiKeyStore } from './api-key-store';
import { isApiKeyShaped, keyMatches, keyPrefix } from './api-keys';

/** Who made an authenticated request. */
export interface Principal {
  accountId: string;
  keyId: string;
}

/** last_used_at is written at most this often per key (not a write per request). */
const LAST_USED_RESOLUTION_MS = 5 * 60_000;
const REALM = 'Bearer realm="registry-lookup"';

/**
 * `Authorization: Bearer <api key>` → the account. The key is found by its prefix and
 * compared by hash in constant time; a revoked or unknown key is a 401 like a missing one
 * (RFC 6750: WWW-Authenticate says which). The key never reaches a log or an error message.
 */
@Injectable()
export class ApiKeyAuth {
  private readonly logger = new Logger(ApiKeyAuth.name);

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly clock: Clock,
  ) {}

  async authenticate(authorization: string | string[] | undefined): Promise<Principal> {
    if (authorization === undefined || authorization === '') {
      throw unauthorized(
        'This endpoint needs an API key: send Authorization: Bearer <api key>. Create an account with POST /api/v1/accounts.',
        REALM,
      );
    }
    const match = typeof authorization === 'string' ? /^Bearer +(\S+) *$/i.exec(authorization) : null;
    if (!match)
      throw unauthorized('The Authorization header must be "Bearer <api key>".', `${REALM}, error="invalid_request"`);
    const key = match[1];
    if (!isApiKeyShaped(key)) throw invalidToken('The API key is malformed.');
    const row = (await this.keys.findByPrefix(keyPrefix(key))).find((k) => keyMatches(key, k.keyHash));
    if (!row) throw invalidToken('The API key is not known.');
    if (row.revokedAt) throw invalidToken('The API key was revoked.');
    const now = this.clock.now();
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
      await this.keys
        .markUsed(row.id, now)
        .catch((err: Error) => this.logger.warn(`could not note the use of key ${row.id}: ${err.message}`));
    }
    return { accountId: row.accountId, keyId: row.id };
  }
}

function unauthorized(detail: string, challenge: string): ApiError {
  return new ApiError('unauthorized', detail, {}, { 'WWW-Authenticate': challenge });
}

function invalidToken(detail: string): ApiError {
  return unauthorized(detail, `${REALM}, error="invalid_token", error_description="${detail.replace(/"/g, '')}"`);
}
