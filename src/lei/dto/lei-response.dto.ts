import { ApiProperty } from '@nestjs/swagger';
import { LEI_ENTITY_STATUSES, LEI_REGISTRATION_STATUSES } from '../../registers/lei/lei-record';
import type { LeiEntityStatus, LeiRegistrationStatus } from '../../registers/lei/lei-record';

const nullableText = (description: string, example?: string) =>
  ApiProperty({ nullable: true, type: String, description, ...(example ? { example } : {}) });

export class LeiNameDto {
  @ApiProperty({ example: 'SHELL PLC' }) name: string;
  @nullableText('Language tag as GLEIF gives it ("en", "de-DE").', 'en') language: string | null;
}

export class LeiOtherNameDto extends LeiNameDto {
  @ApiProperty({
    description:
      'PREVIOUS_LEGAL_NAME, TRADING_OR_OPERATING_NAME, ALTERNATIVE_LANGUAGE_LEGAL_NAME, AUTO_ASCII_TRANSLITERATED_LEGAL_NAME, PREFERRED_ASCII_TRANSLITERATED_LEGAL_NAME…',
    example: 'PREVIOUS_LEGAL_NAME',
  })
  type: string;
}

export class LeiLegalFormDto {
  @nullableText('ISO 20275 Entity Legal Form code; null when GLEIF gives none (its code 8888).', 'B6ES')
  elfCode: string | null;
  @nullableText('GLEIF’s words for a legal form without an ELF code (e.g. "FUND").') other: string | null;
}

export class LeiAddressDto {
  @ApiProperty({ type: [String], description: 'Address lines as given, blank ones left out.' }) lines: string[];
  @nullableText('Street number, where given apart from the lines.') number: string | null;
  @nullableText('Number within the building (floor, suite).') numberWithinBuilding: string | null;
  @nullableText('Mail routing (c/o, attention of).') mailRouting: string | null;
  @ApiProperty({ example: 'LONDON' }) city: string;
  @nullableText('ISO 3166-2 subdivision ("GB-LND").') region: string | null;
  @ApiProperty({ description: 'ISO 3166-1 alpha-2.', example: 'GB' }) country: string;
  @nullableText('Postal code.') postalCode: string | null;
  @nullableText('Language tag of the address.') language: string | null;
}

export class LeiRegistrationAuthorityDto {
  @nullableText(
    'GLEIF registration authority code (RA000585 is Companies House); RA999999 means "no register", RA888888 "another one" (see `other`).',
    'RA000585',
  )
  id: string | null;
  @nullableText('The authority’s name where it has no code of its own.') other: string | null;
  @nullableText(
    'Which register that is, when it is one this service reads (our wording); null otherwise.',
    'Companies House (England and Wales)',
  )
  name: string | null;
}

export class LeiNationalRecordDto {
  @ApiProperty({ description: 'ISO 3166-1 alpha-2 of the register.', example: 'GB' }) country: string;
  @ApiProperty({
    description: 'registeredAs as this service writes that register’s numbers.',
    example: '04366849',
  })
  registrationNumber: string;
  @ApiProperty({
    description:
      'The national record here: GET it for the register’s own data, with that register’s provenance (official only when read live from the register).',
    example: '/api/public/v1/companies/GB/04366849',
  })
  path: string;
}

export class LeiEntityRefDto {
  @nullableText('LEI of the other entity, where it has one.') lei: string | null;
  @nullableText('Name of the other entity, where GLEIF gives it.') name: string | null;
}

export class LeiExpirationDto {
  @ApiProperty({ format: 'date', nullable: true, type: String, description: 'YYYY-MM-DD.' }) date: string | null;
  @nullableText('DISSOLVED, CORPORATE_ACTION, OTHER…') reason: string | null;
}

export class LeiAuthorityRefDto {
  @nullableText('GLEIF registration authority code.') id: string | null;
  @nullableText('The authority’s name where it has no code.') other: string | null;
}

export class LeiRegistrationDto {
  @ApiProperty({ format: 'date-time', description: 'When the LEI was first issued (GLEIF’s instant).' })
  initialRegistrationDate: string;
  @ApiProperty({ format: 'date-time', description: 'When the LEI record last changed.' }) lastUpdateDate: string;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When the LEI must be renewed; past it the registration lapses.',
  })
  nextRenewalDate: string | null;
  @ApiProperty({ description: 'LEI of the LEI issuer (LOU) that manages the record.' }) managingLou: string;
  @nullableText(
    'How far the issuer checked the data: FULLY_CORROBORATED, PARTIALLY_CORROBORATED, ENTITY_SUPPLIED_ONLY.',
    'FULLY_CORROBORATED',
  )
  corroborationLevel: string | null;
  @ApiProperty({
    type: LeiAuthorityRefDto,
    nullable: true,
    description: 'The source the issuer validated the data against.',
  })
  validatedAt: LeiAuthorityRefDto | null;
  @nullableText('The entity’s identifier at that source.') validatedAs: string | null;
}

