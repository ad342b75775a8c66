import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { Clock } from '../../../platform/clock';
import { ApiError } from '../../../platform/errors/api-error';
import { isIdOf, randomId } from '../../../platform/ids';
import { AccountGate } from '../../accounts/account-gate.service';
import { DEFAULT_SUBSCRIPTION } from '../../event-kinds';
import { DeliveryOutcomes } from '../delivery/delivery-outcomes';
import { TargetGuard } from '../outbound/target-guard.service';
import { newWebhookSecret } from '../signing/standard-webhooks';
import {
  createEndpointSchema,
  updateEndpointSchema,
  WebhookEndpointDto,
  WebhookEndpointWithSecretDto,
} from './dto/webhook-endpoint.dto';
import { EndpointStore, WebhookEndpoint } from './endpoint-store';

/** Endpoints one account may have. */
export const MAX_ENDPOINTS = 20;
/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

/** An account's webhook endpoints: their URL (checked by the target guard), subscriptions, state and secret. */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EndpointStore,
    private readonly accounts: AccountGate,
    private readonly guard: TargetGuard,
    private readonly outcomes: DeliveryOutcomes,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string, input: z.infer<typeof createEndpointSchema>): Promise<WebhookEndpointWithSecretDto> {
    const url = await this.guard.checkForSave(input.url);
    const now = this.clock.now();
    const secret = newWebhookSecret();
    const endpoint = await this.dataSource.transaction(async (m) => {
      await this.accounts.lock(m, accountId);
      if ((await this.store.countByAccount(m, accountId)) >= MAX_ENDPOINTS)
        throw new ApiError('conflict', `An account has at most ${MAX_ENDPOINTS} webhook endpoints: delete one first.`);
      return this.store.insert(m, {
        id: randomId('we'),
        accountId,
        url,
        description: input.description ?? null,
        events: input.events ?? DEFAULT_SUBSCRIPTION,
        secret,
        createdAt: now,
      });
    });
    return { ...toDto(endpoint), secret };
  }

  async list(accountId: string): Promise<WebhookEndpointDto[]> {
    return (await this.store.listByAccount(accountId)).map(toDto);
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
      const changes = { url, events: input.events, description: input.description, enable: input.enabled === true };
      await this.store.update(m, accountId, id, changes, now);
      if (input.enabled === false) await this.outcomes.disable(m, id, 'Disabled through the API.', now);
      return toDto((await this.store.find(m, accountId, id))!);
    });
  }

  /** Deletes the endpoint with its delivery log (events stay listed under /events). */
  async remove(accountId: string, id: string): Promise<void> {
    if (!isIdOf('we', id)) throw notFound(id);
    if (!(await this.store.delete(accountId, id))) throw notFound(id);
  }

  /** A new secret; the previous one keeps signing (a second `v1,` entry) for 24 hours. */
  async rotateSecret(accountId: string, id: string): Promise<WebhookEndpointWithSecretDto> {
    await this.row(accountId, id);
    const now = this.clock.now();
    const secret = newWebhookSecret();
    const rotated = await this.store.rotateSecret(
      accountId,
      id,
      secret,
      new Date(now.getTime() + ROTATION_OVERLAP_MS),
      now,
    );
    if (!rotated) throw notFound(id);
    return { ...toDto(rotated), secret };
  }

  /** The endpoint if it belongs to the account; 404 otherwise (another account's endpoint is not told apart). */
  async row(accountId: string, id: string): Promise<WebhookEndpoint> {
    if (!isIdOf('we', id)) throw notFound(id);
    const endpoint = await this.store.find(this.dataSource.manager, accountId, id);
    if (!endpoint) throw notFound(id);
    return endpoint;
  }
}

function toDto(e: WebhookEndpoint): WebhookEndpointDto {
  return {
    id: e.id,
    url: e.url,
    description: e.description,
    events: e.events,
    enabled: e.enabled,
    disabledAt: e.disabledAt?.toISOString() ?? null,
    disabledReason: e.disabledReason,
    previousSecretExpiresAt: e.previousSecretExpiresAt?.toISOString() ?? null,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}

export function notFound(id: string): ApiError {
  return new ApiError('resource_not_found', `This account has no webhook endpoint ${String(id).slice(0, 40)}.`);
}
