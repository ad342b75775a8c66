import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PROBLEM_CODES } from '../errors/problem-catalog';

export class FieldErrorDto {
  @ApiProperty({ example: 'q' }) field: string;
  @ApiProperty({ example: 'missing_parameter' }) code: string;
  @ApiProperty({ example: 'q is required' }) message: string;
}

/** RFC 9457 problem details with the contract's `code`. */
export class ProblemDetailsDto {
  @ApiProperty({
    format: 'uri-reference',
    description: 'URI of the problem type’s documentation (GET it for a description).',
    example: '/api/public/v1/problems/missing_parameter',
  })
  type: string;

  @ApiProperty({ description: 'Short summary, the same for every occurrence of the type.' })
  title: string;

  @ApiProperty({ type: 'integer', description: 'The HTTP status code.', example: 400 })
  status: number;

  @ApiProperty({ description: 'What went wrong this time, for a human.' })
  detail: string;

  @ApiPropertyOptional({
    format: 'uri',
    description: 'This occurrence: urn:request:<request id>, also in the X-Request-Id header and the logs.',
  })
  instance?: string;

  @ApiProperty({ enum: PROBLEM_CODES, description: 'Machine-readable error code.' })
  code: string;

  @ApiPropertyOptional({
    format: 'date-time',
    description: '429 only: when requests are accepted again (ISO 8601 UTC).',
    example: '2026-11-22T14:00:00.000Z',
  })
  resetAt?: string;

  @ApiPropertyOptional({ type: 'integer', description: '429 only: the hourly limit that applies to this client.' })
  limit?: number;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Validation failures, one per field.' })
  errors?: FieldErrorDto[];
}
