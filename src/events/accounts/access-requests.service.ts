import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';
import { Clock } from '../../platform/clock';
import { ApiError } from '../../platform/errors/api-error';
import { randomId } from '../../platform/ids';
import { AccessRequestDto, accessRequestSchema } from './dto/access-request.dto';

export interface AccessRequestRow {
  id: string;
  account_id: string;
  countries: string[];
  monthly_volume: number;
  events: string[];
  use_case: string;
  state: 'pending' | 'approved' | 'rejected';
  created_at: Date;
  decided_at: Date | null;
  decision_reason: string | null;
}

export const ACCESS_REQUEST_COLUMNS =
  'id, account_id, countries, monthly_volume, events, use_case, state, created_at, decided_at, decision_reason';

/** Requests for live delivery, as their account files and sees them. */
@Injectable()
export class AccessRequestsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string, input: z.infer<typeof accessRequestSchema>): Promise<AccessRequestDto> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (m: EntityManager) => {
      const accounts: Array<{ live_delivery_since: Date | null }> = await m.query(
        `SELECT live_delivery_since FROM account WHERE id = $1 FOR UPDATE`,
        [accountId],
      );
      if (accounts[0]?.live_delivery_since)
        throw new ApiError('conflict', 'Live delivery is already enabled for this account.');
      const pending: unknown[] = await m.query(
        `SELECT 1 FROM access_request WHERE account_id = $1 AND state = 'pending'`,
        [accountId],
      );
      if (pending.length)
        throw new ApiError('conflict', 'This account already has an access request waiting for a decision.');
      const rows: AccessRequestRow[] = await m.query(
        `INSERT INTO access_request (id, account_id, countries, monthly_volume, events, use_case, state, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, 'pending', $7) RETURNING ${ACCESS_REQUEST_COLUMNS}`,
        [randomId('ar'), accountId, input.countries, input.monthlyVolume, input.events, input.useCase, now],
      );
      return toAccessRequestDto(rows[0]);
    });
  }

  async list(accountId: string): Promise<AccessRequestDto[]> {
    const rows: AccessRequestRow[] = await this.dataSource.query(
      `SELECT ${ACCESS_REQUEST_COLUMNS} FROM access_request WHERE account_id = $1 ORDER BY created_at DESC, id DESC`,
      [accountId],
    );
    return rows.map(toAccessRequestDto);
  }
}

export function toAccessRequestDto(r: AccessRequestRow): AccessRequestDto {
  return {
    id: r.id,
    state: r.state,
    countries: r.countries,
    monthlyVolume: r.monthly_volume,
    events: r.events,
    useCase: r.use_case,
    createdAt: r.created_at.toISOString(),
    decidedAt: r.decided_at?.toISOString() ?? null,
    decisionReason: r.decision_reason,
  };
}
