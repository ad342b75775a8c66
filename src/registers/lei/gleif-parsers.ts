import { z } from 'zod';
import { UpstreamError } from '../upstream-error';
import { LEI_DEFINITION, leiRecordPageUrl } from './lei.definition';
import { isValidLei } from './lei.identifier';
import {
  GleifError,
  LEI_ENTITY_STATUSES,
  LEI_REGISTRATION_STATUSES,
  LeiAddress,
  LeiEntityRef,
  LeiRecord,
  LeiRecordPage,
  ParseContext,
  RegistrationAuthorityEntry,
} from './lei-record';

/** Optional text: null, absent, empty or blank all read as null; other text is trimmed. */
const text = z
  .string()
  .nullish()
  .transform((v) => (v && v.trim() ? v.trim() : null));
const requiredText = z.string().trim().min(1);
const token = z.string().regex(/^[A-Z][A-Z0-9_]*$/);
/** GLEIF's timestamps: "2025-05-06T15:51:56Z" (an offset or a bare date also read). */
const timestamp = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2}))?$/)
  .refine((v) => !Number.isNaN(Date.parse(v)), 'not a date');
const language = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/)
  .nullish()
  .transform((v) => v ?? null);
const leiCode = z.string().refine(isValidLei, 'not a valid LEI');
const raCode = z.string().regex(/^RA\d{6}$/);

const address = z.object({
  language,
  addressLines: z.array(z.string().nullable()),
  addressNumber: text,
  addressNumberWithinBuilding: text,
  mailRouting: text,
  city: requiredText,
  region: z
    .string()
    .regex(/^[A-Z]{2}-[A-Z0-9]{1,3}$/)
    .nullish(),
  country: z.string().regex(/^[A-Z]{2}$/),
  postalCode: text,
});

const name = z.object({ name: requiredText, language });
const otherName = name.extend({ type: token });
const authority = z.object({ id: raCode.nullish(), other: text });
const entityRef = z.object({ lei: leiCode.nullish(), name: text });

const entity = z.object({
  legalName: name,
  otherNames: z.array(otherName).nullish(),
  transliteratedOtherNames: z.array(otherName).nullish(),
  legalAddress: address,
  headquartersAddress: address.nullish(),
  registeredAt: authority.nullish(),
  registeredAs: text,
  jurisdiction: z
    .string()
    .regex(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/)
    .nullish(),
  category: token.nullish(),
  subCategory: token.nullish(),
  legalForm: z
    .object({
      id: z
        .string()
        .regex(/^[A-Z0-9]{4}$/)
        .nullish(),
      other: text,
    })
    .nullish(),
  associatedEntity: entityRef.nullish(),
  status: z.enum(LEI_ENTITY_STATUSES),
  expiration: z.object({ date: timestamp.nullish(), reason: token.nullish() }).nullish(),
  successorEntity: entityRef.nullish(),
  successorEntities: z.array(entityRef).nullish(),
  creationDate: timestamp.nullish(),
});

const registration = z.object({
  initialRegistrationDate: timestamp,
  lastUpdateDate: timestamp,
  status: z.enum(LEI_REGISTRATION_STATUSES),
  nextRenewalDate: timestamp.nullish(),
  managingLou: leiCode,
  corroborationLevel: token.nullish(),
  validatedAt: authority.nullish(),
  validatedAs: text,
});

const resource = z
  .object({
    type: z.literal('lei-records'),
    id: leiCode,
    attributes: z.object({ lei: leiCode, entity, registration }),
  })
  .refine((r) => r.id === r.attributes.lei, { message: 'id and attributes.lei differ', path: ['id'] });
type Resource = z.infer<typeof resource>;

const goldenCopy = z
  .object({ goldenCopy: z.object({ publishDate: timestamp }).nullish() })
  .nullish()
  .transform((m) => m?.goldenCopy?.publishDate ?? null);

const document = z.object({ meta: goldenCopy, data: resource });

const pagination = z.object({
  currentPage: z.number().int().min(1),
  perPage: z.number().int().min(1),
  total: z.number().int().min(0),
  lastPage: z.number().int().min(1),
});

