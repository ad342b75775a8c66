import { z } from 'zod';
import type { AccountRequestLimit } from '../events/accounts/account-request-limit.service';
import { BUILT_EVENT_KINDS } from '../events/event-kinds';
import type { WatchService } from '../events/monitoring/watches/watch.service';
import { eventsQuerySchema } from '../events/webhooks/events/dto/event.dto';
import type { EventsService } from '../events/webhooks/events/events.service';
import { parseQuery } from '../platform/validation/zod-input';
import { REGISTER_TABLE } from '../registers/registers';
import { eventListSchema, watchCreatedSchema, watchListSchema, watchRemovedSchema } from './mcp-schemas';
import { summarizeEvents, summarizeWatchCreated, summarizeWatches, summarizeWatchRemoved } from './mcp-summaries';
import type { McpTool } from './mcp-tools';

/** The services the /api/v1 watch and event controllers call; the account tools call the very same instances. */
export interface McpAccountServices {
  watches: Pick<WatchService, 'create' | 'list' | 'remove'>;
  events: Pick<EventsService, 'list'>;
  limit: Pick<AccountRequestLimit, 'count'>;
}

/** What an account tool runs with: the services, and the account of the request's API key. */
export interface McpAccountContext extends McpAccountServices {
  accountId: string;
}

const CODES = REGISTER_TABLE.map((r) => r.country).join(', ');

const KEYED =
  'Needs the request to carry Authorization: Bearer <api key> (the key of the /api/v1 account API); counted in the account’s hourly request limit (ACCOUNT_RATE_LIMIT_PER_HOUR) like an /api/v1 request.';

const pageInput = {
  // In REST's words whatever is wrong with it (text, null, or 1e400 read as Infinity), not "must be a number".
  limit: z
    .number({ error: (issue) => (issue.code === 'invalid_type' ? 'must be a whole number from 1 to 100' : undefined) })
    .optional()
    .describe('1–100, default 50.'),
  cursor: z.string().optional().describe('nextCursor of the previous page.'),
};

function accountTool<I extends z.ZodObject, O extends z.ZodObject>(
  definition: McpTool<McpAccountContext, I, O>,
): McpTool<McpAccountContext> {
  return { ...definition, input: definition.input.strict() } as unknown as McpTool<McpAccountContext>;
}

/**
 * Query values as the REST controller receives them (strings from the URL), so that the same
 * zod schema checks them with the same messages; numbers and booleans are written as a URL would.
 */
function asQuery(args: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [k, v] of Object.entries(args)) if (v !== undefined) query[k] = String(v);
  return query;
}

/**
 * The watch and event tools, offered only when the MCP request carries an API key: the same
 * validation, quota and errors as /api/v1/watches and /api/v1/events, through the same services.
 */
export const MCP_ACCOUNT_TOOLS: readonly McpTool<McpAccountContext>[] = [
  accountTool({
    name: 'watch_company',
    title: 'Watch a company for changes',
    description: [
      `Watch one company of an official register (${CODES}) for changes, as POST /api/v1/watches does: the account then receives an event when its status, name, address or legal form changes, and its officers or filings where the register publishes them (webhooks to the account’s endpoints, and list_events here).`,
      'The registration number is checked as search_companies checks it (format and check digits). The baseline is an official live read made now when the register is readable; otherwise the watch is created with baseline.state "pending", taken at the first successful read.',
      'Watching a company the account already watches returns the existing watch with created: false. An account watches at most WATCHES_PER_ACCOUNT companies (error watch_quota_exceeded past it).',
      KEYED,
    ].join(' '),
    input: z.object({
      country: z.string().describe(`ISO 3166-1 alpha-2 country code, case-insensitive. Covered: ${CODES}.`),
      registrationNumber: z
        .string()
        .describe(
          'Registration number in the register’s format, as search_companies returns it (spaces, dots and dashes ignored).',
        ),
      notifyNoChange: z
        .boolean()
        .optional()
        .describe('Also send company.no_change after each scheduled check that found nothing (default false).'),
    }),
    output: watchCreatedSchema,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    run: async (s, args) => {
      const { created, watch } = await s.watches.create(s.accountId, args);
      return { created, watch };
    },
    summarize: summarizeWatchCreated,
  }),
  accountTool({
    name: 'list_watches',
    title: 'List the account’s watches',
    description: [
      'The companies the account watches, newest first, as GET /api/v1/watches answers: each watch’s id (for remove_watch), entityId (data.entity_id of its events), company, baseline, last check and next check time.',
      'Filter by country; page with limit and the nextCursor of the previous page.',
      KEYED,
    ].join(' '),
    input: z.object({
      country: z.string().optional().describe(`Only the watches of one register: ${CODES}.`),
      ...pageInput,
    }),
    output: watchListSchema,
    hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (s, args) => s.watches.list(s.accountId, asQuery(args)),
    summarize: summarizeWatches,
  }),
  accountTool({
    name: 'remove_watch',
    title: 'Stop watching a company',
    description: [
      'Delete one of the account’s watches by its id (wch_…, from watch_company or list_watches), as the REST API’s delete of /api/v1/watches/{watchId} does: no more events about that company are made for the account. Events already made stay in list_events.',
      KEYED,
    ].join(' '),
    input: z.object({
      watchId: z.string().describe('The watch’s id, e.g. wch_5Jx2mQ8vL0cR7tYb3nWk9p.'),
    }),
    output: watchRemovedSchema,
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    run: async (s, { watchId }) => {
      await s.watches.remove(s.accountId, watchId);
      return { removed: true as const, watchId };
    },
    summarize: summarizeWatchRemoved,
  }),
  accountTool({
    name: 'list_events',
    title: 'Read the account’s recent events',
    description: [
      'The events made for the account, newest first, each with its full payload (the envelope exactly as delivered to webhooks, `data` included), as GET /api/v1/events answers — sent, held or test.',
      `Kinds: ${BUILT_EVENT_KINDS.join(', ')}. Every event about a company carries data.sequence (1, 2, 3… per company): a gap means an event to look for with entityId.`,
      'Filter by event kind, company (entityId), isTest, and a since/until window (ISO 8601); page with limit and the nextCursor of the previous page.',
      KEYED,
    ].join(' '),
    input: z.object({
      event: z
        .string()
        .optional()
        .describe(`One event kind: ${BUILT_EVENT_KINDS.join(', ')}.`),
      entityId: z
        .string()
        .optional()
        .describe('One company’s events: its entityId (data.entity_id), e.g. ent_gb_04475590.'),
      isTest: z.boolean().optional().describe('true: only test events (the simulator); false: only real ones.'),
      since: z.string().optional().describe('Only events created at or after this time (ISO 8601).'),
      until: z.string().optional().describe('Only events created before this time (ISO 8601).'),
      ...pageInput,
    }),
    output: eventListSchema,
    hints: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    run: (s, args) => s.events.list(s.accountId, parseQuery(eventsQuerySchema, asQuery(args))),
    summarize: summarizeEvents,
  }),
];
