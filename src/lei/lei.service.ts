import { Injectable, Logger } from '@nestjs/common';
import { AppConfig } from '../platform/config/app-config';
import { ApiError } from '../platform/errors/api-error';
import { RegisterUnreachableError } from '../registers/client/register-breaker';
import { GleifClient } from '../registers/lei/gleif.client';
import { LEI_AUTHORITIES, nationalRecordFor, nationalRecordPath } from '../registers/lei/lei-authorities';
import { LEI_DEFINITION } from '../registers/lei/lei.definition';
import { validateLei } from '../registers/lei/lei.identifier';
import type { LeiAddress, LeiRecord } from '../registers/lei/lei-record';
import { UpstreamError } from '../registers/upstream-error';
import type { LeiAddressDto, LeiEntityDto, LeiResponseDto } from './dto/lei-response.dto';

/** What the LEI answer says of its own provenance (also in the OpenAPI document and docs/api.md). */
export const LEI_PROVENANCE_NOTE =
  'The LEI record is read live from GLEIF, the official source of LEI data (source.official is true of it). GLEIF is not the official source of national registration data: the names, addresses, legal form and registeredAt/registeredAs are what the entity reported to its LEI issuer; the register’s own record is at entity.nationalRecord.path where the service reads that register.';

/**
 * GET /lei/{lei}: the check digits verified offline (a wrong LEI never reaches GLEIF), one live
 * read of GLEIF's record, and the national record it points to where the service reads that
 * register. There is no fallback: GLEIF failing is a 502.
 */
@Injectable()
export class LeiService {
  private readonly logger = new Logger(LeiService.name);

  constructor(
    private readonly gleif: GleifClient,
    private readonly config: AppConfig,
  ) {}

  async lookup(raw: unknown): Promise<LeiResponseDto> {
    const valid = validateLei(typeof raw === 'string' ? raw : '');
    if (!valid.valid)
      throw new ApiError('invalid_query', valid.message, {
        errors: [{ field: 'lei', code: 'invalid_query', message: valid.message }],
      });
    let record: LeiRecord | null;
    try {
      record = await this.gleif.getRecord(valid.lei);
    } catch (err) {
      throw this.upstream(err);
    }
    if (!record) throw new ApiError('lei_not_found', `GLEIF’s Global LEI Index has no record of LEI ${valid.lei}.`);
    return {
      apiVersion: this.config.apiVersion,
      index: {
        name: LEI_DEFINITION.name,
        short: LEI_DEFINITION.short,
        officialUrl: LEI_DEFINITION.officialUrl,
        reuseTermsUrl: LEI_DEFINITION.reuseTermsUrl,
        licence: LEI_DEFINITION.licence,
      },
      entity: toEntity(record),
      provenanceNote: LEI_PROVENANCE_NOTE,
      attribution: `LEI data from the ${LEI_DEFINITION.name} (${LEI_DEFINITION.officialUrl}, ${LEI_DEFINITION.licence}), provided by Registry Lookup (${this.config.publicBaseUrl}). Reuse is subject to GLEIF’s terms: ${LEI_DEFINITION.reuseTermsUrl}`,
    };
  }

  private upstream(err: unknown): ApiError {
    const failure = UpstreamError.from(err);
    const extras = { register: LEI_DEFINITION.name, errorClass: failure.errorClass };
    if (err instanceof RegisterUnreachableError) {
      const { open } = err;
      return new ApiError(
        'upstream_error',
        `${LEI_DEFINITION.short} is unreachable (${open.errorClass}) since ${open.since.toISOString()}; it is tried again every ${open.retrySeconds} s. The LEI index has no fallback.`,
        extras,
      );
    }
    this.logger.warn(`GLEIF read failed: ${failure.errorClass} (${failure.message})`);
    return new ApiError(
      'upstream_error',
      `${LEI_DEFINITION.short} did not answer (${failure.errorClass}), and the LEI index has no fallback: try again later.`,
      extras,
    );
  }
}

function toEntity(r: LeiRecord): LeiEntityDto {
  const national = nationalRecordFor(r.registeredAt, r.registeredAs);
  const path = nationalRecordPath(r.registeredAt, r.registeredAs);
  const authority = r.registeredAt.id ? LEI_AUTHORITIES[r.registeredAt.id] : undefined;
  return {
    lei: r.lei,
    legalName: r.legalName,
    otherNames: r.otherNames,
    entityStatus: r.entityStatus,
    registrationStatus: r.registrationStatus,
    entityCategory: r.entityCategory,
    entitySubCategory: r.entitySubCategory,
    legalForm: r.legalForm,
    jurisdiction: r.jurisdiction,
    legalAddress: toAddress(r.legalAddress),
    headquartersAddress: r.headquartersAddress && toAddress(r.headquartersAddress),
    registeredAt: { id: r.registeredAt.id, other: r.registeredAt.other, name: authority?.name ?? null },
    registeredAs: r.registeredAs,
    nationalRecord:
      national && path ? { country: national.country, registrationNumber: national.registrationNumber, path } : null,
    creationDate: r.creationDate,
    expiration: r.expiration,
    successorEntities: r.successorEntities,
    associatedEntity: r.associatedEntity,
    registration: {
      initialRegistrationDate: instant(r.initialRegistrationDate),
      lastUpdateDate: instant(r.lastUpdateDate),
      nextRenewalDate: r.nextRenewalDate && instant(r.nextRenewalDate),
      managingLou: r.managingLou,
      corroborationLevel: r.corroborationLevel,
      validatedAt: r.validatedAt,
      validatedAs: r.validatedAs,
    },
    goldenCopyPublishDate: r.goldenCopyPublishDate && instant(r.goldenCopyPublishDate),
    source: r.source,
  };
}

function toAddress(a: LeiAddress): LeiAddressDto {
  return { ...a, lines: [...a.lines] };
}

/** GLEIF's instants ("2016-06-30T00:00:00Z", an offset, or a bare day) as ISO 8601 UTC. */
function instant(value: string): string {
  return new Date(value).toISOString();
}
