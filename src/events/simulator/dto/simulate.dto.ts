import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { COUNTRY_CODES, REGISTERS } from '../../../registers/registers';
import { eventKindSchema } from '../../event-kinds';

export const simulateSchema = z
  .object({
    event: eventKindSchema.describe(
      'The kind to simulate: any built kind, register.unavailable and company.no_change included.',
    ),
    endpointId: z.string().max(64).describe('One of the account’s webhook endpoints.'),
    country: z
      .string()
      .max(2)
      .transform((v) => v.toUpperCase())
      .pipe(z.enum(COUNTRY_CODES, { error: `one of ${COUNTRY_CODES.join(', ')}` }))
      .optional()
      .describe(
        'ISO 3166-1 alpha-2. Alone: a company of that country from the bundled sample (or its register, for register.unavailable).',
      ),
    registrationNumber: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .optional()
      .describe('With country: this company, read as search reads it (live, or the fallback dataset).'),
  })
  .strict()
  .superRefine((v, ctx) => {
    if (v.registrationNumber && !v.country)
      ctx.addIssue({ code: 'custom', path: ['country'], message: 'country is required with registrationNumber' });
    // Officer and filing events exist only where detection sends them: a test one elsewhere would mislead.
    const only =
      v.event === 'company.officers_changed' ? 'officer' : v.event === 'company.filing_published' ? 'filing' : null;
    if (only && v.country && !REGISTERS[v.country].simulation[only])
      ctx.addIssue({
        code: 'custom',
        path: ['country'],
        message: `${v.event} is not sent for ${v.country} companies (${only === 'officer' ? 'no officer changes are watched there' : 'only GB filings are watched'})`,
      });
  });

export class SimulatedRequestDto {
  @ApiProperty({ enum: ['POST'] }) method: string;
  @ApiProperty({ format: 'uri' }) url: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: 'Every header sent, signature included.',
  })
  headers: Record<string, string>;
  @ApiProperty({ description: 'The body exactly as sent and signed.' }) body: string;
}

export class SimulatedResponseDto {
  @ApiProperty({ type: 'integer' }) status: number;
  @ApiProperty({ type: 'integer' }) durationMs: number;
  @ApiProperty({ description: 'The first 2 KB of the receiver’s answer.' }) bodyStart: string;
}

export class SimulatedErrorDto {
  @ApiProperty({
    description:
      'http_error, redirect_not_followed, timeout, connection_refused, connection_reset, dns_error, tls_error, network_error, target_not_allowed.',
  })
  class: string;
  @ApiProperty() message: string;
}

export class SimulationResultDto {
  @ApiProperty({
    description:
      'true when the request was sent now; false when the endpoint already had its limit of requests in flight (the delivery is queued).',
  })
  sent: boolean;
  @ApiProperty() eventId: string;
  @ApiProperty() deliveryId: string;
  @ApiProperty({ description: 'The webhook-id header.' }) webhookId: string;
  @ApiProperty({ type: SimulatedRequestDto, nullable: true }) request: SimulatedRequestDto | null;
  @ApiProperty({ type: SimulatedResponseDto, nullable: true, description: 'The receiver’s answer, when one came.' })
  response: SimulatedResponseDto | null;
  @ApiProperty({
    type: SimulatedErrorDto,
    nullable: true,
    description: 'Why the attempt failed, when it did (a non-2xx answer included).',
  })
  error: SimulatedErrorDto | null;
  @ApiProperty({
    enum: ['pending', 'succeeded', 'failed'],
    description: 'The delivery after this attempt: a failed test event is retried on the schedule like any delivery.',
  })
  state: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) nextAttemptAt: string | null;
  @ApiProperty({ type: 'integer', description: 'Test events the account may still send in the rolling hour.' })
  remainingThisHour: number;
}