const collection = z.object({
  meta: z.object({ goldenCopy: z.object({ publishDate: timestamp }).nullish(), pagination }),
  data: z.array(z.unknown()),
});

const errorDocument = z.object({
  errors: z
    .array(
      z.object({
        status: z.union([z.string(), z.number()]).nullish(),
        title: z.string().nullish(),
        detail: z.string().nullish(),
      }),
    )
    .min(1),
});

const authorities = z.object({
  meta: z.object({ pagination }),
  data: z.array(
    z.object({
      type: z.literal('registration-authorities'),
      id: raCode,
      attributes: z.object({
        code: raCode,
        internationalName: text,
        localName: text,
        internationalOrganizationName: text,
        localOrganizationName: text,
        website: text,
        jurisdictions: z
          .array(z.object({ country: text, countryCode: text, jurisdiction: text }))
          .nullish()
          .transform((j) => j ?? []),
      }),
    }),
  ),
});

// ---------------------------------------------------------------------------------------------

/** `GET /lei-records/{lei}`: one record. */
export function parseLeiRecordDocument(body: unknown, context: ParseContext): LeiRecord {
  const parsed = document.safeParse(body);
  if (!parsed.success) throw invalid('an LEI record', parsed.error.issues[0]);
  return toRecord(parsed.data.data, parsed.data.meta, context);
}

/** `GET /lei-records?filter[…]=…`: one page of records. Any record that does not parse fails the page. */
export function parseLeiRecordList(body: unknown, context: ParseContext): LeiRecordPage {
  const parsed = collection.safeParse(body);
  if (!parsed.success) throw invalid('a list of LEI records', parsed.error.issues[0]);
  const publishDate = parsed.data.meta.goldenCopy?.publishDate ?? null;
  const records = parsed.data.data.map((item, i) => {
    const one = resource.safeParse(item);
    if (!one.success) {
      const issue = one.error.issues[0];
      throw invalid('a list of LEI records', issue && { ...issue, path: ['data', i, ...issue.path] });
    }
    return toRecord(one.data, publishDate, context);
  });
  const { total, currentPage, lastPage, perPage } = parsed.data.meta.pagination;
  return { records, total, currentPage, lastPage, perPage };
}

/** A JSON:API error body (`{ errors: [{ status, title, detail }] }`), or null when the body is not one. */
export function parseGleifErrors(body: unknown): GleifError[] | null {
  const parsed = errorDocument.safeParse(body);
  if (!parsed.success) return null;
  return parsed.data.errors.map((e) => ({
    status: e.status === null || e.status === undefined ? null : String(e.status),
    title: e.title?.trim() || null,
    detail: e.detail?.trim() || null,
  }));
}

/** `GET /registration-authorities`: one page of the RA code list. */
export function parseRegistrationAuthorities(body: unknown): {
  authorities: RegistrationAuthorityEntry[];
  total: number;
  lastPage: number;
} {
  const parsed = authorities.safeParse(body);
  if (!parsed.success) throw invalid('a registration authority list', parsed.error.issues[0]);
  return {
    authorities: parsed.data.data.map((d) => d.attributes),
    total: parsed.data.meta.pagination.total,
    lastPage: parsed.data.meta.pagination.lastPage,
  };
}

/**
 * The calendar day of an entity date. GLEIF stores the local midnight of the day as a UTC instant:
 * Fraport's creation "2004-06-06T22:00:00Z" is 7 June in Frankfurt (CEST), NFA International's
 * "2017-06-30T18:30:00Z" is 1 July in India (IST), Shell's "2002-02-05T00:00:00Z" is 5 February in
 * London. Cutting the date off would move every such company a day back; the day 12 hours after
 * the instant is the right one for every offset from UTC−11:59 to UTC+11:59 (inferred from the
 * recorded answers; a record written at UTC+13/+14 local midnight would still come out a day early).
 * A timestamp with an explicit offset is read as written.
 */
export function gleifCalendarDate(value: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
  if (!/Z$/.test(value)) return value.slice(0, 10);
  return new Date(Date.parse(value) + 12 * 3_600_000).toISOString().slice(0, 10);
}

// ---------------------------------------------------------------------------------------------

