import { FakeRegister, FakeResponse, fixture, RecordedRequest } from './fake-register';

const L = 'registers/lei';
export const SHELL_LEI = '21380068P1DRHMJ8KU70';
export const AMAZON_UK_LEI = '254900LNRYNOQ9YPU758';
export const FRAPORT_LEI = '5299001ERX0K10IZUL40';
export const LAPSED_FUND_LEI = '549300LBI3LRIZ2V8V66';
/** Valid check digits, and no record (GLEIF's 404). */
export const UNKNOWN_LEI = '213800UNKNOWN0000012';
export const SHELL_GB_NUMBER = '04366849';
export const AMAZON_UK_GB_NUMBER = '06528297';

const SINGLE_RECORDS: Record<string, string> = {
  [SHELL_LEI]: `${L}/gleif-lei-record-21380068P1DRHMJ8KU70-shell-plc-gb-ra000585.json`,
  [FRAPORT_LEI]: `${L}/gleif-lei-record-5299001ERX0K10IZUL40-fraport-de.json`,
  [LAPSED_FUND_LEI]: `${L}/gleif-lei-record-549300LBI3LRIZ2V8V66-lapsed-fund-pretty.json`,
};
const TWELVE = `${L}/gleif-lei-records-filter-lei-12-hits.json`;
const JSON_API = { 'Content-Type': 'application/vnd.api+json' };

type GleifResource = { attributes: { entity: { registeredAt: { id: string | null }; registeredAs: string | null } } };

/** The twelve recorded records of the filter[lei] collection (GB, DE, SE, US, IN, CA-ON registers). */
export function recordedLeiRecords(): GleifResource[] {
  return (JSON.parse(fixture(TWELVE)) as { data: GleifResource[] }).data;
}

/** One recorded record (the single-record files), parsed. */
export function recordedLeiRecord(lei: keyof typeof SINGLE_RECORDS | string): any {
  return JSON.parse(fixture(SINGLE_RECORDS[lei]));
}

export interface FakeGleif {
  fake: FakeRegister;
  url: string;
  env: { REGISTER_LEI_API_URL: string };
  /** The batched number → LEI requests (GET /lei-records with a registeredAs filter). */
  batchRequests(): RecordedRequest[];
  /** Back to the recorded routes, no request recorded. */
  reset(): void;
  stop(): Promise<void>;
}

/**
 * GLEIF's API on loopback. `GET /lei-records/{lei}` replays the recorded single records byte for
 * byte (an LEI without one: 404 with a JSON:API error body, constructed — no real 404 body is
 * recorded). `GET /lei-records?filter[entity.registeredAt]=…&filter[entity.registeredAs]=…` answers
 * like GLEIF from the twelve recorded records of the filter[lei] collection: those whose
 * registration authority and number are both in the filters, in the recorded collection's shape
 * (its meta and pagination recomputed: a derived answer, built here, never stored).
 */
export async function startFakeGleif(): Promise<FakeGleif> {
  const fake = await new FakeRegister().start();
  const route = () => {
    fake.get(/^\/lei-records\/[^/]+$/, (req) => {
      const lei = req.path.slice('/lei-records/'.length);
      const file = SINGLE_RECORDS[lei];
      if (file) return { fixture: file, headers: JSON_API };
      return {
        status: 404,
        body: JSON.stringify({ errors: [{ status: '404', title: 'Not Found', detail: `Record ${lei} not found` }] }),
        headers: JSON_API,
      };
    });
    fake.get('/lei-records', (req) => batchAnswer(req));
  };
  route();
  return {
    fake,
    url: fake.url,
    env: { REGISTER_LEI_API_URL: fake.url },
    batchRequests: () => fake.requestsTo('/lei-records').filter((r) => r.query.has('filter[entity.registeredAs]')),
    reset: () => {
      fake.reset();
      route();
    },
    stop: () => fake.stop(),
  };
}

