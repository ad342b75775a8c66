import { ApiProperty } from '@nestjs/swagger';
import { REGISTER_STATUSES, RegisterStatus } from '../register-status';

export class ProvidesDto {
  @ApiProperty({ description: 'Officers (directors, board members…) are returned where the register publishes them.' })
  officers: boolean;
  @ApiProperty({ description: 'Filings are returned. Not built yet for any register.' }) filings: boolean;
  @ApiProperty({
    description:
      'Companies of this register can be watched for changes (change webhooks; see the README for how each register is followed).',
  })
  monitoring: boolean;
}

export class LiveSourceDto {
  @ApiProperty({
    description:
      'Source kind of live reads under the current configuration (native_official, native_official_website, public_mirror:<name>).',
    example: 'native_official',
  })
  kind: string;

  @ApiProperty({ description: 'Whether live reads come from the register itself.' })
  official: boolean;

  @ApiProperty({ example: 'Brønnøysund Enhetsregisteret open API' })
  description: string;
}

/** A register as GET /registers lists it (the contract's register descriptor, and more). */
export class RegisterDto {
  @ApiProperty({ description: 'ISO 3166-1 alpha-2.', example: 'NO' }) country: string;
  @ApiProperty({ example: 'Norway' }) countryName: string;
  @ApiProperty({ description: 'Register’s full name.' }) name: string;
  @ApiProperty({ description: 'Short name of the register.' }) short: string;
  @ApiProperty({ format: 'uri', description: 'Register’s official address.' }) officialUrl: string;
  @ApiProperty({ format: 'uri', description: 'The register’s own reuse terms, which callers must also respect.' })
  reuseTermsUrl: string;
  @ApiProperty({
    enum: REGISTER_STATUSES,
    description: 'live, degraded or paused. Anything other than live: read statusReason before trusting results.',
  })
  status: RegisterStatus;
  @ApiProperty({ nullable: true, type: String, description: 'Why the status is not live.' }) statusReason:
    string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When the status last changed (ISO 8601 UTC); null before the first probe.',
  })
  statusChangedAt: string | null;
  @ApiProperty({ type: ProvidesDto }) provides: ProvidesDto;
  @ApiProperty({ type: LiveSourceDto }) liveSource: LiveSourceDto;
}

/**
 * An index the service reads beside the registers (GLEIF's LEI index): no country's register,
 * no search and no fallback dataset, but probed and described like one.
 */
export class IndexDto {
  @ApiProperty({
    enum: ['LEI'],
    description: 'The index: LEI is GLEIF’s Global LEI Index (GET /api/public/v1/lei/{lei}).',
    example: 'LEI',
  })
  id: 'LEI';
  @ApiProperty({ example: 'GLEIF Global LEI Index' }) name: string;
  @ApiProperty({ example: 'GLEIF' }) short: string;
  @ApiProperty({ format: 'uri', description: 'The index’s official address.' }) officialUrl: string;
  @ApiProperty({ format: 'uri', description: 'The index’s own terms of use, which callers must also respect.' })
  reuseTermsUrl: string;
  @ApiProperty({ description: 'The licence those terms state.', example: 'CC0 1.0' }) licence: string;
  @ApiProperty({
    enum: REGISTER_STATUSES,
    description:
      'From its probes, as a register’s: live, or degraded since a probe failed (live again after 2 successful probes in a row). Never paused. A degraded index changes no register’s status: search results and lookups then come without `lei`, and /lei/{lei} may answer upstream_error.',
  })
  status: RegisterStatus;
  @ApiProperty({ nullable: true, type: String, description: 'Why the status is not live.' }) statusReason:
    string | null;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When the status last changed (ISO 8601 UTC); null before the first probe.',
  })
  statusChangedAt: string | null;
  @ApiProperty({
    type: ProvidesDto,
    description: 'An index provides none of the registers’ capabilities (so a `provides` filter leaves it out).',
  })
  provides: ProvidesDto;
  @ApiProperty({ type: LiveSourceDto, description: 'Kind `lei_index`: read live from GLEIF’s own API.' })
  liveSource: LiveSourceDto;
  @ApiProperty({ description: 'The path that reads one record of the index.', example: '/api/public/v1/lei/{lei}' })
  lookupPath: string;
}

export class RegisterListDto {
  @ApiProperty({ example: '1.0.0' }) apiVersion: string;
  @ApiProperty({ type: 'integer', description: 'Number of registers in the list (indexes not counted).' })
  count: number;
  @ApiProperty({ type: [RegisterDto] }) registers: RegisterDto[];
  @ApiProperty({
    type: [IndexDto],
    description:
      'Indexes the service reads beside the registers (GLEIF’s LEI index), with their health; the same filters apply.',
  })
  indexes: IndexDto[];
}
