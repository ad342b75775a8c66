import { z } from 'zod';
import { STATUS_CATEGORIES } from '../registers/connector';
import { REGISTER_STATUSES } from '../status/register-status';

/*
 * The tools' output schemas: the very DTOs the REST endpoints answer with (src/search/dto,
 * src/registers/dto, src/status/dto), written as zod so the SDK publishes them as JSON Schema
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

export const registerListSchema = z.strictObject({
  apiVersion: z.string(),
  count: z.number().int(),
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
      liveSource: z.strictObject({ kind: z.string(), official: z.boolean(), description: z.string() }),
    }),
  ),
});

const uptimeFields = {
  probes: z.number().int().describe('Finished probes in the window.'),
  ok: z.number().int().describe('Successful probes in the window.'),
  uptime: z.number().nullable().describe('ok / probes (0 to 1); null when no probe ran.'),
};
const uptimeWindowSchema = z.strictObject(uptimeFields);

export const statusReportSchema = z.strictObject({
  apiVersion: z.string(),
  generatedAt: z.string(),
  probeIntervalSeconds: z.number(),
  registers: z.array(
    z.strictObject({
      country: z.string(),
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
    }),
  ),
});