function batchAnswer(req: RecordedRequest): FakeResponse {
  const recorded = JSON.parse(fixture(TWELVE)) as { meta: any; links: unknown; data: GleifResource[] };
  const authorities = (req.query.get('filter[entity.registeredAt]') ?? '').split(',');
  const numbers = (req.query.get('filter[entity.registeredAs]') ?? '').split(',');
  const size = Number(req.query.get('page[size]') ?? 15);
  const hits = recorded.data.filter(
    (r) =>
      authorities.includes(r.attributes.entity.registeredAt.id ?? '') &&
      numbers.includes(r.attributes.entity.registeredAs ?? ''),
  );
  const data = hits.slice(0, size);
  const pagination = {
    currentPage: 1,
    perPage: size,
    from: data.length ? 1 : null,
    to: data.length ? data.length : null,
    total: hits.length,
    lastPage: Math.max(1, Math.ceil(hits.length / size)),
  };
  return {
    body: JSON.stringify({ meta: { goldenCopy: recorded.meta.goldenCopy, pagination }, links: {}, data }),
    headers: JSON_API,
  };
}

/**
 * A Companies House company profile of a GB company GLEIF holds, derived from its recorded GLEIF
 * record (name, number, creation date, legal address; ELF B6ES is a plc): no recorded Companies
 * House profile of Shell plc or Amazon Digital UK exists. Test data, never stored as a recording.
 */
export function chProfileDerivedFromGleif(lei: string): Record<string, unknown> {
  const e = leiEntity(lei);
  return {
    company_number: e.registeredAs,
    company_name: e.legalName.name,
    company_status: 'active',
    type: e.legalForm.id === 'B6ES' ? 'plc' : 'ltd',
    date_of_creation: e.creationDate?.slice(0, 10) ?? null,
    jurisdiction: 'england-wales',
    registered_office_address: {
      address_line_1: e.legalAddress.addressLines[0],
      locality: e.legalAddress.city,
      postal_code: e.legalAddress.postalCode,
      country: 'United Kingdom',
    },
    links: { self: `/company/${e.registeredAs}` },
  };
}

/** The same as a Companies House search item. */
export function chSearchItemDerivedFromGleif(lei: string): Record<string, unknown> {
  const p = chProfileDerivedFromGleif(lei);
  return {
    kind: 'searchresults#company',
    title: p.company_name,
    company_number: p.company_number,
    company_status: p.company_status,
    company_type: p.type,
    date_of_creation: p.date_of_creation,
    address: p.registered_office_address,
    links: p.links,
  };
}

function leiEntity(lei: string): any {
  const record = recordedLeiRecords().find((r: any) => r.attributes.lei === lei) as any;
  if (!record) throw new Error(`no recorded GLEIF record of ${lei}`);
  return record.attributes.entity;
}

/**
 * The GB fake answering for the two GB companies GLEIF holds: their profiles (derived, above),
 * and a name search for "shell" listing both, then the 15 recorded items of q=you (which GLEIF
 * does not map): 17 numbers for one batched lookup.
 */
export function routeGbCompaniesGleifHolds(gbApi: FakeRegister): void {
  const json = { 'Content-Type': 'application/json; charset=utf-8' };
  const you = JSON.parse(fixture('registers/gb/ch-search-companies-q-you.json')) as { items: unknown[] };
  const items = [chSearchItemDerivedFromGleif(SHELL_LEI), chSearchItemDerivedFromGleif(AMAZON_UK_LEI), ...you.items];
  gbApi.get((r) => r.path === '/search/companies' && /shell/i.test(r.query.get('q') ?? ''), {
    body: JSON.stringify({ kind: 'search#companies', total_results: items.length, items }),
    headers: json,
  });
  for (const lei of [SHELL_LEI, AMAZON_UK_LEI]) {
    const profile = chProfileDerivedFromGleif(lei);
    gbApi.get(`/company/${profile.company_number as string}`, { body: JSON.stringify(profile), headers: json });
  }
}
