import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock';
import { ApiError } from '../../platform/errors/api-error';
import { isIdOf, randomId } from '../../platform/ids';
import { AccountStore } from './account-store';
import { ApiKey, ApiKeyStore } from './api-key-store';
import { newApiKey } from './api-keys';
import { AccountDto, ApiKeyDto, NewApiKeyDto, SignupDto } from './dto/account.dto';

/** Active keys an account may hold at once. */
export const MAX_ACTIVE_KEYS = 20;

/** Free accounts and their API keys. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountStore,
    private readonly keys: ApiKeyStore,
    private readonly clock: Clock,
  ) {}

  async signUp(email: string): Promise<SignupDto> {
    const now = this.clock.now();
    const id = randomId('acct');
    return this.dataSource.transaction(async (m) => {
      await this.accounts.insert(m, { id, email, createdAt: now });
      const created = await this.insertKey(m, id, 'default', now);
      return {
        account: { id, email, createdAt: now.toISOString(), liveDelivery: { enabled: false, since: null } },
        ...created,
      };
    });
  }

  async get(accountId: string): Promise<AccountDto> {
    const a = await this.accounts.find(this.dataSource.manager, accountId);
    if (!a) throw new ApiError('resource_not_found', 'The account of this key no longer exists.');
    return {
      id: a.id,
      email: a.email,
      createdAt: a.createdAt.toISOString(),
      liveDelivery: { enabled: a.liveDeliverySince !== null, since: a.liveDeliverySince?.toISOString() ?? null },
    };
  }

  async listKeys(accountId: string): Promise<ApiKeyDto[]> {
    return (await this.keys.listByAccount(accountId)).map(toKeyDto);
  }

  async createKey(accountId: string, name: string | undefined): Promise<NewApiKeyDto> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (m) => {
      // The account row lock makes the count exact when two keys are created at once.
      await this.accounts.lock(m, accountId);
      if ((await this.keys.countActive(m, accountId)) >= MAX_ACTIVE_KEYS)
        throw new ApiError('conflict', `An account holds at most ${MAX_ACTIVE_KEYS} active keys: revoke one first.`);
      return this.insertKey(m, accountId, name ?? null, now);
    });
  }

  /** Revokes a key of the account; the last active key cannot be revoked (the account would be locked out). */
  async revokeKey(accountId: string, keyId: string): Promise<ApiKeyDto> {
    if (!isIdOf('key', keyId)) throw notFound(keyId);
    const now = this.clock.now();
    return this.dataSource.transaction(async (m) => {
      await this.accounts.lock(m, accountId);
      const key = await this.keys.find(m, accountId, keyId);
      if (!key) throw notFound(keyId);
      if (key.revokedAt) return toKeyDto(key);
      if ((await this.keys.countActive(m, accountId)) <= 1)
        throw new ApiError('conflict', 'This is the account’s last active key: create another one before revoking it.');
      return toKeyDto(await this.keys.revoke(m, keyId, now));
    });
  }

  private async insertKey(m: EntityManager, accountId: string, name: string | null, now: Date): Promise<NewApiKeyDto> {
    const id = randomId('key');
    const { key, prefix, hash } = newApiKey();
    await this.keys.insert(m, { id, accountId, name, prefix, keyHash: hash, createdAt: now });
    return { apiKey: key, key: { id, name, prefix, createdAt: now.toISOString(), lastUsedAt: null, revokedAt: null } };
  }
}

function toKeyDto(k: ApiKey): ApiKeyDto {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
  };
}

function notFound(keyId: string): ApiError {
  return new ApiError('resource_not_found', `This account has no API key ${String(keyId).slice(0, 40)}.`);
}
