import type { OpenAPIObject } from '@nestjs/swagger';
import { finalizeOpenApiDocument } from '../../../platform/openapi/openapi-finalize';
import { COUNTRY_CODES } from '../../../registers/registers';
import { BUILT_EVENT_KINDS, EventKind } from '../../event-kinds';
import { OFFICER_ACTIONS, SOURCE_MODES } from './envelope';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- OpenAPI schemas are plain JSON
type Schema = Record<string, any>;

const str = (description?: string, extra: Schema = {}): Schema => ({ type: 'string', ...extra, description });
const nullableStr = (description?: string, extra: Schema = {}): Schema =>
  str(description, { ...extra, nullable: true });
const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
const dateTime = (description: string): Schema => str(description, { format: 'date-time' });
const day = (description: string): Schema => nullableStr(description, { format: 'date' });

const COMPANY_FIELDS: Schema = {
  entity_id: str('`ent_<country>_<registration number>`: the same for every account.', { example: 'ent_gb_10345936' }),
  sequence: {
    type: 'integer',
    minimum: 1,
    description:
      'Per account and company, across kinds: 1, 2, 3… with no gap; the same on every retry and replay. Test events count apart.',
  },
  country: str('ISO 3166-1 alpha-2.', { enum: [...COUNTRY_CODES] }),
  company_name: str('The name as the register last gave it.'),
  registration_number: str('As the register keys it.'),
  register: ref('WebhookRegisterRef'),
};
const COMPANY_REQUIRED = ['entity_id', 'sequence', 'country', 'company_name', 'registration_number', 'register'];

const change = (field: string, extra: Schema = {}, required: string[] = []): Schema => ({
  type: 'object',
  required: ['field', 'previous', 'current', 'observed_at', ...required],
  properties: {
    field: str(`What changed: ${field}.`),
    ...extra,
    previous: nullableStr(
      'Before, in the register’s words (a readable summary for officers); null when nothing was there.',
    ),
    current: nullableStr('Now, in the register’s words (a readable summary for officers and filings).'),
    observed_at: dateTime('When the read that saw the change was made (milliseconds).'),
  },
});

const companyData = (extra: Schema, required: string[]): Schema => ({
  type: 'object',
  required: [...COMPANY_REQUIRED, ...required, 'provenance'],
  properties: { ...COMPANY_FIELDS, ...extra, provenance: ref('WebhookProvenance') },
});

const registerData = (extra: Schema, required: string[]): Schema => ({
  type: 'object',
  required: ['country', 'register', 'status', ...required],
  properties: {
    country: str('ISO 3166-1 alpha-2.', { enum: [...COUNTRY_CODES] }),
    register: ref('WebhookRegisterRef'),
    ...extra,
    status_url: str('Where the register’s status is shown (absent from test events).', { format: 'uri' }),
    watched_companies: {
      type: 'integer',
      description: 'How many of its companies the account watches (absent from test events).',
    },
  },
});

/** The schemas of the envelope's `data`, by name. */
const SCHEMAS: Record<string, Schema> = {
  WebhookRegisterRef: {
    type: 'object',
    required: ['name', 'official_url'],
    properties: { name: str(), official_url: str(undefined, { format: 'uri' }) },
  },
  WebhookProvenance: {
    type: 'object',
    required: ['source_mode', 'source_url', 'retrieved_at'],
    properties: {
      source_mode: str(
        'live: the official register; mirror: a public mirror of it; dataset: a file (test events only).',
        {
          enum: [...SOURCE_MODES],
        },
      ),
      source_url: str('The record page, or the feed or stream page the change came from.', { format: 'uri' }),
      retrieved_at: dateTime('The moment of reading (milliseconds).'),
    },
  },
  WebhookOfficer: {
    type: 'object',
    required: ['name', 'role', 'kind', 'appointed_on', 'resigned_on'],
    properties: {
      name: str('As the register writes it ("BAILEY, Michael William").'),
      role: str('In the register’s own words ("Director", "Styremedlem", "PREZES ZARZĄDU").'),
      kind: str(undefined, { enum: ['person', 'company'] }),
      appointed_on: day('Where the register gives it.'),
      resigned_on: day('Where the register gives it.'),
    },
  },
  WebhookFiling: {
    type: 'object',
    required: ['id', 'category', 'type', 'date', 'description', 'description_code', 'url'],
    properties: {
      id: str('The register’s id of the filing (Companies House transaction_id).'),
      category: nullableStr('The register’s category (accounts, confirmation-statement, officers…).'),
      type: nullableStr('The form’s type code (AA, CS01, AP01…).'),
      date: day('When the register received it.'),
      description: str('The register’s wording where it sends one, else its description key in words with its values.'),
      description_code: nullableStr('The register’s own description key.'),
      url: str('The filing on the register’s website.', { format: 'uri' }),
    },
  },
  CompanyChangeData: companyData({ change: change('status, name, address or legal_form') }, ['change']),
  CompanyNoChangeData: companyData(
    {
      change: { type: 'string', nullable: true, enum: [null], description: 'Always null.' },
      checked_at: dateTime('When the scheduled check found nothing new.'),
    },
    ['change', 'checked_at'],
  ),
  OfficersChangedData: companyData(
    {
      change: change('officers', { action: str('What happened to the officer.', { enum: [...OFFICER_ACTIONS] }) }, [
        'action',
      ]),
      officer: ref('WebhookOfficer'),
    },
    ['change', 'officer'],
  ),
  FilingPublishedData: companyData(
    {
      change: change('filings', { action: str(undefined, { enum: ['published'] }) }, ['action']),
      filing: ref('WebhookFiling'),
    },
    ['change', 'filing'],
  ),
  RegisterUnavailableData: registerData(
    {
      status: str('The register’s status now.', { enum: ['degraded', 'paused'] }),
      reason: str('Why.'),
      since: dateTime('When it stopped answering.'),
    },
    ['reason', 'since'],
  ),
  RegisterAvailableData: registerData(
    {
      status: str('The register’s status now (degraded for a mirror that answers again).', {
        enum: ['live', 'degraded'],
      }),
      outage: {
        type: 'object',
        required: ['started_at', 'ended_at', 'duration_seconds'],
        description: 'From started_at on, silence meant nothing; from ended_at on, it means no change again.',
        properties: {
          started_at: dateTime('When the register stopped being readable.'),
          ended_at: dateTime('When it was readable again.'),
          duration_seconds: { type: 'integer', minimum: 0 },
        },
      },
    },
    ['outage'],
  ),
};

