import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../platform/clock';
import { ApiError } from '../../platform/errors/api-error';
import { isIdOf, randomId } from '../../platform/ids';
import { queryRows } from '../../platform/database/sql';
import { newApiKey } from './api-keys';
import { AccountDto, ApiKeyDto, NewApiKeyDto, SignupDto } from './dto/account.dto';

/** Active keys an account may hold at once. */
export const MAX_ACTIVE_KEYS = 20;

interface KeyRow {
  id: string;
  name: string | null;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Free accounts and their API keys. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async signUp(email: string): Promise<SignupDto> {
    const now = this.clock.now();
    const id = randomId('acct');
    return this.dataSource.transaction(async (m) => {
      await m.query(`INSERT INTO account (id, email, created_at) VALUES ($1, $2, $3)`, [id, email, now]);
      const created = await this.insertKey(m, id, 'default', now);
      return {
        account: { id, email, createdAt: now.toISOString(), liveDelivery: { enabled: false, since: null } },
        ...created,
      };
    });
  }

  async get(accountId: string): Promise<AccountDto> {
    const rows: Array<{ id: string; email: string; created_at: Date; live_delivery_since: Date | null }> =
      await this.dataSource.query(`SELECT id, email, created_at, live_delivery_since FROM account WHERE id = $1`, [
        accountId,
      ]);
    const a = rows[0];
    if (!a) throw new ApiError('resource_not_found', 'The account of this key no longer exists.');
    return {
      id: a.id,
      email: a.email,
      createdAt: a.created_at.toISOString(),
      liveDelivery: { enabled: a.live_delivery_since !== null, since: a.live_delivery_since?.toISOString() ?? null },
    };
  }

  async listKeys(accountId: string): Promise<ApiKeyDto[]> {
    const rows: KeyRow[] = await this.dataSource.query(
      `SELECT id, name, prefix, created_at, last_used_at, revoked_at FROM api_key WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return rows.map(toKeyDto);
  }

  async createKey(accountId: string, name: string | undefined): Promise<NewApiKeyDto> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (m) => {
      // The account row lock makes the count exact when two keys are created at once.
      await m.query(`SELECT id FROM account WHERE id = $1 FOR UPDATE`, [accountId]);
      const active: Array<{ n: number }> = await m.query(
        `SELECT count(*)::int AS n FROM api_key WHERE account_id = $1 AND revoked_at IS NULL`,
        [accountId],
      );
      if (active[0].n >= MAX_ACTIVE_KEYS)
        throw new ApiError('conflict', `An account holds at most ${MAX_ACTIVE_KEYS} active keys: revoke one first.`);
      return this.insertKey(m, accountId, name ?? null, now);
    });
  }

  /** Revokes a key of the account; the last active key cannot be revoked (the account would be locked out). */
  async revokeKey(accountId: string, keyId: string): Promise<ApiKeyDto> {
    if (!isIdOf('key', keyId)) throw notFound(keyId);
    const now = this.clock.now();
    return this.dataSource.transaction(async (m) => {
      await m.query(`SELECT id FROM account WHERE id = $1 FOR UPDATE`, [accountId]);
      const rows: KeyRow[] = await m.query(
        `SELECT id, name, prefix, created_at, last_used_at, revoked_at FROM api_key WHERE id = $1 AND account_id = $2`,
        [keyId, accountId],
      );
      if (rows.length === 0) throw notFound(keyId);
      if (rows[0].revoked_at) return toKeyDto(rows[0]);
      const active: Array<{ n: number }> = await m.query(
        `SELECT count(*)::int AS n FROM api_key WHERE account_id = $1 AND revoked_at IS NULL`,
        [accountId],
      );
      if (active[0].n <= 1)
        throw new ApiError('conflict', 'This is the account’s last active key: create another one before revoking it.');
      const updated = await queryRows<KeyRow>(
        m,
        `UPDATE api_key SET revoked_at = $2 WHERE id = $1 RETURNING id, name, prefix, created_at, last_used_at, revoked_at`,
        [keyId, now],
      );
      return toKeyDto(updated[0]);
    });
  }

  private async insertKey(m: EntityManager, accountId: string, name: string | null, now: Date): Promise<NewApiKeyDto> {
    const id = randomId('key');
    const { key, prefix, hash } = newApiKey();
    await m.query(
      `INSERT INTO api_key (id, account_id, name, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [id, accountId, name, prefix, hash, now],
    );
    return { apiKey: key, key: { id, name, prefix, createdAt: now.toISOString(), lastUsedAt: null, revokedAt: null } };
  }
}

function toKeyDto(r: KeyRow): ApiKeyDto {
  return {
    id: r.id,
    name: r.name,
    prefix: r.prefix,
    createdAt: r.created_at.toISOString(),
    lastUsedAt: r.last_used_at?.toISOString() ?? null,
    revokedAt: r.revoked_at?.toISOString() ?? null,
  };
}

function notFound(keyId: string): ApiError {
  return new ApiError('resource_not_found', `This account has no API key ${String(keyId).slice(0, 40)}.`);
}
