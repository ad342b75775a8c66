import type { AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios';
import type { Clock } from '../../platform/clock';
import { normaliseGbCompanyNumber } from './gb.identifier';
import { GB_DEFINITION } from './gb.definition';
import type {
  CompanyDetail,
  CompanyRecord,
  ConnectorSource,
  Officer,
  RegisterConnector,
  SourceKind,
  ConnectorDeps,
} from '../connector';
import { answeredOrNotFound, jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { ChRecord, parseCompanyProfile, parseCompanySearch, parseOfficerList } from './ch-api-parsers';
import { parseWebCompany, parseWebOfficers, parseWebSearch } from './ch-web-parsers';

/** TESCO PLC: a long-lived company, cheap to read. */
export const GB_PROBE_COMPANY_NUMBER = '00445790';
/** Officer pages read at most per lookup (100 per API page, 35 per website page). */
const MAX_OFFICER_PAGES = 5;

/**
 * Great Britain: Companies House. With REGISTER_GB_API_KEY, its Public Data API (HTTP Basic,
 * the key as username); without one, its own public website. Both are the register itself.
 */
export class GbConnector implements RegisterConnector {
  readonly country = 'GB' as const;
  private readonly registerName = GB_DEFINITION.name;
  private readonly apiKey?: string;
  private readonly api: AxiosInstance;
  private readonly web: AxiosInstance;
  private readonly probeClient: AxiosInstance;
  private readonly webUrl: string;

  private readonly clock: Clock;

  constructor({ settings, config, http, clock }: ConnectorDeps) {
    this.clock = clock;
    this.apiKey = settings.credentials.API_KEY;
    this.api = http.forRegister('GB', 'API');
    this.web = http.forRegister('GB', 'WEB');
    this.probeClient = http.forRegister('GB', this.apiKey ? 'API' : 'WEB', {
      timeoutMs: config.probe.timeoutMs,
      retries: 0,
    });
    this.webUrl = settings.urls.WEB;
  }

  source(): ConnectorSource {
    return this.apiKey
      ? { kind: 'native_official', official: true, description: 'the Companies House Public Data API' }
      : {
          kind: 'native_official_website',
          official: true,
          description: "Companies House's public website (Find and update company information)",
        };
  }

  unavailableReason(): string | null {
    return null;
  }

  async searchByName(name: string, limit: number): Promise<CompanyRecord[]> {
    if (this.apiKey) {
      const res = await this.call(
        this.api,
        '/search/companies',
        this.apiRequest({ params: { q: name, items_per_page: limit } }),
      );
      return this.found(res, () => parseCompanySearch(jsonBody(res, 'Companies House')), limit);
    }
    const res = await this.webGet(this.web, '/search/companies', { q: name });
    return this.found(res, (body) => parseWebSearch(html(res, body)), limit);
  }

  async lookup(registrationNumber: string): Promise<CompanyDetail | null> {
    const number = normaliseGbCompanyNumber(registrationNumber);
    if (!number) return null;
    return this.apiKey ? this.lookupApi(number) : this.lookupWeb(number);
  }

  /** One request: the company profile (API) or the company page (website), no officers. */
  async readRecord(registrationNumber: string): Promise<CompanyRecord | null> {
    const number = normaliseGbCompanyNumber(registrationNumber);
    if (!number) return null;
    return this.apiKey ? this.readProfileApi(number) : this.readPageWeb(number);
  }

  async probe(): Promise<{ httpStatus: number }> {
    const path = `/company/${GB_PROBE_COMPANY_NUMBER}`;
    const res = this.apiKey
      ? await this.call(this.probeClient, path, this.apiRequest({}))
      : await this.webGet(this.probeClient, path);
    if (res.status !== 200)
      throw new UpstreamError('http_4xx', `Companies House answered HTTP ${res.status} to the probe`, res.status);
    if (this.apiKey) parseCompanyProfile(jsonBody(res, 'Companies House'));
    else parseWebCompany(html(res, res.data));
    return { httpStatus: res.status };
  }

  private async readProfileApi(number: string): Promise<CompanyRecord | null> {
    const res = await this.call(this.api, `/company/${number}`, this.apiRequest({}));
    const retrievedAt = this.clock.now().toISOString();
    if (res.status === 404) return null;
    const record = parseCompanyProfile(jsonBody(res, 'Companies House'));
    if (record.registrationNumber !== number)
      throw UpstreamError.invalidResponse(`Companies House answered ${number} with ${record.registrationNumber}`);
    return this.withSource(record, retrievedAt, 'native_official');
  }

  private async readPageWeb(number: string): Promise<CompanyRecord | null> {
    const res = await this.webGet(this.web, `/company/${number}`);
    const retrievedAt = this.clock.now().toISOString();
    if (res.status === 404) return null;
    return this.withSource(parseWebCompany(html(res, res.data), number), retrievedAt, 'native_official_website');
  }

  private async lookupApi(number: string): Promise<CompanyDetail | null> {
    const record = await this.readProfileApi(number);
    if (!record) return null;
    const officers: Officer[] = [];
    for (let page = 0; page < MAX_OFFICER_PAGES; page++) {
      const params = { items_per_page: 100, start_index: officers.length };
      const list = await this.call(this.api, `/company/${number}/officers`, this.apiRequest({ params }));
      if (list.status === 404) break;
      const { officers: batch, totalResults } = parseOfficerList(jsonBody(list, 'Companies House'));
      officers.push(...batch);
      if (batch.length === 0 || totalResults === null || officers.length >= totalResults) break;
    }
    return { ...record, officers };
  }

  private async lookupWeb(number: string): Promise<CompanyDetail | null> {
    const record = await this.readPageWeb(number);
    if (!record) return null;
    const officers: Officer[] = [];
    let path: string | null = `/company/${number}/officers`;
    for (let page = 0; path && page < MAX_OFFICER_PAGES; page++) {
      const list = await this.webGet(this.web, path);
      if (list.status === 404) break;
      const parsed = parseWebOfficers(html(list, list.data));
      officers.push(...parsed.officers);
      path = parsed.nextPage && parsed.nextPage.startsWith('/') ? parsed.nextPage : null;
    }
    return { ...record, officers };
  }

  private found(res: AxiosResponse, parse: (body: unknown) => ChRecord[], limit: number): CompanyRecord[] {
    const retrievedAt = this.clock.now().toISOString();
    if (res.status === 404) return [];
    const kind = this.source().kind;
    return parse(res.data)
      .slice(0, limit)
      .map((r) => this.withSource(r, retrievedAt, kind));
  }

  private apiRequest(config: AxiosRequestConfig): AxiosRequestConfig {
    // HTTP Basic with the key as username and an empty password; axios puts it in the header only.
    return { ...config, auth: { username: this.apiKey ?? '', password: '' }, validateStatus: answeredOrNotFound };
  }

  private webGet(client: AxiosInstance, path: string, params?: Record<string, unknown>): Promise<AxiosResponse> {
    return this.call(client, path, {
      params,
      responseType: 'text',
      headers: { Accept: 'text/html' },
      validateStatus: answeredOrNotFound,
    });
  }

  private async call(client: AxiosInstance, path: string, config: AxiosRequestConfig): Promise<AxiosResponse> {
    try {
      return await client.get(path, config);
    } catch (err) {
      throw UpstreamError.from(err);
    }
  }

  private withSource(record: ChRecord, retrievedAt: string, kind: SourceKind): CompanyRecord {
    return {
      ...record,
      source: {
        register: this.registerName,
        url: `${this.webUrl}/company/${record.registrationNumber}`,
        official: true,
        kind,
        retrievedAt,
      },
    };
  }
}

function html(res: AxiosResponse, body: unknown): string {
  if (typeof body !== 'string' || !/<html|<body|<article|<ul|<div/i.test(body)) {
    throw UpstreamError.invalidResponse('Companies House sent a body that is not an HTML page', res.status);
  }
  return body;
}
