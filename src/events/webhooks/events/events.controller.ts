import { Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiKeyGuard, CurrentPrincipal } from '../../accounts/api-key.guard';
import type { Principal } from '../../accounts/api-key-auth.service';
import { ApiAccountErrors } from '../../../platform/openapi/api-account-errors.decorator';
import { parseQuery } from '../../../platform/validation/zod-input';
import { BUILT_EVENT_KINDS } from '../../event-kinds';
import { EventListDto, eventsQuerySchema, EventWithDeliveriesDto } from './dto/event.dto';
import { EventsService } from './events.service';

@ApiTags('events')
@Controller('api/v1/events')
@UseGuards(ApiKeyGuard)
export class EventsController {
  constructor(private readonly events: EventsService) {}

  @Get()
  @ApiOperation({
    summary: 'The account’s events, newest first',
    description:
      'Every event emitted for the account, sent or held, with the envelope as delivered. Pull them to catch up after lost deliveries.',
  })
  @ApiQuery({ name: 'event', required: false, enum: BUILT_EVENT_KINDS })
  @ApiQuery({ name: 'isTest', required: false, type: Boolean })
  @ApiQuery({
    name: 'entityId',
    required: false,
    description:
      'One company’s events (`data.entity_id`, e.g. `ent_gb_04475590`): where a gap in `data.sequence` is found.',
  })
  @ApiQuery({
    name: 'since',
    required: false,
    description: 'Only events created at or after this time (ISO 8601).',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({
    name: 'until',
    required: false,
    description: 'Only events created before this time (ISO 8601).',
    schema: { type: 'string', format: 'date-time' },
  })
  @ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } })
  @ApiQuery({ name: 'cursor', required: false, description: '`nextCursor` of the previous page.' })
  @ApiOkResponse({ type: EventListDto })
  @ApiAccountErrors('invalid_parameter')
  list(@CurrentPrincipal() principal: Principal, @Query() query: unknown): Promise<EventListDto> {
    return this.events.list(principal.accountId, parseQuery(eventsQuerySchema, query));
  }

  @Get(':eventId')
  @ApiOperation({ summary: 'One event, with its deliveries' })
  @ApiParam({ name: 'eventId', example: 'evt_0dLw3pR8xT2mQa7cVn5yKj' })
  @ApiOkResponse({ type: EventWithDeliveriesDto })
  @ApiAccountErrors('resource_not_found')
  get(@CurrentPrincipal() principal: Principal, @Param('eventId') eventId: string): Promise<EventWithDeliveriesDto> {
    return this.events.get(principal.accountId, eventId);
  }
}
