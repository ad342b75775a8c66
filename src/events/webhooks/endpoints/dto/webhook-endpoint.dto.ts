import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { z } from 'zod';
import { BUILT_EVENT_KINDS, DEFAULT_SUBSCRIPTION, eventKindSchema } from '../../../event-kinds';
import { MAX_URL_LENGTH } from '../../outbound/target-url';

const url = z
  // Only the type's own message: a URL too long or empty is told so (plain-messages), not "a URL string".
  .string({ error: (issue) => (issue.code === 'invalid_type' ? 'a URL string' : undefined) })
  .min(1)
  .max(MAX_URL_LENGTH)
  // A client never sends a fragment: kept, it would show a target the receiver never sees.
  .refine((v) => !v.includes('#'), {
    message: 'has a fragment (#…), which is never sent to the receiver: remove it',
    params: { code: 'invalid_url' },
  })
  .describe(
    'Where events are POSTed: http or https, any port, a public address (private, loopback, link-local and reserved addresses are refused), without a fragment (#…).',
  );
const events = z
  .array(eventKindSchema)
  .min(1)
  .max(BUILT_EVENT_KINDS.length * 2)
  .transform((list) => [...new Set(list)])
  .describe(
    `Event kinds to receive. Default: ${DEFAULT_SUBSCRIPTION.join(', ')} (every kind but company.no_change, sent only to endpoints that ask for it).`,
  );
const description = z.string().trim().max(500).nullable().describe('A note for yourself.');

export const createEndpointSchema = z
  .object({ url, events: events.optional(), description: description.optional() })
  .strict();

export const updateEndpointSchema = z
  .object({
    url: url.optional(),
    events: events.optional(),
    description: description.optional(),
    enabled: z
      .boolean()
      .optional()
      .describe(
        'false stops deliveries (pending ones fail); true enables again an endpoint disabled by you or by the service.',
      ),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'name at least one of url, events, description, enabled' });

export class WebhookEndpointDto {
  @ApiProperty({ example: 'we_5Jx2mQ8vL0cR7tYb3nWk9p' }) id: string;
  @ApiProperty({ format: 'uri', example: 'https://hooks.example.com/registry' }) url: string;
  @ApiProperty({ type: String, nullable: true }) description: string | null;
  @ApiProperty({ type: [String], enum: BUILT_EVENT_KINDS }) events: string[];
  @ApiProperty({ description: 'false: nothing is sent to the endpoint.' }) enabled: boolean;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the endpoint was disabled (by you, or by the service).',
  })
  disabledAt: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'Why it was disabled: by you through the API, after a 410 Gone, or after every attempt failed for WEBHOOK_DISABLE_AFTER (5 days).',
  })
  disabledReason: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Until when the secret before the last rotation still signs (a second `v1,` entry).',
  })
  previousSecretExpiresAt: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;
}

export class WebhookEndpointWithSecretDto extends WebhookEndpointDto {
  @ApiPropertyOptional({
    description: 'The Standard Webhooks signing secret (`whsec_…`): shown only when created or rotated.',
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  })
  secret: string;
}

export class WebhookEndpointListDto {
  @ApiProperty({ type: [WebhookEndpointDto] }) data: WebhookEndpointDto[];
}