const DATA_OF: Record<EventKind, string> = {
  'company.status_changed': 'CompanyChangeData',
  'company.name_changed': 'CompanyChangeData',
  'company.address_changed': 'CompanyChangeData',
  'company.legal_form_changed': 'CompanyChangeData',
  'company.officers_changed': 'OfficersChangedData',
  'company.filing_published': 'FilingPublishedData',
  'company.no_change': 'CompanyNoChangeData',
  'register.unavailable': 'RegisterUnavailableData',
  'register.available': 'RegisterAvailableData',
};

const SUMMARY: Record<EventKind, string> = {
  'company.status_changed': 'The official status changed',
  'company.name_changed': 'The registered name changed',
  'company.address_changed': 'The registered address changed',
  'company.legal_form_changed': 'The legal form changed',
  'company.officers_changed': 'An officer was appointed, resigned or changed (developer preview)',
  'company.filing_published': 'A new filing appeared on the register (developer preview; GB)',
  'company.no_change': 'A scheduled check found nothing new (on request)',
  'register.unavailable': 'The register stopped answering',
  'register.available': 'The register answers again after an outage',
};

/**
 * The events the service POSTs to an endpoint, in the document: OpenAPI 3.0 has no `webhooks`
 * (3.1 does), so they are under `x-webhooks` (as Redoc reads them), one per kind, each body an
 * envelope whose `data` has its schema in `components.schemas`.
 */
export function addWebhookEvents(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components ??= {}).schemas ?? {};
  document.components.schemas = schemas;
  Object.assign(schemas, SCHEMAS);
  const webhooks: Schema = {};
  for (const kind of BUILT_EVENT_KINDS) {
    const name = `WebhookEnvelope_${kind.replace(/[^a-z]+/gi, '_')}`;
    schemas[name] = {
      type: 'object',
      required: ['event', 'source', 'api_version', 'is_test', 'timestamp', 'data'],
      properties: {
        event: str('The kind; equal to the X-Service-Event header.', { enum: [kind] }),
        source: str(undefined, { enum: ['registry-lookup'] }),
        api_version: str(undefined, { enum: ['v1'] }),
        is_test: { type: 'boolean', description: 'true for simulator events (X-Service-Test: true).' },
        timestamp: dateTime('When the event was written, in whole seconds.'),
        data: ref(DATA_OF[kind]),
      },
    };
    webhooks[kind] = {
      post: {
        operationId: `webhook_${kind.replace(/[^a-z]+/gi, '_')}`,
        summary: SUMMARY[kind],
        description:
          'Signed with Standard Webhooks (webhook-id, webhook-timestamp, webhook-signature). At least once, in no guaranteed order: deduplicate on webhook-id, order by data.sequence.',
        tags: ['Webhook events'],
        security: [],
        requestBody: { required: true, content: { 'application/json': { schema: ref(name) } } },
        responses: {
          '200': { description: 'Any 2xx within 15 s: delivered.' },
          '400': {
            description: 'Anything else fails the attempt; it is retried on the schedule (410 disables the endpoint).',
          },
        },
      },
    };
  }
  (document as unknown as Schema)['x-webhooks'] = webhooks;
  return document;
}

/** The generated document with the webhook events, finalized for strict tools (openapi-finalize.ts). */
export function documentWithWebhookEvents(document: OpenAPIObject): OpenAPIObject {
  return finalizeOpenApiDocument(addWebhookEvents(document));
}
