import { z } from 'zod';
import type { LeiService } from '../lei/lei.service';
import { REGISTER_TABLE } from '../registers/registers';
import { PROVIDES_VALUES, type RegistersService } from '../status/registers.service';
import { resolveCountry } from '../search/query-validation';
import type { SearchService } from '../search/search.service';
import type { StatusReportService } from '../status/status-report.service';
import { REGISTER_STATUSES } from '../status/register-status';
import {
  companyResponseSchema,
  leiResponseSchema,
  registerListSchema,
  searchResponseSchema,
  statusReportSchema,
} from './mcp-schemas';
import { summarizeCompany, summarizeLei, summarizeRegisters, summarizeSearch, summarizeStatus } from './mcp-summaries';

/** The services the REST controllers call; the tools call the very same instances. */
export interface McpToolServices {
  search: Pick<SearchService, 'search' | 'company'>;
  registers: Pick<RegistersService, 'list'>;
  status: Pick<StatusReportService, 'report'>;
  lei: Pick<LeiService, 'lookup'>;
}

/** What the MCP annotations tell a client about a tool's effects. */
export interface McpToolHints {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The lookups: they read the registers and change nothing. */
export const LOOKUP_HINTS: McpToolHints = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: true,
};

export interface McpTool<
  S = McpToolServices,
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject = z.ZodObject,
> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  hints: McpToolHints;
  run(services: S, args: z.output<I>): Promise<z.output<O>>;
  summarize(result: z.output<O>): string;
}

function tool<I extends z.ZodObject, O extends z.ZodObject>(
  definition: Omit<McpTool<McpToolServices, I, O>, 'hints'>,
): McpTool {
  return { ...definition, input: definition.input.strict(), hints: LOOKUP_HINTS } as unknown as McpTool;
}

// Everything a model reads about coverage comes from the register table, never a second list.
const COVERED = REGISTER_TABLE.map((r) => `${r.country} (${r.countryName}: ${r.short})`).join(', ');
const CODES = REGISTER_TABLE.map((r) => r.country).join(', ');
const WITH_OFFICERS = REGISTER_TABLE.filter((r) => r.provides.officers).map((r) => r.country);
const WITHOUT_OFFICERS = REGISTER_TABLE.filter((r) => !r.provides.officers).map((r) => r.country);

const PROVENANCE =
  'Every record carries its provenance in `source`: `register`, `url` (the record’s own page at the register), `official` (true only for a live read of the national register itself), `kind` (native_official, native_official_website, public_mirror:<name>, dataset:<name>) and `retrievedAt` (when it was read).';
const READ_WARNING =
  'If `register.status` is not "live" (degraded or paused), the data comes from a mirror or an older fallback dataset and is not an official live read: read `warning` and say so before relying on it.';

const countryInput = z.string().describe(`ISO 3166-1 alpha-2 country code, case-insensitive. Covered: ${CODES}.`);

