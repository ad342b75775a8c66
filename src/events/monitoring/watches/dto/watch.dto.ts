import { ApiProperty } from '@nestjs/swagger';

export class WatchRegisterDto {
  @ApiProperty({ example: 'Companies House register of companies' }) name: string;
  @ApiProperty({ example: 'https://find-and-update.company-information.service.gov.uk' }) officialUrl: string;
}

export class WatchBaselineDto {
  @ApiProperty({
    enum: ['taken', 'pending'],
    description:
      'pending: no official live read yet (the register was not readable at creation); no change is reported before it is taken.',
  })
  state: 'taken' | 'pending';
  @ApiProperty({ nullable: true, type: String, description: 'When the baseline read was made (ISO 8601 UTC).' })
  readAt: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    // OpenAPI 3.0: a nullable enum lists null among its values.
    enum: ['live', 'mirror', null],
    description: 'live: an official read of the register; mirror: France without an INSEE key.',
  })
  sourceMode: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'The record page the baseline was read from.' }) sourceUrl:
    string | null;
}

export class WatchCheckDto {
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'When the company was last checked (ISO 8601 UTC); null before the first check.',
  })
  at: string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    enum: ['baseline', 'no_change', 'changed', 'stale', 'not_found', 'failed', 'feed_behind', null],
    description:
      'What the last check found: the baseline taken, no change, a change (events sent), the register has no such company, the read failed (tried again soon), or the feed was not read far enough yet.',
  })
  outcome: string | null;
  @ApiProperty({ nullable: true, type: String }) detail: string | null;
}

/** One watch: an account following one company. */
export class WatchDto {
  @ApiProperty({ example: 'wch_5Jx2mQ8vL0cR7tYb3nWk9p' }) id: string;
  @ApiProperty({
    description:
      'The service’s stable id of the company: `ent_<country in lower case>_<registration number as the register keys it>`, the same for every account and in every event.',
    example: 'ent_gb_04475590',
  })
  entityId: string;
  @ApiProperty({ example: 'GB' }) country: string;
  @ApiProperty({
    description: 'As the register keys it (zero-padded GB numbers, the SIREN of a SIRET…).',
    example: '04475590',
  })
  registrationNumber: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'The name the register gave at the last read; null while the baseline is pending.',
  })
  companyName: string | null;
  @ApiProperty({ type: WatchRegisterDto }) register: WatchRegisterDto;
  @ApiProperty({ description: 'Whether company.no_change is sent after each scheduled check that found nothing.' })
  notifyNoChange: boolean;
  @ApiProperty({ type: WatchBaselineDto }) baseline: WatchBaselineDto;
  @ApiProperty({ type: WatchCheckDto }) lastCheck: WatchCheckDto;
  @ApiProperty({
    description:
      'When the company is next checked (ISO 8601 UTC): its place in the detection interval, or sooner when a feed named it or a read is retried.',
  })
  nextCheckAt: string;
  @ApiProperty() createdAt: string;
}

export class WatchListDto {
  @ApiProperty({ type: [WatchDto] }) data: WatchDto[];
  @ApiProperty({
    nullable: true,
    type: String,
    description: 'Pass as `cursor` for the next page; null on the last page.',
  })
  nextCursor: string | null;
}

export class WatchBulkErrorDto {
  @ApiProperty({ example: 400 }) status: number;
  @ApiProperty({ example: 'invalid_body' }) code: string;
  @ApiProperty() message: string;
}

export class WatchBulkResultDto {
  @ApiProperty({ description: 'Position of the row in the request, from 0.' }) index: number;
  @ApiProperty({ enum: ['created', 'existing', 'failed'] }) status: 'created' | 'existing' | 'failed';
  @ApiProperty({ required: false }) id?: string;
  @ApiProperty({ required: false }) entityId?: string;
  @ApiProperty({
    required: false,
    type: WatchBulkErrorDto,
    description: 'Why the row failed: the HTTP status and code a single create would have answered, and a message.',
  })
  error?: WatchBulkErrorDto;
}

export class WatchBulkResponseDto {
  @ApiProperty() created: number;
  @ApiProperty() existing: number;
  @ApiProperty() failed: number;
  @ApiProperty({ type: [WatchBulkResultDto] }) results: WatchBulkResultDto[];
}
