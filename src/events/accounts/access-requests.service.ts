import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';
import { Clock } from '../../platform/clock';
import { ApiError } from '../../platform/errors/api-error';
import { randomId } from '../../platform/ids';
import { AccessRequest, AccessRequestStore } from './access-request-store';
import { AccountStore } from './account-store';
import { AccessRequestDto, accessRequestSchema } from './dto/access-request.dto';

/** Requests for live delivery, as their account files and sees them. */
@Injectable()
export class AccessRequestsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accounts: AccountStore,
    private readonly requests: AccessRequestStore,
    private readonly clock: Clock,
  ) {}

  async create(accountId: string, input: z.infer<typeof accessRequestSchema>): Promise<AccessRequestDto> {
    const now = this.clock.now();
    return this.dataSource.transaction(async (m: EntityManager) => {
      const account = await this.accounts.lock(m, accountId);
      if (account?.liveDeliverySince)
        throw new ApiError('conflict', 'Live delivery is already enabled for this account.');
      if (await this.requests.hasPending(m, accountId))
        throw new ApiError('conflict', 'This account already has an access request waiting for a decision.');
      const created = await this.requests.insert(m, {
        id: randomId('ar'),
        accountId,
        countries: input.countries,
        monthlyVolume: input.monthlyVolume,
        events: input.events,
        useCase: input.useCase,
        createdAt: now,
      });
      return toAccessRequestDto(created);
    });
  }

  async list(accountId: string): Promise<AccessRequestDto[]> {
    return (await this.requests.listByAccount(accountId)).map(toAccessRequestDto);
  }
}

function toAccessRequestDto(r: AccessRequest): AccessRequestDto {
  return {
    id: r.id,
    state: r.state,
    countries: r.countries,
    monthlyVolume: r.monthlyVolume,
    events: r.events,
    useCase: r.useCase,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decisionReason: r.decisionReason,
  };
}
