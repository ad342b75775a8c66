import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Clock } from '../../platform/clock';
import type { FeedEntry, StreamedFiling } from '../change-detection';
import type { CompanyRecord, RecordSource } from '../connector';
import { storableJson } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { ChRecord, parseCompanyProfile, parseStreamedAppointment } from './ch-api-parsers';
import { GB_DEFINITION } from './gb.definition';

/** The streams of the Companies House streaming API this service follows, and the resource kind each sends. */
export const GB_STREAMS = {
  companies: 'company-profile',
  officers: 'company-officers',
  filings: 'filing-history',
} as const;
export type GbStreamName = keyof typeof GB_STREAMS;

const envelope = z.object({
  resource_kind: z.string(),
  resource_uri: z.string().nullish(),
  resource_id: z.string().nullish(),
  data: z.unknown(),
  event: z.object({
    timepoint: z.number().int(),
    type: z.string().nullish(),
    fields_changed: z.array(z.string()).nullish(),
  }),
});

/**
 * Longest resource or transaction id taken (Companies House's are under 40 characters): the
 * id is kept as part of a primary key, which Postgres refuses past 2,704 bytes. A resource
 * with a longer one is nothing to compare, as one without an id.
 */
export const MAX_RESOURCE_ID = 200;

const text = z.string().nullish();
const filing = z.object({
  category: text,
  type: text,
  date: text,
  description: text,
  description_values: z.record(z.string(), z.unknown()).nullish(),
  transaction_id: z.string().max(MAX_RESOURCE_ID).nullish(),
  annotations: z.array(z.unknown()).nullish(),
});

/** What one line of a stream is: an entry to apply (or null: nothing to compare) at a timepoint, or why it was skipped. */
export type StreamLine =
  | { timepoint: number; entry: FeedEntry | null; skipped?: undefined }
  | { skipped: string; timepoint?: undefined; entry?: undefined };

export interface StreamContext {
  /** The register's website, for the links an event gives. */
  webUrl: string;
  /** The record's provenance, read now. */
  source(url: string): RecordSource;
}

/** The context of what Companies House sends (a stream or a filing history): official, read now. */
export function chContext(webUrl: string, clock: Clock): StreamContext {
  return {
    webUrl,
    source: (url) => ({
      register: GB_DEFINITION.name,
      url,
      official: true,
      kind: 'native_official',
      retrievedAt: clock.now().toISOString(),
    }),
  };
}

/**
 * One line of a Companies House stream (blank lines are heartbeats and never come here). A
 * line that is not a JSON event with a timepoint is skipped (its position is unknown: the
 * cursor stays where it was); an event of another resource kind, a deleted resource, or one
 * whose company number or resource cannot be read (a profile without a name, say) is an entry
 * with nothing to compare (its timepoint is stored all the same, so the stream moves past it).
 * Officer and filing events carry no company number: it is read from `resource_uri`
 * (`/company/{n}/appointments/{id}`, `/company/{n}/filing-history/{id}`).
 */
export function parseStreamLine(stream: GbStreamName, line: string, ctx: StreamContext): StreamLine {
  let json: unknown;
  try {
    json = storableJson(JSON.parse(line) as unknown);
  } catch {
    return { skipped: 'a line that is not JSON (cut short?)' };
  }
  const parsed = envelope.safeParse(json);
  if (!parsed.success) return { skipped: 'an event without a timepoint' };
  const { resource_kind: kind, data, event } = parsed.data;
  const timepoint = event.timepoint;
  if (kind !== GB_STREAMS[stream] || event.type === 'deleted') return { timepoint, entry: null };
  if (stream === 'companies') {
    const record = profileOf(data);
    // Thrown, the same event would be read again after every reconnection: the stream would stall on it.
    if (!record) return { timepoint, entry: null };
    const withSource: CompanyRecord = {
      ...record,
      source: ctx.source(`${ctx.webUrl}/company/${record.registrationNumber}`),
    };
    return { timepoint, entry: { registrationNumber: record.registrationNumber, record: withSource } };
  }
  const number = companyNumberOf(parsed.data.resource_uri);
  const resourceId = parsed.data.resource_id;
  if (!number || !resourceId || resourceId.length > MAX_RESOURCE_ID) return { timepoint, entry: null };
  if (stream === 'officers') {
    const officer = parseStreamedAppointment(data);
    if (!officer) return { timepoint, entry: null };
    return {
      timepoint,
      entry: {
        registrationNumber: number,
        officer: {
          resourceId,
          officer,
          fingerprint: fingerprint(data),
          url: `${ctx.webUrl}/company/${number}/officers`,
        },
      },
    };
  }
  const f = filing.safeParse(data);
  if (!f.success) return { timepoint, entry: null };
  const changed = event.fields_changed?.length ? `the event changed ${event.fields_changed.join(', ')}` : null;
  const annotated = f.data.annotations?.length ? 'it carries annotations, added to a filing later' : null;
  return {
    timepoint,
    entry: {
      registrationNumber: number,
      filing: { ...filingOf(number, resourceId, f.data, data, ctx), resentBecause: changed ?? annotated },
    },
  };
}

