import { ApiProperty } from '@nestjs/swagger';
import { REGISTER_STATUSES, RegisterStatus } from '../register-status';

export class UptimeWindowDto {
  @ApiProperty({ type: 'integer', description: 'Finished probes in the window.', example: 288 })
  probes: number;

  @ApiProperty({ type: 'integer', description: 'Successful probes in the window.', example: 287 })
  ok: number;

  @ApiProperty({
    description: 'ok / probes (0 to 1); null when no probe ran in the window.',
    nullable: true,
    type: Number,
    example: 0.9965,
  })
  uptime: number | null;
}

export class DailyUptimeDto extends UptimeWindowDto {
  @ApiProperty({ format: 'date', description: 'UTC day, YYYY-MM-DD.', example: '2026-11-21' })
  date: string;
}

export class UptimeWindowsDto {
  @ApiProperty({ type: UptimeWindowDto, description: 'Last 24 hours.' }) '24h': UptimeWindowDto;
  @ApiProperty({ type: UptimeWindowDto, description: 'Last 7 days.' }) '7d': UptimeWindowDto;
  @ApiProperty({ type: UptimeWindowDto, description: 'Last 30 days.' }) '30d': UptimeWindowDto;
  @ApiProperty({ type: UptimeWindowDto, description: 'Last 90 days.' }) '90d': UptimeWindowDto;
}

export class LastProbeDto {
  @ApiProperty({ format: 'date-time', description: 'When the probe finished (ISO 8601 UTC).' })
  at: string;

  @ApiProperty({ format: 'date-time', description: 'Start of the schedule slot the probe belongs to.' })
  slotStart: string;

  @ApiProperty()
  ok: boolean;

  @ApiProperty({ type: 'integer', description: 'Time to the register’s answer, in milliseconds.' })
  latencyMs: number;

  @ApiProperty({
    nullable: true,
    type: 'integer',
    description: 'HTTP status the register answered with; null when no answer came.',
  })
  httpStatus: number | null;

  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Why the probe failed: timeout, dns, connection_refused, connection_reset, network, tls, http_4xx, http_5xx, rate_limited, unauthorized, invalid_response.',
  })
  errorClass: string | null;
}

/** The health of a register, or of the LEI index, from its probes. */
export class HealthReportDto {
  @ApiProperty() name: string;
  @ApiProperty() short: string;

  @ApiProperty({
    enum: REGISTER_STATUSES,
    description:
      'live: probes succeed. degraded: the last probe failed (live again after 2 successful probes in a row), or reads come from a mirror. paused: paused by the operator or a required credential is not configured.',
  })
  status: RegisterStatus;

  @ApiProperty({ nullable: true, type: String, description: 'Why the status is not live.' })
  statusReason: string | null;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When the status last changed (ISO 8601 UTC).',
  })
  statusChangedAt: string | null;

  @ApiProperty({ type: UptimeWindowsDto })
  uptime: UptimeWindowsDto;

  @ApiProperty({ type: 'integer', description: 'Finished probes over the last 90 days.' })
  probeCount: number;

  @ApiProperty({
    type: LastProbeDto,
    nullable: true,
    description: 'The last finished probe; null before the first one.',
  })
  lastProbe: LastProbeDto | null;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When a probe last succeeded.' })
  lastSuccessAt: string | null;

  @ApiProperty({ type: [DailyUptimeDto], description: 'The last 90 UTC days, oldest first (for a status page).' })
  daily: DailyUptimeDto[];
}

export class RegisterStatusReportDto extends HealthReportDto {
  @ApiProperty({ example: 'NO', description: 'ISO 3166-1 alpha-2 code of the register’s country.' }) country: string;
}

export class IndexStatusReportDto extends HealthReportDto {
  @ApiProperty({
    enum: ['LEI'],
    description:
      'The index: LEI is GLEIF’s Global LEI Index, read by GET /api/public/v1/lei/{lei} and for the `lei` of search results and company lookups. Its health never changes a register’s.',
    example: 'LEI',
  })
  id: 'LEI';
}

export class StatusReportDto {
  @ApiProperty({ example: '1.0.0' }) apiVersion: string;
  @ApiProperty({ format: 'date-time', description: 'When this report was computed.' }) generatedAt: string;
  @ApiProperty({ type: 'integer', description: 'Seconds between two probes of one register.' })
  probeIntervalSeconds: number;
  @ApiProperty({ type: [RegisterStatusReportDto] }) registers: RegisterStatusReportDto[];
  @ApiProperty({
    type: [IndexStatusReportDto],
    description:
      'Indexes the service reads beside the registers, probed the same way: GLEIF’s LEI index. Not registers: their health does not change any register’s status.',
  })
  indexes: IndexStatusReportDto[];
}
