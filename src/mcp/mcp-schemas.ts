import { z } from 'zod';
import { STATUS_CATEGORIES } from '../registers/connector';
import { LEI_ENTITY_STATUSES, LEI_REGISTRATION_STATUSES } from '../registers/lei/lei-record';
import { REGISTER_STATUSES } from '../status/register-status';

/*
 * The tools' output schemas: the very DTOs the REST endpoints answer with (src/search/dto,
 * src/status/dto, src/lei/dto), written as zod so the SDK publishes them as JSON Schema
 * in tools/list. Strict objects: a field added to a DTO and not here fails the spec that
 * validates real service results against these schemas, instead of drifting silently.
 */

const nullableString = (description: string) => z.string().nullable().describe(description);

export const providesSchema = z.strictObject({
  officers: z.boolean().describe('Officers (directors, board members) are returned where the register publishes them.'),
  filings: z.boolean().describe('Filings are returned (not built yet for any register).'),
  monitoring: z.boolean().describe('Companies of this register can be watched for changes (change webhooks).'),
});

const recordSourceSchema = z
  .strictObject({
    register: z.string().describe('Register name.'),
    url: z.string().describe('Exact human-readable record page at the register.'),
    official: z
      .boolean()
      .describe(
        'true only when the record was read live from the national register itself; false for a mirror or the fallback dataset.',
      ),
    kind: z.string().describe('native_official, native_official_website, public_mirror:<name> or dataset:<name>.'),
    retrievedAt: z
      .string()
      .describe(
        'ISO 8601 UTC with milliseconds: when the register was read (dataset rows: when the register produced the bulk file).',
      ),
  })
  .describe('Provenance of the record.');

const companyFields = {
  name: z.string().describe('Company name.'),
  registrationNumber: z.string().describe('Identifier in the register.'),
  country: z.string().describe('ISO 3166-1 alpha-2.'),
  status: nullableString('Company status as worded by the register, in its own language.'),
  statusCategory: z.enum(STATUS_CATEGORIES).describe('Normalised status category.'),
  legalForm: nullableString('Legal form as worded by the register.'),
  address: nullableString('Registered address on one line.'),
  city: nullableString('City.'),
  incorporationDate: nullableString('YYYY-MM-DD.'),
  source: recordSourceSchema,
  lei: z
    .string()
    .optional()
    .describe(
      'The company’s LEI where GLEIF’s index maps this registration number to one (absent when none, or GLEIF did not answer in time). lookup_lei reads its record.',
    ),
  extra: z.record(z.string(), z.unknown()).optional().describe('Register-specific facts.'),
};

export const companyResultSchema = z.strictObject(companyFields);

const officerSchema = z.strictObject({
  name: z.string().describe('Name as the register gives it.'),
  role: z.string().describe('Role as worded by the register.'),
  kind: z.enum(['person', 'company']),
  appointedOn: nullableString('YYYY-MM-DD, where the register gives it.'),
  resignedOn: nullableString('YYYY-MM-DD, where the register gives it; null for current officers.'),
});

const companyDetailSchema = z.strictObject({
  ...companyFields,
  officers: z
    .array(officerSchema)
    .nullable()
    .describe(
      'Officers where the register publishes them; null when the source used publishes none (or the record comes from the fallback dataset).',
    ),
});

const registerDescriptorSchema = z.strictObject({
  name: z.string().describe('Register’s full name.'),
  short: z.string(),
  officialUrl: z.string(),
  reuseTermsUrl: z.string(),
  status: z
    .enum(REGISTER_STATUSES)
    .describe(
      'live: read directly from the register. degraded or paused: results come from a mirror or the fallback dataset; read warning.',
    ),
  provides: providesSchema,
});

const warning = z
  .string()
  .optional()
  .describe('Present when register.status is not live: where the results come from instead, and why.');

export const searchResponseSchema = z.strictObject({
  apiVersion: z.string(),
  query: z.string().describe('The q value as received.'),
  country: z.string(),
  countryName: z.string(),
  register: registerDescriptorSchema,
  resolved: z.boolean().describe('false: no entry matched the query. A valid answer, not an error.'),
  count: z.number().int().describe('Number of entries in results.'),
  results: z.array(companyResultSchema),
  attribution: z.string(),
  warning,
});

export const companyResponseSchema = z.strictObject({
  apiVersion: z.string(),
  country: z.string(),
  countryName: z.string(),
  register: registerDescriptorSchema,
  company: companyDetailSchema,
  attribution: z.string(),
  warning,
});

const liveSourceSchema = z.strictObject({ kind: z.string(), official: z.boolean(), description: z.string() });

