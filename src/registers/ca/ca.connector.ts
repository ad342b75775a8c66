import type { AxiosInstance, AxiosResponse } from 'axios';
import type { Clock } from '../../platform/clock';
import { CA_DEFINITION } from './ca.definition';
import type {
  CompanyDetail,
  CompanyRecord,
  ConnectorSource,
  Officer,
  RegisterConnector,
  ConnectorDeps,
} from '../connector';
import { parseJsonText } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { CorpCanRecord, parseCorpCanCorporation, parseCorpCanDirectors } from './corpcan-parser';
import { NameSearchUnsupportedError } from '../name-search-unsupported.error';

/** Abbotsford Chamber of Commerce, the corporation of the official documentation's example. */
export const CA_PROBE_CORPORATION = '1007';

/**
 * Canada (federal): the keyless corporation JSON of Corporations Canada; with
 * REGISTER_CA_API_KEY the ISED API gateway instead, which also publishes directors.
 * Lookup only: neither has a name search (see NameSearchUnsupportedError).
 */
export class CaConnector implements RegisterConnector {
  readonly country = 'CA' as const;
  private readonly registerName = CA_DEFINITION.name;
  private readonly keyless: AxiosInstance;
  private readonly gateway: AxiosInstance;
  private readonly webUrl: string;
  private readonly apiKey?: string;

  private readonly clock: Clock;

  constructor({ settings, http, clock }: ConnectorDeps) {
    this.clock = clock;
    this.keyless = http.forRegister('CA', 'API');
    this.gateway = http.forRegister('CA', 'GATEWAY');
    this.webUrl = settings.urls.WEB;
    this.apiKey = settings.credentials.API_KEY;
  }

  source(): ConnectorSource {
    return {
      kind: 'native_official',
      official: true,
      description: this.apiKey
        ? 'the Corporations Canada API on the ISED API gateway'
        : 'the keyless federal corporation JSON of Corporations Canada',
    };
  }

  /** The keyless JSON needs no credential: Canada is never paused for lack of one. */
  unavailableReason(): string | null {
    return null;
  }

  // Canada's Business Registries search (searchapi.mrasservice.ca) is undocumented and no
  // response of it is recorded or published, so it cannot be parsed reliably; the corporation
  // JSON is lookup-only. Names are answered from the federal open-data dataset.
  async searchByName(_name: string, _limit: number): Promise<CompanyRecord[]> {
    throw new NameSearchUnsupportedError(
      'CA',
      'Corporations Canada publishes no name search that can be read reliably (its corporation JSON looks up numbers only); ' +
        'names are searched in the federal corporations open-data dataset.',
    );
  }

  async lookup(registrationNumber: string): Promise<CompanyDetail | null> {
    return (await this.read(registrationNumber)).detail;
  }

  /** One request: the corporation JSON, without the directors. */
  async readRecord(registrationNumber: string): Promise<CompanyRecord | null> {
    return (await this.read(registrationNumber, false)).detail;
  }

  async probe(): Promise<{ httpStatus: number }> {
    const { detail, httpStatus } = await this.read(CA_PROBE_CORPORATION);
    if (!detail)
      throw UpstreamError.invalidResponse(
        `Corporations Canada did not return corporation ${CA_PROBE_CORPORATION}`,
        httpStatus,
      );
    return { httpStatus };
  }

  /** A corporation number (1–8 digits) or a BN9: the corporation JSON accepts both. */
  private async read(id: string, withDirectors = true): Promise<{ detail: CompanyDetail | null; httpStatus: number }> {
    if (!/^\d{1,9}$/.test(id)) return { detail: null, httpStatus: 0 };
    const response = this.apiKey
      ? await this.get(this.gateway, `/api/v1/corporations/${id}.json`, { lang: 'eng' })
      : await this.get(this.keyless, `/api/corporations/${id}.json`, { lang: 'eng' });
    const retrievedAt = this.clock.now().toISOString();
    let record: CorpCanRecord | null;
    try {
      record = parseCorpCanCorporation(this.json(response));
    } catch (err) {
      // A 404 is "not found" only with the register's own not-found answer; else the path is wrong.
      if (response.status === 404) throw new UpstreamError('http_4xx', 'Corporations Canada answered HTTP 404', 404);
      throw err;
    }
    if (!record) return { detail: null, httpStatus: response.status };
    if (response.status === 404)
      throw new UpstreamError('http_4xx', 'Corporations Canada answered HTTP 404 with a record', 404);
    if (record.registrationNumber !== id && record.extra?.businessNumber !== id) {
      throw UpstreamError.invalidResponse(
        'Corporations Canada answered for another corporation than the one asked',
        response.status,
      );
    }
    const officers = this.apiKey && withDirectors ? await this.directors(record.registrationNumber) : null;
    return { detail: { ...this.withSource(record, retrievedAt), officers }, httpStatus: response.status };
  }

  private async directors(corporationId: string): Promise<Officer[]> {
    const response = await this.get(this.gateway, `/api/v2/corporations/${corporationId}/directors`, {});
    if (response.status === 404) return []; // no directors resource for this corporation
    return parseCorpCanDirectors(this.json(response));
  }

  /** GET that lets 404 through: Corporations Canada may say "could not find corporation" with it. */
  private async get(
    client: AxiosInstance,
    path: string,
    params: Record<string, string>,
  ): Promise<AxiosResponse<string>> {
    try {
      return await client.get<string>(path, {
        params,
        headers: this.apiKey && client === this.gateway ? { 'user-key': this.apiKey } : {},
        responseType: 'text',
        transformResponse: [(data: unknown) => data],
        validateStatus: (status) => status === 200 || status === 404,
      });
    } catch (err) {
      throw UpstreamError.from(err);
    }
  }

  private json(response: AxiosResponse<string>): unknown {
    return parseJsonText(response.data, response.status, 'Corporations Canada');
  }

  private withSource(record: CorpCanRecord, retrievedAt: string): CompanyRecord {
    return {
      ...record,
      source: {
        register: this.registerName,
        url: `${this.webUrl}/fdrlCrpDtls.html?corpId=${record.registrationNumber}`,
        official: true,
        kind: 'native_official',
        retrievedAt,
      },
    };
  }
}