/** The company profile an event sends; null when it has no company number or name (the register's fault). */
function profileOf(data: unknown): ChRecord | null {
  try {
    return parseCompanyProfile(data);
  } catch (err) {
    if (err instanceof UpstreamError) return null;
    throw err;
  }
}

/**
 * A page of the Public Data API's filing history (`GET /company/{n}/filing-history`): its items
 * are the filings the filings stream sends (`filingHistoryItem`), newest first. An item without
 * a `transaction_id` (or with one past MAX_RESOURCE_ID) cannot be told apart from another and is
 * left out.
 */
export function parseFilingHistory(body: unknown, number: string, ctx: StreamContext): StreamedFiling[] {
  const page = z.object({ items: z.array(z.unknown()).nullish() }).safeParse(storableJson(body));
  if (!page.success) throw UpstreamError.invalidResponse('Companies House sent a filing history without items');
  const filings: StreamedFiling[] = [];
  for (const item of page.data.items ?? []) {
    const f = filing.safeParse(item);
    if (!f.success || !f.data.transaction_id) continue;
    filings.push({ ...filingOf(number, f.data.transaction_id, f.data, item, ctx), resentBecause: null });
  }
  return filings;
}

/** `/company/{n}/…` (with or without the leading slash) → n. */
export function companyNumberOf(uri: string | null | undefined): string | null {
  const m = /^\/?company\/([A-Z0-9]{8})\//i.exec(uri ?? '');
  return m ? m[1].toUpperCase() : null;
}

function filingOf(
  number: string,
  resourceId: string,
  f: z.infer<typeof filing>,
  raw: unknown,
  ctx: StreamContext,
): Omit<StreamedFiling, 'resentBecause'> {
  const id = f.transaction_id ?? resourceId;
  return {
    resourceId,
    category: f.category ?? null,
    type: f.type ?? null,
    date: f.date && /^\d{4}-\d{2}-\d{2}$/.test(f.date) ? f.date : null,
    description: describe(f.description ?? null, f.description_values ?? {}, f.type ?? null),
    descriptionCode: f.description ?? null,
    url: `${ctx.webUrl}/company/${number}/filing-history/${encodeURIComponent(id)}/document?format=pdf&download=0`,
    historyUrl: `${ctx.webUrl}/company/${number}/filing-history`,
    fingerprint: fingerprint(raw),
  };
}

/**
 * The register's words where it sends them (`description_values.description`, or the
 * `original_description` of a paper or second filing); otherwise its description key, in
 * words, with its values ("accounts with accounts type dormant, made up date 2023-02-28").
 */
function describe(code: string | null, values: Record<string, unknown>, type: string | null): string {
  for (const k of ['description', 'original_description'])
    if (typeof values[k] === 'string' && values[k].trim()) return values[k].trim();
  const words = (code ?? type ?? 'filing').replace(/-/g, ' ');
  const details = Object.entries(values)
    .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
    .map(([k, v]) => `${k.replace(/_/g, ' ')} ${String(v)}`);
  return [words.charAt(0).toUpperCase() + words.slice(1), ...details].join(', ');
}

/** A digest of a resource, its keys sorted: the same resource sent again has the same one. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('base64url').slice(0, 22);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}
