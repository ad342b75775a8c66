import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { queryRows } from '../../platform/database/sql';

/** One row of `api_key`. The key itself is never stored: its SHA-256 and a short prefix to find the row by. */
export interface ApiKey {
  id: string;
  accountId: string;
  name: string | null;
  prefix: string;
  keyHash: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

interface ApiKeyRow {
  id: string;
  account_id: string;
  name: string | null;
  prefix: string;
  key_hash: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

const COLUMNS = 'id, account_id, name, prefix, key_hash, created_at, last_used_at, revoked_at';

function toApiKey(r: ApiKeyRow): ApiKey {
  return {
    id: r.id,
    accountId: r.account_id,
    name: r.name,
    prefix: r.prefix,
    keyHash: r.key_hash,
    createdAt: r.created_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
  };
}

/** The SQL of `api_key`. Methods that take a manager run in the caller's transaction; the others on their own. */
@Injectable()
export class ApiKeyStore {
  constructor(private readonly dataSource: DataSource) {}

  async insert(m: EntityManager, k: Omit<ApiKey, 'lastUsedAt' | 'revokedAt'>): Promise<void> {
    await m.query(
      `INSERT INTO api_key (id, account_id, name, prefix, key_hash, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [k.id, k.accountId, k.name, k.prefix, k.keyHash, k.createdAt],
    );
  }

  async listByAccount(accountId: string): Promise<ApiKey[]> {
    const rows = await queryRows<ApiKeyRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM api_key WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return rows.map(toApiKey);
  }

  /** The keys a key's prefix may belong to (the hash tells which, if any). */
  async findByPrefix(prefix: string): Promise<ApiKey[]> {
    const rows = await queryRows<ApiKeyRow>(this.dataSource, `SELECT ${COLUMNS} FROM api_key WHERE prefix = $1`, [
      prefix,
    ]);
    return rows.map(toApiKey);
  }

  async find(m: EntityManager, accountId: string, id: string): Promise<ApiKey | null> {
    const rows = await queryRows<ApiKeyRow>(m, `SELECT ${COLUMNS} FROM api_key WHERE id = $1 AND account_id = $2`, [
      id,
      accountId,
    ]);
    return rows.length ? toApiKey(rows[0]) : null;
  }

  async countActive(m: EntityManager, accountId: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      m,
      `SELECT count(*)::int AS n FROM api_key WHERE account_id = $1 AND revoked_at IS NULL`,
      [accountId],
    );
    return rows[0].n;
  }

  async revoke(m: EntityManager, id: string, at: Date): Promise<ApiKey> {
    const rows = await queryRows<ApiKeyRow>(
      m,
      `UPDATE api_key SET revoked_at = $2 WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, at],
    );
    return toApiKey(rows[0]);
  }

  async markUsed(id: string, at: Date): Promise<void> {
    await this.dataSource.query(`UPDATE api_key SET last_used_at = $2 WHERE id = $1`, [id, at]);
  }
}
