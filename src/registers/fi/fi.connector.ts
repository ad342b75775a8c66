import type { AxiosInstance, AxiosResponse } from 'axios';
import type { Clock } from '../../platform/clock';
import type { CompanyDetail, CompanyRecord, ConnectorSource, RegisterConnector, ConnectorDeps } from '../connector';
import { answeredOrNotFound, jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { FI, FI_DEFINITION } from './fi.definition';
import { BUSINESS_ID } from './fi.identifier';
import { parsePrhCompany, prhCompanies, PrhRecord, prhRecordUrl } from './prh-parsers';

/** Nokia Oyj: a long-lived company, the one recorded answer. */
export const FI_PROBE_BUSINESS_ID = '0112038-9';

/**
 * Finland: PRH's open data YTJ API v3 (no key). One path, `/companies`, answers both a name
 * search and a business ID (`?businessId=`; there is no `/companies/{id}`), always as
 * `{totalResults, companies[]}`. PRH publishes no officers.
 */
export class FiConnector implements RegisterConnector {
  readonly country = FI;
  private readonly registerName = FI_DEFINITION.name;
  private readonly api: AxiosInstance;
  private readonly probeClient: AxiosInstance;
  private readonly webUrl: string;

  private readonly clock: Clock;

  constructor({ settings, config, http, clock }: ConnectorDeps) {
    this.clock = clock;
    this.api = http.forRegister(FI, 'API');
    this.probeClient = http.forRegister(FI, 'API', { timeoutMs: config.probe.timeoutMs, retries: 0 });
    this.webUrl = settings.urls.WEB;
  }

  source(): ConnectorSource {
    return { kind: 'native_official', official: true, description: "PRH's open data YTJ API" };
  }

  unavailableReason(): string | null {
    return null;
  }

  /** PRH searches current, previous, parallel and auxiliary names; its first page holds 100. */
  async searchByName(name: string, limit: number): Promise<CompanyRecord[]> {
    const res = await this.get(this.api, { name });
    const retrievedAt = this.clock.now().toISOString();
    if (res.status === 404) return [];
    return prhCompanies(json(res))
      .slice(0, limit)
      .map((item) => this.withSource(parsePrhCompany(item), retrievedAt));
  }

  async lookup(registrationNumber: string): Promise<CompanyDetail | null> {
    const record = await this.readRecord(registrationNumber);
    return record ? { ...record, officers: null } : null;
  }

  /** One request: `/companies?businessId=`. */
  async readRecord(registrationNumber: string): Promise<CompanyRecord | null> {
    if (!BUSINESS_ID.test(registrationNumber)) return null;
    const res = await this.get(this.api, { businessId: registrationNumber });
    const retrievedAt = this.clock.now().toISOString();
    if (res.status === 404) return null;
    const record = this.onlyCompany(json(res), registrationNumber);
    return record ? this.withSource(record, retrievedAt) : null;
  }

  async probe(): Promise<{ httpStatus: number }> {
    const res = await this.get(this.probeClient, { businessId: FI_PROBE_BUSINESS_ID });
    if (res.status !== 200)
      throw new UpstreamError('http_4xx', `PRH answered HTTP ${res.status} to the probe`, res.status);
    if (!this.onlyCompany(json(res), FI_PROBE_BUSINESS_ID))
      throw UpstreamError.invalidResponse(`PRH answered the probe without company ${FI_PROBE_BUSINESS_ID}`);
    return { httpStatus: res.status };
  }

  /** The company of a business ID answer; null when there is none, an error when it is another. */
  private onlyCompany(body: unknown, businessId: string): PrhRecord | null {
    const records = prhCompanies(body).map(parsePrhCompany);
    if (records.length === 0) return null;
    const record = records.find((r) => r.registrationNumber === businessId);
    if (!record) {
      throw UpstreamError.invalidResponse(`PRH answered ${businessId} with company ${records[0].registrationNumber}`);
    }
    return record;
  }

  private async get(client: AxiosInstance, params: Record<string, string>): Promise<AxiosResponse> {
    try {
      return await client.get('/companies', { params, validateStatus: answeredOrNotFound });
    } catch (err) {
      throw UpstreamError.from(err);
    }
  }

  private withSource(record: PrhRecord, retrievedAt: string): CompanyRecord {
    return {
      ...record,
      source: {
        register: this.registerName,
        url: prhRecordUrl(this.webUrl, record.registrationNumber),
        official: true,
        kind: 'native_official',
        retrievedAt,
      },
    };
  }
}

function json(res: AxiosResponse): unknown {
  return jsonBody(res, 'PRH');
}