function toRecord(r: Resource, goldenCopyPublishDate: string | null, context: ParseContext): LeiRecord {
  const { entity: e, registration: g } = r.attributes;
  const legalForm = e.legalForm ?? { id: null, other: null };
  const successors = [...(e.successorEntity ? [e.successorEntity] : []), ...(e.successorEntities ?? [])];
  return {
    lei: r.attributes.lei,
    legalName: e.legalName,
    otherNames: [...(e.otherNames ?? []), ...(e.transliteratedOtherNames ?? [])],
    entityStatus: e.status,
    entityCategory: e.category ?? null,
    entitySubCategory: e.subCategory ?? null,
    registrationStatus: g.status,
    // 8888: "no ELF code applies", with the form in `other` (the real fund: {"id":"8888","other":"FUND"}).
    legalForm: { elfCode: legalForm.id && legalForm.id !== '8888' ? legalForm.id : null, other: legalForm.other },
    jurisdiction: e.jurisdiction ?? null,
    legalAddress: toAddress(e.legalAddress),
    headquartersAddress: e.headquartersAddress ? toAddress(e.headquartersAddress) : null,
    registeredAt: { id: e.registeredAt?.id ?? null, other: e.registeredAt?.other ?? null },
    registeredAs: e.registeredAs,
    creationDate: e.creationDate ? gleifCalendarDate(e.creationDate) : null,
    expiration:
      e.expiration && (e.expiration.date || e.expiration.reason)
        ? { date: e.expiration.date ? gleifCalendarDate(e.expiration.date) : null, reason: e.expiration.reason ?? null }
        : null,
    successorEntities: dedupeRefs(successors.filter(isRef).map(toRef)),
    associatedEntity: e.associatedEntity && isRef(e.associatedEntity) ? toRef(e.associatedEntity) : null,
    initialRegistrationDate: g.initialRegistrationDate,
    lastUpdateDate: g.lastUpdateDate,
    nextRenewalDate: g.nextRenewalDate ?? null,
    managingLou: g.managingLou,
    corroborationLevel: g.corroborationLevel ?? null,
    validatedAt:
      g.validatedAt && (g.validatedAt.id || g.validatedAt.other)
        ? { id: g.validatedAt.id ?? null, other: g.validatedAt.other }
        : null,
    validatedAs: g.validatedAs,
    goldenCopyPublishDate,
    source: {
      register: LEI_DEFINITION.name,
      url: leiRecordPageUrl(r.attributes.lei, context.webUrl),
      official: true,
      kind: 'lei_index',
      retrievedAt: context.retrievedAt,
    },
  };
}

function toAddress(a: z.infer<typeof address>): LeiAddress {
  return {
    lines: a.addressLines.map((l) => l?.trim() ?? '').filter((l) => l !== ''),
    number: a.addressNumber,
    numberWithinBuilding: a.addressNumberWithinBuilding,
    mailRouting: a.mailRouting,
    city: a.city,
    region: a.region ?? null,
    country: a.country,
    postalCode: a.postalCode,
    language: a.language,
  };
}

/** GLEIF sends `{ lei: null, name: null }` for "none". */
function isRef(ref: z.infer<typeof entityRef>): boolean {
  return Boolean(ref.lei || ref.name);
}

function toRef(ref: z.infer<typeof entityRef>): LeiEntityRef {
  return { lei: ref.lei ?? null, name: ref.name };
}

/** The single `successorEntity` may repeat an item of `successorEntities`. */
function dedupeRefs(refs: LeiEntityRef[]): LeiEntityRef[] {
  const seen = new Set<string>();
  return refs.filter((r) => {
    const key = `${r.lei ?? ''}|${r.name ?? ''}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** "GLEIF sent an LEI record whose data.attributes.entity.legalAddress.country is not valid (…)". */
function invalid(what: string, issue: z.core.$ZodIssue | undefined): UpstreamError {
  const where = issue?.path.length ? issue.path.join('.') : 'body';
  return UpstreamError.invalidResponse(
    `GLEIF sent ${what} whose ${where} is not valid (${issue?.message ?? 'unknown'})`,
  );
}
