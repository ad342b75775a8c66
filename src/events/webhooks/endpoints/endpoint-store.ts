import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SecretBox } from '../../../platform/crypto/secret-box';
import { queryRows } from '../../../platform/database/sql';
import type { EventKind } from '../../event-kinds';

/** One row of `webhook_endpoint`. */
export interface WebhookEndpoint {
  id: string;
  accountId: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabledAt: Date | null;
  disabledReason: string | null;
  /** Start of an unbroken run of failed attempts (cleared by any success). */
  failingSince: Date | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What an update through the API changes; `enable` also clears the disabling and the run of failures. */
export interface EndpointChanges {
  url?: string;
  events?: string[];
  description?: string | null;
  enable?: boolean;
}

interface EndpointRow {
  id: string;
  account_id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_at: Date | null;
  disabled_reason: string | null;
  failing_since: Date | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, account_id, url, description, events, enabled, disabled_at, disabled_reason, failing_since, secret,
  previous_secret, previous_secret_expires_at, created_at, updated_at`;

function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    id: r.id,
    accountId: r.account_id,
    url: r.url,
    description: r.description,
    events: r.events,
    enabled: r.enabled,
    disabledAt: r.disabled_at,
    disabledReason: r.disabled_reason,
    failingSince: r.failing_since,
    secret: r.secret,
    previousSecret: r.previous_secret,
    previousSecretExpiresAt: r.previous_secret_expires_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * The SQL of `webhook_endpoint` (the claims and outcomes read and mark endpoints in their own
 * statements: see DeliveryStore and DeliveryOutcomes). Methods that take a manager run in the
 * caller's transaction; the others on their own.
 */
@Injectable()
export class EndpointStore {
  constructor(
    private readonly dataSource: DataSource,
    private readonly box: SecretBox,
  ) {}

  /** Stores the endpoint; its secret (`whsec_…`) is sealed (secret-box.ts): the row never holds it in clear. */
  async insert(
    m: EntityManager,
    e: Pick<WebhookEndpoint, 'id' | 'accountId' | 'url' | 'description' | 'secret' | 'createdAt'> & {
      events: readonly string[];
    },
  ): Promise<WebhookEndpoint> {
    const rows = await queryRows<EndpointRow>(
      m,
      `INSERT INTO webhook_endpoint (id, account_id, url, description, events, secret, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${COLUMNS}`,
      [e.id, e.accountId, e.url, e.description, e.events, this.box.seal(e.secret), e.createdAt],
    );
    return toEndpoint(rows[0]);
  }

  async countByAccount(m: EntityManager, accountId: string): Promise<number> {
    const rows = await queryRows<{ n: number }>(
      m,
      `SELECT count(*)::int AS n FROM webhook_endpoint WHERE account_id = $1`,
      [accountId],
    );
    return rows[0].n;
  }

  async listByAccount(accountId: string): Promise<WebhookEndpoint[]> {
    const rows = await queryRows<EndpointRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM webhook_endpoint WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return rows.map(toEndpoint);
  }

  /** The endpoint if it belongs to the account. */
  async find(m: EntityManager, accountId: string, id: string): Promise<WebhookEndpoint | null> {
    const rows = await queryRows<EndpointRow>(
      m,
      `SELECT ${COLUMNS} FROM webhook_endpoint WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    return rows.length ? toEndpoint(rows[0]) : null;
  }

