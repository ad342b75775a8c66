import { Injectable } from '@nestjs/common';
import { z } from 'zod';
import { ApiError } from '../../../platform/errors/api-error';
import { isIdOf } from '../../../platform/ids';
import { page } from '../../../platform/pagination';
import { DeliveryLogStore } from '../delivery/delivery-log-store';
import { EventDto, EventListDto, eventsQuerySchema, EventWithDeliveriesDto } from './dto/event.dto';
import { EventRecord, EventStore } from './event-store';

/** An account's events, newest first: a receiver that lost deliveries catches up by pulling them. */
@Injectable()
export class EventsService {
  constructor(
    private readonly events: EventStore,
    private readonly deliveries: DeliveryLogStore,
  ) {}

  async list(accountId: string, q: z.infer<typeof eventsQuerySchema>): Promise<EventListDto> {
    const rows = await this.events.list(accountId, { kind: q.event, isTest: q.isTest, entityId: q.entityId }, q);
    const p = page(rows, q.limit, (r) => ({ createdAt: r.createdAt, id: r.id }));
    return { data: p.rows.map(toDto), nextCursor: p.nextCursor };
  }

  async get(accountId: string, id: string): Promise<EventWithDeliveriesDto> {
    const missing = new ApiError('resource_not_found', `This account has no event ${String(id).slice(0, 40)}.`);
    if (!isIdOf('evt', id)) throw missing;
    const event = await this.events.find(accountId, id);
    if (!event) throw missing;
    return { ...toDto(event), deliveries: await this.deliveries.ofEvent(id) };
  }
}

function toDto(e: EventRecord): EventDto {
  return {
    id: e.id,
    event: e.kind,
    isTest: e.isTest,
    createdAt: e.createdAt.toISOString(),
    payload: JSON.parse(e.body) as Record<string, unknown>,
  };
}
