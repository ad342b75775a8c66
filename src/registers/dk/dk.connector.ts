import type { AxiosInstance } from 'axios';
import type { Clock } from '../../platform/clock';
import { DK_DEFINITION } from './dk.definition';
import type {
  CompanyDetail,
  CompanyRecord,
  ConnectorSource,
  RecordSource,
  RegisterConnector,
  ConnectorDeps,
} from '../connector';
import { parseJsonText } from '../response-body';
import { UpstreamError } from '../upstream-error';
import type { Json } from './cvr-json';
import { parseCvrOfficers } from './cvr-officers';
import { cvrNumberOf, CvrRecord, parseCvrSearchBody, toCvrRecord } from './cvr-parser';
import { cvrLookupQuery, cvrNameSearchQuery, cvrRecordQuery } from './cvr-queries';

const SEARCH_PATH = '/cvr-permanent/virksomhed/_search';
/** MAGENTA ApS: a long-lived company, cheap to look up by term. */
export const DK_PROBE_CVR = '25052943';

/**
 * Denmark: the CVR system-to-system Elasticsearch distribution (HTTP Basic credentials issued
 * by Erhvervsstyrelsen). Without both credentials no read is attempted.
 */
export class DkConnector implements RegisterConnector {
  readonly country = 'DK' as const;
  private readonly registerName = DK_DEFINITION.name;
  private readonly client: AxiosInstance;
  private readonly webUrl: string;
  private readonly username?: string;
  private readonly password?: string;

  private readonly clock: Clock;

  constructor({ settings, http, clock }: ConnectorDeps) {
    this.clock = clock;
    this.client = http.forRegister('DK', 'API');
    this.webUrl = settings.urls.WEB;
    this.username = settings.credentials.USERNAME;
    this.password = settings.credentials.PASSWORD;
  }

  source(): ConnectorSource {
    return {
      kind: 'native_official',
      official: true,
      description: 'the CVR system-to-system distribution of Erhvervsstyrelsen (the Danish Business Authority)',
    };
  }

  unavailableReason(): string | null {
    if (this.username && this.password) return null;
    return (
      'The CVR system-to-system distribution can only be read with credentials issued by Erhvervsstyrelsen, ' +
      'and none are configured: the register is paused and results come from the fallback dataset.'
    );
  }

  async searchByName(name: string, limit: number): Promise<CompanyRecord[]> {
    const { docs, retrievedAt } = await this.search(cvrNameSearchQuery(name, limit));
    return docs.slice(0, limit).map((doc) => this.withSource(toCvrRecord(doc), retrievedAt));
  }

  async lookup(registrationNumber: string): Promise<CompanyDetail | null> {
    return (await this.read(registrationNumber)).detail;
  }

  /** One search request, without the participants. */
  async readRecord(registrationNumber: string): Promise<CompanyRecord | null> {
    if (!/^\d{8}$/.test(registrationNumber)) return null;
    const { docs, retrievedAt } = await this.search(cvrRecordQuery(registrationNumber));
    const doc = docs.find((d) => cvrNumberOf(d) === registrationNumber);
    return doc ? this.withSource(toCvrRecord(doc), retrievedAt) : null;
  }

  /** The documents of any search body, as `_source` asks for them (change detection's `sidstOpdateret` query). */
  async searchDocuments(body: object): Promise<Json[]> {
    return (await this.search(body)).docs;
  }

  async probe(): Promise<{ httpStatus: number }> {
    const { detail, httpStatus } = await this.read(DK_PROBE_CVR);
    if (!detail)
      throw UpstreamError.invalidResponse(`CVR did not return the probe company ${DK_PROBE_CVR}`, httpStatus);
    return { httpStatus };
  }

  private async read(cvr: string): Promise<{ detail: CompanyDetail | null; httpStatus: number }> {
    if (!/^\d{8}$/.test(cvr)) return { detail: null, httpStatus: 0 };
    const { docs, retrievedAt, httpStatus } = await this.search(cvrLookupQuery(cvr));
    // A term query answers with that number or nothing; anything else is not the company asked for.
    const doc = docs.find((d) => cvrNumberOf(d) === cvr);
    if (!doc) return { detail: null, httpStatus };
    return {
      detail: { ...this.withSource(toCvrRecord(doc), retrievedAt), officers: parseCvrOfficers(doc) },
      httpStatus,
    };
  }

  private async search(body: object): Promise<{ docs: Json[]; retrievedAt: string; httpStatus: number }> {
    const reason = this.unavailableReason();
    if (reason) throw new UpstreamError('unauthorized', reason);
    let response;
    try {
      response = await this.client.post<string>(SEARCH_PATH, body, {
        auth: { username: this.username!, password: this.password! },
        headers: { 'Content-Type': 'application/json', 'X-Idempotent': 'true' }, // a search changes nothing
        responseType: 'text',
        transformResponse: [(data: unknown) => data],
      });
    } catch (err) {
      throw UpstreamError.from(err);
    }
    const retrievedAt = this.clock.now().toISOString();
    const parsed = parseJsonText(response.data, response.status, 'CVR');
    return { docs: parseCvrSearchBody(parsed), retrievedAt, httpStatus: response.status };
  }

  private withSource(record: CvrRecord, retrievedAt: string): CompanyRecord {
    const source: RecordSource = {
      register: this.registerName,
      url: `${this.webUrl}/enhed/virksomhed/${record.registrationNumber}`,
      official: true,
      kind: 'native_official',
      retrievedAt,
    };
    return { ...record, source };
  }
}