export class LeiSourceDto {
  @ApiProperty({ example: 'GLEIF Global LEI Index' }) register: string;
  @ApiProperty({
    format: 'uri',
    description: 'The record’s page at GLEIF’s LEI Search.',
    example: 'https://search.gleif.org/#/record/21380068P1DRHMJ8KU70',
  })
  url: string;
  @ApiProperty({
    description:
      'true: GLEIF’s index is the official source of LEI data (ISO 17442), read live from GLEIF’s own API. It is true of the LEI record only: GLEIF is not the official source of national registration data. The names, addresses, legal form and registeredAt/registeredAs are what the entity reported to its LEI issuer (checked to the degree registration.corroborationLevel says); the register’s own record is at nationalRecord.path.',
  })
  official: boolean;
  @ApiProperty({
    enum: ['lei_index'],
    description:
      '`lei_index`: a record of GLEIF’s LEI index, neither a national register (`native_official…`) nor a mirror or dataset of one.',
  })
  kind: 'lei_index';
  @ApiProperty({
    format: 'date-time',
    description: 'ISO 8601 UTC with milliseconds: when GLEIF was read.',
    example: '2026-11-22T10:15:30.123Z',
  })
  retrievedAt: string;
}

/** One LEI record as GET /lei/{lei} and the MCP tool lookup_lei answer it. */
export class LeiEntityDto {
  @ApiProperty({ example: '21380068P1DRHMJ8KU70' }) lei: string;
  @ApiProperty({ type: LeiNameDto }) legalName: LeiNameDto;
  @ApiProperty({ type: [LeiOtherNameDto], description: 'Other and transliterated names, told apart by type.' })
  otherNames: LeiOtherNameDto[];
  @ApiProperty({
    enum: LEI_ENTITY_STATUSES,
    description: 'The legal entity: ACTIVE, or INACTIVE (it has ceased to exist or to operate).',
  })
  entityStatus: LeiEntityStatus;
  @ApiProperty({
    enum: LEI_REGISTRATION_STATUSES,
    description:
      'The LEI: ISSUED (current), LAPSED (not renewed in time — the entity may well be active; a lapsed LEI is still its LEI), RETIRED, MERGED, ANNULLED, DUPLICATE… (LEI-CDF 3.1).',
  })
  registrationStatus: LeiRegistrationStatus;
  @nullableText(
    'GENERAL, BRANCH, FUND, SOLE_PROPRIETOR, RESIDENT_GOVERNMENT_ENTITY, INTERNATIONAL_ORGANIZATION.',
    'GENERAL',
  )
  entityCategory: string | null;
  @nullableText('Sub-category, where GLEIF gives one.') entitySubCategory: string | null;
  @ApiProperty({ type: LeiLegalFormDto }) legalForm: LeiLegalFormDto;
  @nullableText('Legal jurisdiction, ISO 3166-1 or 3166-2 ("GB", "US-DE").', 'GB') jurisdiction: string | null;
  @ApiProperty({ type: LeiAddressDto }) legalAddress: LeiAddressDto;
  @ApiProperty({ type: LeiAddressDto, nullable: true }) headquartersAddress: LeiAddressDto | null;
  @ApiProperty({
    type: LeiRegistrationAuthorityDto,
    description: 'The register the entity says it is in (a cross-reference, not national data).',
  })
  registeredAt: LeiRegistrationAuthorityDto;
  @nullableText('The entity’s number in that register, as GLEIF writes it.', '04366849') registeredAs: string | null;
  @ApiProperty({
    type: LeiNationalRecordDto,
    nullable: true,
    description:
      'Where registeredAt is a register this service reads and registeredAs one of its numbers: that record here. null otherwise.',
  })
  nationalRecord: LeiNationalRecordDto | null;
  @ApiProperty({ format: 'date', nullable: true, type: String, description: 'Date of creation, YYYY-MM-DD.' })
  creationDate: string | null;
  @ApiProperty({ type: LeiExpirationDto, nullable: true, description: 'When and why the entity ceased.' })
  expiration: LeiExpirationDto | null;
  @ApiProperty({ type: [LeiEntityRefDto], description: 'Successors of a merged or ceased entity.' })
  successorEntities: LeiEntityRefDto[];
  @ApiProperty({ type: LeiEntityRefDto, nullable: true, description: 'For funds: the fund manager or umbrella.' })
  associatedEntity: LeiEntityRefDto | null;
  @ApiProperty({ type: LeiRegistrationDto }) registration: LeiRegistrationDto;
  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'The GLEIF golden copy the answer was served from.',
  })
  goldenCopyPublishDate: string | null;
  @ApiProperty({ type: LeiSourceDto }) source: LeiSourceDto;
}

export class LeiIndexDescriptorDto {
  @ApiProperty({ example: 'GLEIF Global LEI Index' }) name: string;
  @ApiProperty({ example: 'GLEIF' }) short: string;
  @ApiProperty({ format: 'uri', example: 'https://www.gleif.org' }) officialUrl: string;
  @ApiProperty({ format: 'uri', description: 'GLEIF’s terms of use of LEI data.' }) reuseTermsUrl: string;
  @ApiProperty({ example: 'CC0 1.0' }) licence: string;
}

export class LeiResponseDto {
  @ApiProperty({ example: '1.0.0' }) apiVersion: string;
  @ApiProperty({ type: LeiIndexDescriptorDto }) index: LeiIndexDescriptorDto;
  @ApiProperty({ type: LeiEntityDto }) entity: LeiEntityDto;
  @ApiProperty({
    description:
      'What is official here and what is not, in one sentence: the LEI record is GLEIF’s, the national registration data is the register’s.',
  })
  provenanceNote: string;
  @ApiProperty({ description: 'Attribution statement to the service, with GLEIF’s terms.' }) attribution: string;
}
