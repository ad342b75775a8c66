import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { pageQuery } from '../../../../platform/pagination';
import { windowInOrder } from '../../../../platform/validation/text-input';
import { BUILT_EVENT_KINDS, eventKindSchema } from '../../../event-kinds';

export const eventsQuerySchema = z
  .object({
    ...pageQuery,
    event: eventKindSchema.optional(),
    isTest: z
      .enum(['true', 'false'], { error: 'true or false' })
      .transform((v) => v === 'true')
      .optional(),
    /** One company's events (its `entity_id`): a receiver that sees a gap in `data.sequence` finds the missing one here. */
    entityId: z
      .string()
      .regex(/^ent_[a-z]{2}_[A-Za-z0-9-]{1,40}$/, { error: 'an entity id such as ent_gb_04475590' })
      .optional(),
  })
  .strict()
  .superRefine(windowInOrder);

export class EventDeliverySummaryDto {
  @ApiProperty() id: string;
  @ApiProperty() endpointId: string;
  @ApiProperty({ enum: ['pending', 'succeeded', 'failed', 'held'] }) state: string;
}

export class EventDto {
  @ApiProperty({ example: 'evt_0dLw3pR8xT2mQa7cVn5yKj' }) id: string;
  @ApiProperty({ enum: BUILT_EVENT_KINDS }) event: string;
  @ApiProperty() isTest: boolean;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: 'The envelope exactly as delivered (the request body of every attempt).',
  })
  payload: Record<string, unknown>;
}

export class EventWithDeliveriesDto extends EventDto {
  @ApiProperty({ type: [EventDeliverySummaryDto], description: 'One per endpoint the event went to.' })
  deliveries: EventDeliverySummaryDto[];
}

export class EventListDto {
  @ApiProperty({ type: [EventDto] }) data: EventDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (older events); null on the last page.',
  })
  nextCursor: string | null;
}