export const registerListSchema = z.strictObject({
  apiVersion: z.string(),
  count: z.number().int().describe('Number of registers in the list (indexes not counted).'),
  indexes: z
    .array(
      z.strictObject({
        id: z.enum(['LEI']).describe('GLEIF’s Global LEI Index (lookup_lei).'),
        name: z.string(),
        short: z.string(),
        officialUrl: z.string(),
        reuseTermsUrl: z.string(),
        licence: z.string(),
        status: z.enum(REGISTER_STATUSES),
        statusReason: nullableString('Why the status is not live.'),
        statusChangedAt: nullableString('When the status last changed (ISO 8601 UTC).'),
        provides: providesSchema,
        liveSource: liveSourceSchema,
        lookupPath: z.string(),
      }),
    )
    .describe('Indexes read beside the registers, with their health; a GLEIF outage changes no register’s status.'),
  registers: z.array(
    z.strictObject({
      country: z.string(),
      countryName: z.string(),
      name: z.string(),
      short: z.string(),
      officialUrl: z.string(),
      reuseTermsUrl: z.string(),
      status: z.enum(REGISTER_STATUSES),
      statusReason: nullableString('Why the status is not live.'),
      statusChangedAt: nullableString('When the status last changed (ISO 8601 UTC).'),
      provides: providesSchema,
      liveSource: liveSourceSchema,
    }),
  ),
});

const uptimeFields = {
  probes: z.number().int().describe('Finished probes in the window.'),
  ok: z.number().int().describe('Successful probes in the window.'),
  uptime: z.number().nullable().describe('ok / probes (0 to 1); null when no probe ran.'),
};
const uptimeWindowSchema = z.strictObject(uptimeFields);

const healthFields = {
  name: z.string(),
  short: z.string(),
  status: z.enum(REGISTER_STATUSES),
  statusReason: nullableString('Why the status is not live.'),
  statusChangedAt: nullableString('When the status last changed (ISO 8601 UTC).'),
  uptime: z.strictObject({
    '24h': uptimeWindowSchema,
    '7d': uptimeWindowSchema,
    '30d': uptimeWindowSchema,
    '90d': uptimeWindowSchema,
  }),
  probeCount: z.number().int(),
  lastProbe: z
    .strictObject({
      at: z.string(),
      slotStart: z.string(),
      ok: z.boolean(),
      latencyMs: z.number(),
      httpStatus: z.number().int().nullable(),
      errorClass: z.string().nullable(),
    })
    .nullable(),
  lastSuccessAt: z.string().nullable(),
  daily: z
    .array(z.strictObject({ date: z.string().describe('UTC day, YYYY-MM-DD.'), ...uptimeFields }))
    .describe('The last 90 UTC days, oldest first.'),
};

export const statusReportSchema = z.strictObject({
  apiVersion: z.string(),
  generatedAt: z.string(),
  probeIntervalSeconds: z.number(),
  registers: z.array(z.strictObject({ country: z.string(), ...healthFields })),
  indexes: z
    .array(z.strictObject({ id: z.enum(['LEI']), ...healthFields }))
    .describe('GLEIF’s LEI index, probed like a register; its health changes no register’s.'),
});

const leiName = { name: z.string(), language: z.string().nullable() };
const leiAddress = z.strictObject({
  lines: z.array(z.string()),
  number: z.string().nullable(),
  numberWithinBuilding: z.string().nullable(),
  mailRouting: z.string().nullable(),
  city: z.string(),
  region: z.string().nullable(),
  country: z.string(),
  postalCode: z.string().nullable(),
  language: z.string().nullable(),
});
const leiAuthorityRef = z.strictObject({ id: z.string().nullable(), other: z.string().nullable() });
const leiEntityRef = z.strictObject({ lei: z.string().nullable(), name: z.string().nullable() });

