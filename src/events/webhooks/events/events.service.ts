import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { z } from 'zod';
import { ApiError } from '../../../platform/errors/api-error';
import { isIdOf } from '../../../platform/ids';
import { page, pageConditions } from '../../../platform/pagination';
import { EventDto, EventListDto, eventsQuerySchema, EventWithDeliveriesDto } from './dto/event.dto';

interface EventRow {
  id: string;
  kind: string;
  is_test: boolean;
  body: string;
  created_at: Date;
}

/** An account's events, newest first: a receiver that lost deliveries catches up by pulling them. */
@Injectable()
export class EventsService {
  constructor(private readonly dataSource: DataSource) {}

  async list(accountId: string, q: z.infer<typeof eventsQuerySchema>): Promise<EventListDto> {
    const params: unknown[] = [accountId];
    let where = 'account_id = $1';
    if (q.event) where += ` AND kind = $${params.push(q.event)}`;
    if (q.isTest !== undefined) where += ` AND is_test = $${params.push(q.isTest)}`;
    const window = pageConditions(q, params.length + 1);
    params.push(...window.params);
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT id, kind, is_test, body, created_at FROM event WHERE ${where}${window.sql} ORDER BY created_at DESC, id DESC LIMIT ${q.limit + 1}`,
      params,
    );
    const p = page(rows, q.limit, (r) => ({ createdAt: r.created_at, id: r.id }));
    return { data: p.rows.map(toDto), nextCursor: p.nextCursor };
  }

  async get(accountId: string, id: string): Promise<EventWithDeliveriesDto> {
    const missing = new ApiError('resource_not_found', `This account has no event ${String(id).slice(0, 40)}.`);
    if (!isIdOf('evt', id)) throw missing;
    const rows: EventRow[] = await this.dataSource.query(
      `SELECT id, kind, is_test, body, created_at FROM event WHERE id = $1 AND account_id = $2`,
      [id, accountId],
    );
    if (rows.length === 0) throw missing;
    const deliveries: Array<{ id: string; endpoint_id: string; state: string }> = await this.dataSource.query(
      `SELECT id, endpoint_id, state FROM delivery WHERE event_id = $1 ORDER BY created_at, id`,
      [id],
    );
    return {
      ...toDto(rows[0]),
      deliveries: deliveries.map((d) => ({ id: d.id, endpointId: d.endpoint_id, state: d.state })),
    };
  }
}

function toDto(r: EventRow): EventDto {
  return {
    id: r.id,
    event: r.kind,
    isTest: r.is_test,
    createdAt: r.created_at.toISOString(),
    payload: JSON.parse(r.body) as Record<string, unknown>,
  };
}