  /** The ids of the account's enabled endpoints that receive `kind`, oldest first. */
  async subscribedTo(m: EntityManager, accountId: string, kind: EventKind): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      m,
      `SELECT id FROM webhook_endpoint WHERE account_id = $1 AND enabled AND $2 = ANY(events) ORDER BY created_at, id`,
      [accountId, kind],
    );
    return rows.map((r) => r.id);
  }

  /** Which of these endpoints are the account's and enabled, oldest first. */
  async enabledAmong(m: EntityManager, accountId: string, ids: string[]): Promise<string[]> {
    const rows = await queryRows<{ id: string }>(
      m,
      `SELECT id FROM webhook_endpoint WHERE account_id = $1 AND enabled AND id = ANY($2::text[]) ORDER BY created_at, id`,
      [accountId, ids],
    );
    return rows.map((r) => r.id);
  }

  async update(m: EntityManager, accountId: string, id: string, changes: EndpointChanges, now: Date): Promise<void> {
    const sets: string[] = ['updated_at = $3'];
    const params: unknown[] = [id, accountId, now];
    const set = (column: string, value: unknown) => sets.push(`${column} = $${params.push(value)}`);
    if (changes.url !== undefined) set('url', changes.url);
    if (changes.events !== undefined) set('events', changes.events);
    if (changes.description !== undefined) set('description', changes.description);
    if (changes.enable)
      sets.push('enabled = true', 'disabled_at = NULL', 'disabled_reason = NULL', 'failing_since = NULL');
    await m.query(`UPDATE webhook_endpoint SET ${sets.join(', ')} WHERE id = $1 AND account_id = $2`, params);
  }

  /** Disables the endpoint if it is enabled; whether it was. */
  async disable(m: EntityManager, id: string, reason: string, now: Date): Promise<boolean> {
    const changed = await queryRows(
      m,
      `UPDATE webhook_endpoint SET enabled = false, disabled_at = $2, disabled_reason = $3, updated_at = $2 WHERE id = $1 AND enabled RETURNING id`,
      [id, now, reason],
    );
    return changed.length > 0;
  }

  /** A new secret; the previous one keeps signing until `previousExpiresAt`. Null when the account has no such endpoint. */
  async rotateSecret(
    accountId: string,
    id: string,
    secret: string,
    previousExpiresAt: Date,
    now: Date,
  ): Promise<WebhookEndpoint | null> {
    const rows = await queryRows<EndpointRow>(
      this.dataSource,
      `UPDATE webhook_endpoint SET previous_secret = secret, previous_secret_expires_at = $3, secret = $4, updated_at = $5
       WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, accountId, previousExpiresAt, this.box.seal(secret), now],
    );
    return rows.length ? toEndpoint(rows[0]) : null;
  }

  /**
   * Seals what is stored in clear (rows from before sealing) or with an older key, with the
   * current key: run at boot, so a key rotation completes as each process starts. A row changed
   * meanwhile is left to the next run. A value sealed with a key this process does not hold is
   * left as it is and counted as unreadable.
   */
  async resealSecrets(): Promise<{ sealed: number; unreadable: number }> {
    const rows = await queryRows<{ id: string; secret: string; previous_secret: string | null }>(
      this.dataSource,
      `SELECT id, secret, previous_secret FROM webhook_endpoint`,
    );
    let sealed = 0;
    let unreadable = 0;
    for (const r of rows) {
      for (const column of ['secret', 'previous_secret'] as const) {
        const value = r[column];
        if (value === null || !this.box.needsResealing(value)) continue;
        let plain: string;
        try {
          plain = this.box.open(value);
        } catch {
          unreadable++;
          continue;
        }
        const changed = await queryRows(
          this.dataSource,
          `UPDATE webhook_endpoint SET ${column} = $3 WHERE id = $1 AND ${column} = $2 RETURNING id`,
          [r.id, value, this.box.seal(plain)],
        );
        sealed += changed.length;
      }
    }
    return { sealed, unreadable };
  }

  /** Deletes the endpoint with its deliveries (ON DELETE CASCADE); whether the account had it. */
  async delete(accountId: string, id: string): Promise<boolean> {
    const deleted = await queryRows(
      this.dataSource,
      `DELETE FROM webhook_endpoint WHERE id = $1 AND account_id = $2 RETURNING id`,
      [id, accountId],
    );
    return deleted.length > 0;
  }
}
