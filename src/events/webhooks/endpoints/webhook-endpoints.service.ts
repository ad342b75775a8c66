import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { Clock } from '../../../platform/clock';
import { ApiError } from '../../../platform/errors/api-error';
import { isIdOf, randomId } from '../../../platform/ids';
import { queryRows } from '../../../platform/database/sql';
import { DeliveryOutcomes } from '../delivery/delivery-outcomes';
import { DEFAULT_SUBSCRIPTION } from '../../event-kinds';
import { TargetGuard } from '../outbound/target-guard.service';
import { newWebhookSecret } from '../signing/standard-webhooks';
import {
  createEndpointSchema,
  updateEndpointSchema,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from './dto/webhook-endpoint.dto';

/** Endpoints one account may have. */
export const MAX_ENDPOINTS = 20;
/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

interface EndpointRow {
  id: string;
  url: string;
  description: string | null;
  events: string[];
  enabled: boolean;
  disabled_at: Date | null;
  disabled_reason: string | null;
  previous_secret_expires_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS =
  'id, url, description, events, enabled, disabled_at, disabled_reason, previous_secret_expires_at, created_at, updated_at';

/** An account's webhook endpoints: their URL (checked by the target guard), subscriptions, state and secret. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly guard: TargetGuard,
    private readonly outcomes: DeliveryOutcomes,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string, input: z.infer<typeof createEndpointSchema>): Promise<WebhookEndpointWithSecretDto> {
    const url = await this.guard.checkForSave(input.url);
    const now = this.clock.now();
    const secret = newWebhookSecret();
    const row = await this.dataSource.transaction(async (m) => {
      await m.query(`SELECT id FROM account WHERE id = $1 FOR UPDATE`, [accountId]);
      const count: Array<{ n: number }> = await m.query(
        `SELECT count(*)::int AS n FROM webhook_endpoint WHERE account_id = $1`,
        [accountId],
      );
      if (count[0].n >= MAX_ENDPOINTS)
        throw new ApiError('conflict', `An account has at most ${MAX_ENDPOINTS} webhook endpoints: delete one first.`);
      const rows: EndpointRow[] = await m.query(
        `INSERT INTO webhook_endpoint (id, account_id, url, description, events, secret, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${COLUMNS}`,
        [randomId('we'), accountId, url, input.description ?? null, input.events ?? DEFAULT_SUBSCRIPTION, secret, now],
      );
      return rows[0];
    });
    return { ...toDto(row), secret };
  }

  async list(accountId: string): Promise<WebhookEndpointDto[]> {
    const rows: EndpointRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM webhook_endpoint WHERE account_id = $1 ORDER BY created_at, id`,
      [accountId],
    );
    return rows.map(toDto);
  }

  async get(accountId: string, id: string): Promise<WebhookEndpointDto> {
    return toDto(await this.row(accountId, id));
  }

  async update(
    accountId: string,
    id: string,
    input: z.infer<typeof updateEndpointSchema>,
  ): Promise<WebhookEndpointDto> {
    await this.row(accountId, id);
    const url = input.url !== undefined ? await this.guard.checkForSave(input.url) : undefined;
    const now = this.clock.now();
    return this.dataSource.transaction(async (m) => {
      const sets: string[] = ['updated_at = $3'];
      const params: unknown[] = [id, accountId, now];
      const set = (column: string, value: unknown) => sets.push(`${column} = $${params.push(value)}`);
      if (url !== undefined) set('url', url);
      if (input.events !== undefined) set('events', input.events);
      if (input.description !== undefined) set('description', input.description);
      if (input.enabled === true)
        sets.push('enabled = true', 'disabled_at = NULL', 'disabled_reason = NULL', 'failing_since = NULL');
      await m.query(`UPDATE webhook_endpoint SET ${sets.join(', ')} WHERE id = $1 AND account_id = $2`, params);
      if (input.enabled === false) await this.outcomes.disable(m, id, 'Disabled through the API.', now);
      const rows: EndpointRow[] = await m.query(`SELECT ${COLUMNS} FROM webhook_endpoint WHERE id = $1`, [id]);
      return toDto(rows[0]);
    });
  }

  /** Deletes the endpoint with its delivery log (events stay listed under /events). */
  async remove(accountId: string, id: string): Promise<void> {
    if (!isIdOf('we', id)) throw notFound(id);
    const deleted = await queryRows(
      this.dataSource,
      `DELETE FROM webhook_endpoint WHERE id = $1 AND account_id = $2 RETURNING id`,
      [id, accountId],
    );
    if (deleted.length === 0) throw notFound(id);
  }

  /** A new secret; the previous one keeps signing (a second `v1,` entry) for 24 hours. */
  async rotateSecret(accountId: string, id: string): Promise<WebhookEndpointWithSecretDto> {
    await this.row(accountId, id);
    const now = this.clock.now();
    const secret = newWebhookSecret();
    const rows = await queryRows<EndpointRow>(
      this.dataSource,
      `UPDATE webhook_endpoint SET previous_secret = secret, previous_secret_expires_at = $3, secret = $4, updated_at = $5
       WHERE id = $1 AND account_id = $2 RETURNING ${COLUMNS}`,
      [id, accountId, new Date(now.getTime() + ROTATION_OVERLAP_MS), secret, now],
    );
    return { ...toDto(rows[0]), secret };
  }

  /** The endpoint if it belongs to the account; 404 otherwise (another account's endpoint is not told apart). */
  async row(accountId: string, id: string): Promise<EndpointRow> {
    if (!isIdOf('we', id)) throw notFound(id);
    const rows: EndpointRow[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM webhook_endpoint WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    if (rows.length === 0) throw notFound(id);
    return rows[0];
  }
}

function toDto(r: EndpointRow): WebhookEndpointDto {
  return {
    id: r.id,
    url: r.url,
    description: r.description,
    events: r.events,
    enabled: r.enabled,
    disabledAt: r.disabled_at?.toISOString() ?? null,
    disabledReason: r.disabled_reason,
    previousSecretExpiresAt: r.previous_secret_expires_at?.toISOString() ?? null,
    createdAt: r.created_at.toISOString(),
    updatedAt: r.updated_at.toISOString(),
  };
}

export function notFound(id: string): ApiError {
  return new ApiError('resource_not_found', `This account has no webhook endpoint ${String(id).slice(0, 40)}.`);
}
