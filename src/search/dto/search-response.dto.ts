import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { STATUS_CATEGORIES, StatusCategory } from '../../registers/connector';
import { ProvidesDto } from '../../status/dto/register.dto';
import { REGISTER_STATUSES, RegisterStatus } from '../../status/register-status';

export class RecordSourceDto {
  @ApiProperty({ description: 'Register name.' }) register: string;
  @ApiProperty({ format: 'uri', description: 'Exact human-readable record page at the register.' }) url: string;
  @ApiProperty({
    description:
      'true only when the record was read live from the national register itself — never for a mirror or the fallback dataset.',
  })
  official: boolean;
  @ApiProperty({
    description:
      'Kind of source: `native_official` (the register’s own API), `native_official_website` (the register’s own web pages), `public_mirror:<name>` (a mirror of the register, e.g. `public_mirror:recherche-entreprises`; never official), `dataset:<name>` (the fallback dataset imported from the register’s bulk file; never official).',
    example: 'native_official',
  })
  kind: string;
  @ApiProperty({
    format: 'date-time',
    description:
      'ISO 8601 UTC with milliseconds: the moment the register was read; for dataset rows, when the register produced the bulk file.',
    example: '2026-11-22T10:15:30.123Z',
  })
  retrievedAt: string;
}

export class CompanyResultDto {
  @ApiProperty({ description: 'Company name.' }) name: string;
  @ApiProperty({ description: 'Identifier in the register.' }) registrationNumber: string;
  @ApiProperty({ description: 'ISO 3166-1 alpha-2.' }) country: string;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Company status as worded by the register, in its own language (e.g. "Active", "Cessée", "NORMAL", "Under avvikling").',
  })
  status: string | null;
  @ApiProperty({
    enum: STATUS_CATEGORIES,
    description:
      'Normalised status category beside the register’s wording: active; in_liquidation (winding-up under way, voluntary or compulsory); insolvency (bankruptcy, administration, receivership); dissolved (ceased, deregistered, deleted); struck_off (removed by the registrar, or strike-off under way); unknown (the register’s wording maps to none of these).',
  })
  statusCategory: StatusCategory;
  @ApiProperty({ nullable: true, type: String, description: 'Legal form as worded by the register.' }) legalForm:
    string | null;
  @ApiProperty({
    nullable: true,
    type: String,
    description:
      'Registered address on one line. AU: only state and postcode are published (street and city stay null).',
  })
  address: string | null;
  @ApiProperty({ nullable: true, type: String, description: 'City (null where the register does not publish it).' })
  city: string | null;
  @ApiProperty({ format: 'date', nullable: true, type: String, description: 'YYYY-MM-DD.' }) incorporationDate:
    string | null;
  @ApiProperty({ type: RecordSourceDto }) source: RecordSourceDto;
  @ApiPropertyOptional({
    description:
      'The company’s Legal Entity Identifier, where GLEIF’s Global LEI Index maps this registration number (by the register’s registration authority code and the number) to one LEI: an issued one first, a lapsed one otherwise, never an annulled or duplicate one. Absent when GLEIF has none, maps the number to no single LEI, or did not answer within LEI_LOOKUP_TIMEOUT_MS — absent, never wrong. The LEI record itself: GET /api/public/v1/lei/{lei}.',
    example: '21380068P1DRHMJ8KU70',
    pattern: '^[A-Z0-9]{18}[0-9]{2}$',
  })
  lei?: string;
  @ApiPropertyOptional({
    description:
      'Register-specific facts (e.g. DK `reklamebeskyttet`: the company must not be used for marketing; AU `acn`).',
    type: 'object',
    additionalProperties: true,
  })
  extra?: Record<string, unknown>;
}

export class RegisterDescriptorDto {
  @ApiProperty({ description: 'Register’s full name.' }) name: string;
  @ApiProperty({ description: 'Short name.' }) short: string;
  @ApiProperty({ format: 'uri', description: 'Register’s official address.' }) officialUrl: string;
  @ApiProperty({ format: 'uri', description: 'The register’s own reuse terms.' }) reuseTermsUrl: string;
  @ApiProperty({
    enum: REGISTER_STATUSES,
    description:
      'live: this answer was read directly from the register. degraded or paused: results come from a mirror or the fallback dataset; read `warning`.',
  })
  status: RegisterStatus;
  @ApiProperty({ type: ProvidesDto }) provides: ProvidesDto;
}

export class SearchResponseDto {
  @ApiProperty({ example: '1.0.0' }) apiVersion: string;
  @ApiProperty({ description: 'The q value as received.' }) query: string;
  @ApiProperty({ description: 'ISO 3166-1 alpha-2 code.' }) country: string;
  @ApiProperty() countryName: string;
  @ApiProperty({ type: RegisterDescriptorDto }) register: RegisterDescriptorDto;
  @ApiProperty({ description: 'false: no entry matched the query. A valid answer, not an error.' }) resolved: boolean;
  @ApiProperty({ type: 'integer', description: 'Number of entries in results.' }) count: number;
  @ApiProperty({
    type: [CompanyResultDto],
    description:
      'Ranked: exact registration-number match first, then name similarity; at most 20 (SEARCH_MAX_RESULTS).',
  })
  results: CompanyResultDto[];
  @ApiProperty({ description: 'Attribution statement to the service, with the register’s reuse terms.' })
  attribution: string;
  @ApiPropertyOptional({
    description:
      'Present when register.status is not live: says where the results come from instead (mirror, or fallback dataset and its date) and why.',
  })
  warning?: string;
}

export class OfficerDto {
  @ApiProperty({ description: 'Name as the register gives it.' }) name: string;
  @ApiProperty({ description: 'Role as worded by the register.' }) role: string;
  @ApiProperty({ enum: ['person', 'company'] }) kind: 'person' | 'company';
  @ApiProperty({
    format: 'date',
    nullable: true,
    type: String,
    description: 'YYYY-MM-DD, where the register gives it.',
  })
  appointedOn: string | null;
  @ApiProperty({
    format: 'date',
    nullable: true,
    type: String,
    description: 'YYYY-MM-DD, where the register gives it; null for current officers.',
  })
  resignedOn: string | null;
}

export class CompanyDetailDto extends CompanyResultDto {
  @ApiProperty({
    type: [OfficerDto],
    nullable: true,
    description:
      'Officers where the register publishes them; null when the source used publishes none (or the record comes from the fallback dataset).',
  })
  officers: OfficerDto[] | null;
}

export class CompanyResponseDto {
  @ApiProperty({ example: '1.0.0' }) apiVersion: string;
  @ApiProperty() country: string;
  @ApiProperty() countryName: string;
  @ApiProperty({ type: RegisterDescriptorDto }) register: RegisterDescriptorDto;
  @ApiProperty({ type: CompanyDetailDto }) company: CompanyDetailDto;
  @ApiProperty() attribution: string;
  @ApiPropertyOptional({ description: 'Present when register.status is not live.' }) warning?: string;
}
