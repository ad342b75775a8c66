import { ApiProperty } from '@nestjs/swagger';
import { z } from 'zod';
import { isoInstant, windowInOrder } from '../../../../platform/validation/text-input';
import { BUILT_EVENT_KINDS } from '../../../event-kinds';

export const DELIVERY_STATES = ['pending', 'succeeded', 'failed', 'held'] as const;

export const replaySchema = z
  .object({
    since: isoInstant().describe('Replay the endpoint’s failed deliveries of events created at or after this time.'),
    until: isoInstant().optional().describe('…and before this time (default: now).'),
  })
  .strict()
  .superRefine(windowInOrder);

export class DeliveryDto {
  @ApiProperty({ example: 'dlv_8sKq1Vx4mT0bZr6cLw2nPy' }) id: string;
  @ApiProperty() endpointId: string;
  @ApiProperty() eventId: string;
  @ApiProperty({ enum: BUILT_EVENT_KINDS }) event: string;
  @ApiProperty({
    description: 'The `webhook-id` header: the same on every attempt (the receiver’s idempotency key).',
    example: 'msg_2QpXr9sT1vWb4nLc0d7hGm',
  })
  webhookId: string;
  @ApiProperty() isTest: boolean;
  @ApiProperty({
    enum: DELIVERY_STATES,
    description:
      'pending: an attempt is due or in flight; succeeded: a 2xx came back; failed: no retry left (or 410 Gone, or the endpoint was disabled); held: a live event of an account without live delivery, never sent.',
  })
  state: string;
  @ApiProperty({ type: 'integer' }) attemptCount: number;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the next attempt is due (pending only).',
  })
  nextAttemptAt: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) lastAttemptAt: string | null;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When it succeeded or failed for good.',
  })
  completedAt: string | null;
  @ApiProperty({ type: String, nullable: true }) lastError: string | null;
  @ApiProperty({ format: 'date-time' }) createdAt: string;
}

export class AttemptRequestDto {
  @ApiProperty({ format: 'uri' }) url: string;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    nullable: true,
    description:
      'Every header sent, exactly; written with the attempt’s outcome, so null while it is in flight, for an abandoned attempt (its webhook-id is the delivery’s, its webhook-timestamp its start) and for one not sent (signing_unavailable).',
  })
  headers: Record<string, string> | null;
}

export class DeliveryAttemptDto {
  @ApiProperty({ type: 'integer', description: '1 for the first attempt.' }) attempt: number;
  @ApiProperty({ format: 'date-time' }) startedAt: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null while in flight.' }) finishedAt:
    string | null;
  @ApiProperty({ type: 'integer', nullable: true }) durationMs: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'HTTP status of the answer, if one came.' })
  responseStatus: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'The first 2 KB of the answer’s body.' })
  responseBodyStart: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'null on success; otherwise http_error (non-2xx), redirect_not_followed (3xx), timeout, connection_refused, connection_reset, dns_error, tls_error, network_error, target_not_allowed (the address connected to is private), abandoned (the worker stopped mid-attempt), signing_unavailable (not sent: the service could not sign it, a fault on our side; tried again on the schedule, and never counted against the endpoint’s circuit or its disabling).',
  })
  errorClass: string | null;
  @ApiProperty({ type: String, nullable: true }) errorMessage: string | null;
  @ApiProperty({ type: AttemptRequestDto }) request: AttemptRequestDto;
}

export class DeliveryRequestDto {
  @ApiProperty({ enum: ['POST'] }) method: string;
  @ApiProperty({ description: 'The request body, byte for byte as signed and sent (the event envelope).' })
  body: string;
}

export class DeliveryDetailDto extends DeliveryDto {
  @ApiProperty({ type: DeliveryRequestDto }) request: DeliveryRequestDto;
  @ApiProperty({ type: [DeliveryAttemptDto] }) attempts: DeliveryAttemptDto[];
}

export class DeliveryListDto {
  @ApiProperty({ type: [DeliveryDto] }) data: DeliveryDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page (older deliveries); null on the last page.',
  })
  nextCursor: string | null;
}

export class ReplayResultDto {
  @ApiProperty({ type: 'integer', description: 'Failed deliveries made pending again, each for one attempt now.' })
  replayed: number;
}
