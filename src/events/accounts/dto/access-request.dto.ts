import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { COUNTRY_CODES } from '../../../registers/registers';
import { BUILT_EVENT_KINDS, eventKindSchema } from '../../event-kinds';

export const ACCESS_REQUEST_STATES = ['pending', 'approved', 'rejected'] as const;

export const accessRequestSchema = z
  .object({
    countries: z
      .array(z.enum(COUNTRY_CODES, { error: `allowed: ${COUNTRY_CODES.join(', ')}` }))
      .min(1)
      .max(COUNTRY_CODES.length * 2)
      .transform((list) => [...new Set(list)])
      .describe('Countries whose registers you want changes from (ISO 3166-1 alpha-2, upper case).'),
    monthlyVolume: z.number().int().min(1).max(1_000_000_000).describe('Events you expect per month.'),
    events: z
      .array(eventKindSchema)
      .min(1)
      .max(BUILT_EVENT_KINDS.length * 2)
      .transform((list) => [...new Set(list)])
      .describe('Event kinds of interest.'),
    useCase: z.string().trim().min(10).max(2_000).describe('What you will use the events for (10–2000 characters).'),
  })
  .strict();

export class AccessRequestDto {
  @ApiProperty({ example: 'ar_2WcX7dLq0pYv3sNb8tRk1m' }) id: string;
  @ApiProperty({
    enum: ACCESS_REQUEST_STATES,
    description: 'pending until an operator decides; approved enables live delivery for the account.',
  })
  state: string;
  @ApiProperty({ type: [String], enum: COUNTRY_CODES }) countries: string[];
  @ApiProperty({ type: 'integer' }) monthlyVolume: number;
  @ApiProperty({ type: [String], enum: BUILT_EVENT_KINDS }) events: string[];
  @ApiProperty() useCase: string;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) decidedAt: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why a request was rejected.' }) decisionReason:
    string | null;
}

export class AccessRequestListDto {
  @ApiProperty({ type: [AccessRequestDto] }) data: AccessRequestDto[];
}