export const leiResponseSchema = z.strictObject({
  apiVersion: z.string(),
  index: z.strictObject({
    name: z.string(),
    short: z.string(),
    officialUrl: z.string(),
    reuseTermsUrl: z.string(),
    licence: z.string(),
  }),
  entity: z.strictObject({
    lei: z.string(),
    legalName: z.strictObject(leiName),
    otherNames: z.array(z.strictObject({ ...leiName, type: z.string() })),
    entityStatus: z.enum(LEI_ENTITY_STATUSES).describe('ACTIVE or INACTIVE: the legal entity.'),
    registrationStatus: z
      .enum(LEI_REGISTRATION_STATUSES)
      .describe('The LEI: ISSUED, LAPSED (not renewed — not a dissolved company), RETIRED, MERGED, ANNULLED…'),
    entityCategory: z.string().nullable(),
    entitySubCategory: z.string().nullable(),
    legalForm: z.strictObject({
      elfCode: nullableString('ISO 20275 ELF code.'),
      other: z.string().nullable(),
    }),
    jurisdiction: z.string().nullable(),
    legalAddress: leiAddress,
    headquartersAddress: leiAddress.nullable(),
    registeredAt: z
      .strictObject({ id: z.string().nullable(), other: z.string().nullable(), name: z.string().nullable() })
      .describe('The register the entity says it is in (GLEIF registration authority code).'),
    registeredAs: nullableString('The entity’s number in that register.'),
    nationalRecord: z
      .strictObject({ country: z.string(), registrationNumber: z.string(), path: z.string() })
      .nullable()
      .describe(
        'That record here (call get_company with country and registrationNumber), where the service reads the register.',
      ),
    creationDate: z.string().nullable(),
    expiration: z.strictObject({ date: z.string().nullable(), reason: z.string().nullable() }).nullable(),
    successorEntities: z.array(leiEntityRef),
    associatedEntity: leiEntityRef.nullable(),
    registration: z.strictObject({
      initialRegistrationDate: z.string(),
      lastUpdateDate: z.string(),
      nextRenewalDate: z.string().nullable(),
      managingLou: z.string(),
      corroborationLevel: z.string().nullable(),
      validatedAt: leiAuthorityRef.nullable(),
      validatedAs: z.string().nullable(),
    }),
    goldenCopyPublishDate: z.string().nullable(),
    source: z
      .strictObject({
        register: z.string(),
        url: z.string(),
        official: z
          .boolean()
          .describe(
            'true: GLEIF is the official source of LEI data — of the LEI record, not of national registration data.',
          ),
        kind: z.enum(['lei_index']),
        retrievedAt: z.string(),
      })
      .describe('Provenance of the LEI record.'),
  }),
  provenanceNote: z.string(),
  attribution: z.string(),
});

/*
 * The account tools (offered with an API key): the DTOs of /api/v1/watches and /api/v1/events
 * (src/events/monitoring/watches/dto, src/events/webhooks/events/dto).
 */

export const watchSchema = z.strictObject({
  id: z.string().describe('The watch’s id (wch_…): what remove_watch takes.'),
  entityId: z
    .string()
    .describe(
      'The service’s stable id of the company, ent_<country in lower case>_<registration number>: the same in every event about it (data.entity_id).',
    ),
  country: z.string(),
  registrationNumber: z.string().describe('As the register keys it.'),
  companyName: nullableString('The name the register gave at the last read; null while the baseline is pending.'),
  register: z.strictObject({ name: z.string(), officialUrl: z.string() }),
  notifyNoChange: z
    .boolean()
    .describe('Whether company.no_change is sent after each scheduled check that found nothing.'),
  baseline: z.strictObject({
    state: z
      .enum(['taken', 'pending'])
      .describe(
        'pending: no official live read yet (the register was not readable); no change is reported before it is taken.',
      ),
    readAt: nullableString('When the baseline read was made (ISO 8601 UTC).'),
    sourceMode: nullableString('live: an official read of the register; mirror: a public mirror (not official).'),
    sourceUrl: nullableString('The record page the baseline was read from.'),
  }),
  lastCheck: z.strictObject({
    at: nullableString('When the company was last checked (ISO 8601 UTC); null before the first check.'),
    outcome: nullableString(
      'baseline, no_change, changed (events sent), stale, not_found, failed (tried again soon) or feed_behind.',
    ),
    detail: z.string().nullable(),
  }),
  nextCheckAt: z.string().describe('When the company is next checked (ISO 8601 UTC).'),
  createdAt: z.string(),
});

export const watchCreatedSchema = z.strictObject({
  created: z
    .boolean()
    .describe('true: a new watch (REST: 201); false: the account already watched the company (REST: 200).'),
  watch: watchSchema,
});

export const watchListSchema = z.strictObject({
  data: z.array(watchSchema).describe('Newest first.'),
  nextCursor: nullableString('Pass as `cursor` for the next page; null on the last page.'),
});

export const watchRemovedSchema = z.strictObject({
  removed: z.literal(true).describe('The watch is deleted (REST: 204).'),
  watchId: z.string(),
});

export const eventListSchema = z.strictObject({
  data: z
    .array(
      z.strictObject({
        id: z.string().describe('evt_…: the event’s id (the webhook-id header of its deliveries).'),
        event: z.string().describe('The event kind, e.g. company.name_changed.'),
        isTest: z.boolean().describe('true for a test event (the simulator); false for a real change.'),
        createdAt: z.string().describe('When the event was created (ISO 8601 UTC).'),
        payload: z
          .record(z.string(), z.unknown())
          .describe(
            'The envelope exactly as delivered to webhooks: event, source, api_version, is_test, timestamp, and `data` (for a company: entity_id, sequence, country, company_name, registration_number, register, change {field, previous, current, observed_at}, provenance {source_mode, source_url, retrieved_at}; officer or filing events add them; register events name the register and the outage).',
          ),
      }),
    )
    .describe('Newest first.'),
  nextCursor: nullableString('Pass as `cursor` for the next page (older events); null on the last page.'),
});