export const MCP_TOOLS: readonly McpTool[] = [
  tool({
    name: 'search_companies',
    title: 'Search a company register',
    description: [
      `Look a company up by name or registration number in the official company register of one country. Covered countries: ${COVERED}.`,
      'A q in the country’s registration-number format (separators allowed; check digits verified) is looked up directly; anything else is a name search returning up to 20 ranked matches.',
      'Returns the Search response: the register descriptor, `results` (name, registrationNumber, status in the register’s own wording plus a normalised statusCategory, legalForm, address, city, incorporationDate, and `lei` where GLEIF maps the company to an LEI), `count`, and an attribution to cite.',
      PROVENANCE,
      READ_WARNING,
      '`resolved: false` with no results means nothing matched: an answer, not an error. Officers are not included here: call get_company with a registrationNumber from the results.',
    ].join(' '),
    input: z.object({
      q: z.string().describe('Company name or registration number, 2–200 characters.'),
      country: countryInput,
    }),
    output: searchResponseSchema,
    run: (s, { q, country }) => s.search.search(q, country),
    summarize: summarizeSearch,
  }),
  tool({
    name: 'get_company',
    title: 'Get one company with its officers',
    description: [
      `Read one company by its registration number from the official register of one country (${COVERED}), with its officers where the register publishes them (${WITH_OFFICERS.join(', ')}; not ${WITHOUT_OFFICERS.join(', ') || 'none'}).`,
      'Returns the same data as the REST company lookup: the register descriptor and `company` (name, status and statusCategory, legalForm, address, city, incorporationDate, `lei` where GLEIF maps the company to an LEI, `officers` with name, role, kind person/company, appointedOn, resignedOn — null where the source publishes none).',
      PROVENANCE,
      READ_WARNING,
      'Use search_companies first when you only have a name.',
    ].join(' '),
    input: z.object({
      country: countryInput,
      registrationNumber: z
        .string()
        .describe('Registration number in the country’s format, as returned by search_companies (separators allowed).'),
    }),
    output: companyResponseSchema,
    run: (s, { country, registrationNumber }) => s.search.company(country, registrationNumber),
    summarize: summarizeCompany,
  }),
  tool({
    name: 'list_registers',
    title: 'List the registers',
    description: [
      `List the official registers this service reads (${COVERED}), from the same table the service uses: full and short name, official URL, the register’s reuse terms (which callers must respect), what it provides (officers, filings, monitoring), its current status (live, degraded or paused, with statusReason) and where live reads come from (liveSource).`,
      'Beside them, `indexes` lists GLEIF’s LEI index (used by lookup_lei and for the `lei` of companies) with its own status.',
      'Optional filters narrow the list.',
    ].join(' '),
    input: z.object({
      provides: z
        .string()
        .optional()
        .describe(
          `Keep registers providing every listed capability: ${PROVIDES_VALUES.join(', ')} (one, or several separated by commas).`,
        ),
      status: z
        .string()
        .optional()
        .describe(
          `Keep registers in any listed status: ${REGISTER_STATUSES.join(', ')} (one, or several separated by commas).`,
        ),
    }),
    output: registerListSchema,
    run: (s, { provides, status }) => s.registers.list({ provides, status }),
    summarize: summarizeRegisters,
  }),
  tool({
    name: 'get_register_status',
    title: 'Register health and uptime',
    description: [
      `Health of the registers (${CODES}) from scheduled probes, as /status reports it: current status (live, degraded or paused, with statusReason), uptime over 24 h / 7 d / 30 d / 90 d (share of successful probes), the last probe, the last success, and one uptime figure per UTC day for 90 days.`,
      '`indexes` gives the same for GLEIF’s LEI index (lookup_lei, and the `lei` of companies). Give a country for one register only; omit it for all. Use it to explain a warning or an upstream_error from the lookup tools.',
    ].join(' '),
    input: z.object({
      country: countryInput.optional(),
    }),
    output: statusReportSchema,
    run: async (s, { country }) => {
      // Validated first, exactly as search validates a country (country_not_covered).
      const only = country === undefined ? undefined : resolveCountry(country).country;
      const report = await s.status.report();
      return only ? { ...report, registers: report.registers.filter((r) => r.country === only) } : report;
    },
    summarize: summarizeStatus,
  }),
  tool({
    name: 'lookup_lei',
    title: 'Look a legal entity up by its LEI',
    description: [
      'Read one Legal Entity Identifier (LEI, ISO 17442: 20 letters and digits, the last two check digits, verified before anything is read) from GLEIF’s Global LEI Index.',
      `Returns the legal name and other names, the entity status (ACTIVE, INACTIVE) and the LEI’s registration status (ISSUED; LAPSED means not renewed, not a dissolved company), legal form (ISO 20275 code), jurisdiction, legal and headquarters addresses, the registration authority (registeredAt) and the national number (registeredAs), and \`nationalRecord\` (country and registrationNumber for get_company) where that register is one this service reads (${CODES}).`,
      'Provenance: source.kind is lei_index and source.official is true — GLEIF is the official source of LEI data, NOT of national registration data: for the register’s own data call get_company with entity.nationalRecord.',
      'Companies found by search_companies and get_company carry their `lei` where GLEIF maps them.',
    ].join(' '),
    input: z.object({
      lei: z.string().describe('The LEI, e.g. 21380068P1DRHMJ8KU70 (case and surrounding spaces ignored).'),
    }),
    output: leiResponseSchema,
    run: (s, { lei }) => s.lei.lookup(lei),
    summarize: summarizeLei,
  }),
];

export const MCP_TOOLS_BY_NAME: ReadonlyMap<string, McpTool> = new Map(MCP_TOOLS.map((t) => [t.name, t]));

const LOOKUP_TOOL_NAMES =
  'search_companies (by name or number), get_company (one company with officers), list_registers, get_register_status, lookup_lei (a legal entity by its LEI, from GLEIF’s index; companies carry their `lei` where GLEIF maps them)';

/** What `initialize` tells a model about the service; `withAccount`: the request carries a valid API key. */
export function mcpInstructions(withAccount: boolean): string {
  return [
    `Registry Lookup reads the official national company registers of ${COVERED} and returns company registration data: legal name, registration number, status, legal form, address, city, incorporation date, and officers where the register publishes them (${WITH_OFFICERS.join(', ')}).`,
    `Tools: ${LOOKUP_TOOL_NAMES}.`,
    withAccount
      ? 'With the API key this request carries, the account’s tools too: watch_company (follow a company’s changes), list_watches, remove_watch, list_events (the account’s recent events with their full data). They have the /api/v1 API’s validation, watch quota and hourly request limit; their failures are isError results with its codes (invalid_body, country_not_covered, watch_quota_exceeded, resource_not_found, invalid_parameter, rate_limited) and a hint.'
      : 'With `Authorization: Bearer <api key>` on the requests (a free account: POST /api/v1/accounts), four more tools watch companies for changes and read the account’s events: watch_company, list_watches, remove_watch, list_events.',
    'Every record carries provenance (source.register, source.url, source.official, source.kind, source.retrievedAt): cite it. A register answers live when its status is "live"; when it is degraded or paused, results come from a mirror or a fallback dataset, are not official live reads, and come with a `warning` to pass on.',
    'Lookup failures come back as tool results with isError true and a contract error code (country_not_covered, invalid_query, missing_parameter, invalid_parameter, company_not_found, lei_not_found, upstream_error) and a hint on how to recover.',
    'The service returns official registration data only: it does no sanctions, PEP, adverse-media or credit screening. Reuse requires attribution (the `attribution` field) and respect of each register’s own reuse terms.',
  ].join('\n');
}

/** What `initialize` tells a model without an API key. */
export const MCP_INSTRUCTIONS = mcpInstructions(false);
