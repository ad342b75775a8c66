import type { AxiosInstance } from 'axios';
import type { Clock } from '../../platform/clock';
import { AU_DEFINITION } from './au.definition';
import type { CompanyDetail, CompanyRecord, ConnectorSource, RegisterConnector, ConnectorDeps } from '../connector';
import { UpstreamError } from '../upstream-error';
import { AbrRecord, parseAbnDetails, parseMatchingNames, unwrapJsonp } from './abr-parser';

/** Oneflare Pty Ltd, the ABN of the one recorded AbnDetails answer. */
export const AU_PROBE_ABN = '26154482283';
// The callback name the recorded request used; the answer must be wrapped in exactly this.
const CALLBACK = 'callback';

/**
 * Australia: the ABN Lookup JSON web services of the Australian Business Register (a GUID is
 * required). ABNs are read with AbnDetails, ACNs with AcnDetails, names with MatchingNames.
 * ABN Lookup publishes no officers.
 */
export class AuConnector implements RegisterConnector {
  readonly country = 'AU' as const;
  private readonly register = AU_DEFINITION;
  private readonly client: AxiosInstance;
  private readonly guid?: string;

  private readonly clock: Clock;

  constructor({ settings, http, clock }: ConnectorDeps) {
    this.clock = clock;
    this.client = http.forRegister('AU', 'API');
    this.guid = settings.credentials.GUID;
  }

  source(): ConnectorSource {
    return {
      kind: 'native_official',
      official: true,
      description: 'the ABN Lookup web services of the Australian Business Register',
    };
  }

  unavailableReason(): string | null {
    if (this.guid) return null;
    return (
      'ABN Lookup web services can only be read with a GUID issued by the Australian Business Register, ' +
      'and none is configured: the register is paused and results come from the fallback dataset.'
    );
  }

  async searchByName(name: string, limit: number): Promise<CompanyRecord[]> {
    const { payload, retrievedAt } = await this.get('/json/MatchingNames.aspx', { name, maxResults: limit });
    return parseMatchingNames(payload)
      .slice(0, limit)
      .map((r) => this.withSource(r, retrievedAt));
  }

  async lookup(registrationNumber: string): Promise<CompanyDetail | null> {
    return (await this.read(registrationNumber)).detail;
  }

  /** ABN Lookup publishes no officers: the record is the lookup (one request). */
  async readRecord(registrationNumber: string): Promise<CompanyRecord | null> {
    return (await this.read(registrationNumber)).detail;
  }

  async probe(): Promise<{ httpStatus: number }> {
    const { detail, httpStatus } = await this.read(AU_PROBE_ABN);
    if (!detail)
      throw UpstreamError.invalidResponse(`ABN Lookup did not return the probe ABN ${AU_PROBE_ABN}`, httpStatus);
    return { httpStatus };
  }

  /** An 11-digit ABN or a 9-digit ACN, as the recogniser normalised it. */
  private async read(number: string): Promise<{ detail: CompanyDetail | null; httpStatus: number }> {
    const isAbn = /^\d{11}$/.test(number);
    if (!isAbn && !/^\d{9}$/.test(number)) return { detail: null, httpStatus: 0 };
    const { payload, retrievedAt, httpStatus } = isAbn
      ? await this.get('/json/AbnDetails.aspx', { abn: number })
      : await this.get('/json/AcnDetails.aspx', { acn: number });
    const record = parseAbnDetails(payload);
    if (!record) return { detail: null, httpStatus };
    const answered = isAbn ? record.registrationNumber : record.extra?.acn;
    if (answered !== number) {
      throw UpstreamError.invalidResponse(
        `ABN Lookup answered for another ${isAbn ? 'ABN' : 'ACN'} than the one asked`,
        httpStatus,
      );
    }
    return { detail: { ...this.withSource(record, retrievedAt), officers: null }, httpStatus };
  }

  private async get(
    path: string,
    params: Record<string, string | number>,
  ): Promise<{ payload: unknown; retrievedAt: string; httpStatus: number }> {
    const reason = this.unavailableReason();
    if (reason) throw new UpstreamError('unauthorized', reason);
    let response;
    try {
      response = await this.client.get<string>(path, {
        params: { ...params, callback: CALLBACK, guid: this.guid },
        responseType: 'text',
        transformResponse: [(data: unknown) => data],
      });
    } catch (err) {
      throw UpstreamError.from(err);
    }
    const retrievedAt = this.clock.now().toISOString();
    return { payload: unwrapJsonp(String(response.data ?? ''), CALLBACK), retrievedAt, httpStatus: response.status };
  }

  private withSource(record: AbrRecord, retrievedAt: string): CompanyRecord {
    return {
      ...record,
      source: {
        register: this.register.name,
        url: `${this.register.officialUrl}/ABN/View?abn=${record.registrationNumber}`,
        official: true,
        kind: 'native_official',
        retrievedAt,
      },
    };
  }
}
