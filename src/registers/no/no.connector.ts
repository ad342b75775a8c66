import type { AxiosInstance, AxiosResponse } from 'axios';
import type { Clock } from '../../platform/clock';
import { NO_DEFINITION } from './no.definition';
import type { CompanyDetail, CompanyRecord, ConnectorSource, RegisterConnector, ConnectorDeps } from '../connector';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { BrregRecord, parseEnhet, parseEnhetSearch, parseFjernetEnhet, parseRoller } from './brreg-parsers';

/** EQUINOR ASA: a long-lived unit, cheap to read. */
export const NO_PROBE_ORGNR = '923609016';

/** 404 is "no such unit", 410 "removed for legal reasons": both are answers, not failures. */
const ANSWERS = (status: number) => (status >= 200 && status < 300) || status === 404 || status === 410;

/** Norway: Brønnøysundregistrene's open Enhetsregisteret API (no key). */
export class NoConnector implements RegisterConnector {
  readonly country = 'NO' as const;
  private readonly registerName = NO_DEFINITION.name;
  private readonly api: AxiosInstance;
  private readonly probeClient: AxiosInstance;
  private readonly webUrl: string;

  private readonly clock: Clock;

  constructor({ settings, config, http, clock }: ConnectorDeps) {
    this.clock = clock;
    this.api = http.forRegister('NO', 'API');
    this.probeClient = http.forRegister('NO', 'API', { timeoutMs: config.probe.timeoutMs, retries: 0 });
    this.webUrl = settings.urls.WEB;
  }

  source(): ConnectorSource {
    return {
      kind: 'native_official',
      official: true,
      description: "Brønnøysundregistrene's open Enhetsregisteret API",
    };
  }

  unavailableReason(): string | null {
    return null;
  }

  async searchByName(name: string, limit: number): Promise<CompanyRecord[]> {
    const res = await this.get(this.api, '/enheter', { navn: name, size: limit });
    const retrievedAt = this.clock.now().toISOString();
    if (res.status !== 200)
      throw new UpstreamError('http_4xx', `Enhetsregisteret answered HTTP ${res.status} to a search`, res.status);
    return parseEnhetSearch(json(res))
      .slice(0, limit)
      .map((r) => this.withSource(r, retrievedAt));
  }

  async lookup(registrationNumber: string): Promise<CompanyDetail | null> {
    const unit = await this.readUnit(registrationNumber);
    if (!unit) return null;
    if (unit.removed) return { ...unit.record, officers: null };
    const record = unit.record;
    const roles = await this.get(this.api, `/enheter/${registrationNumber}/roller`);
    const { current, resigned } = roles.status === 200 ? parseRoller(json(roles)) : { current: [], resigned: [] };
    const detail: CompanyDetail = { ...record, officers: current };
    if (resigned.length) detail.extra = { ...detail.extra, fratraadteRoller: resigned };
    return detail;
  }

  /** One request: `/enheter/{orgnr}` (410 = removed, read as a dissolved record). */
  async readRecord(registrationNumber: string): Promise<CompanyRecord | null> {
    return (await this.readUnit(registrationNumber))?.record ?? null;
  }

  private async readUnit(registrationNumber: string): Promise<{ record: CompanyRecord; removed: boolean } | null> {
    if (!/^\d{9}$/.test(registrationNumber)) return null;
    const res = await this.get(this.api, `/enheter/${registrationNumber}`);
    const retrievedAt = this.clock.now().toISOString();
    if (res.status === 404) return null;
    if (res.status === 410) {
      return {
        record: this.withSource(parseFjernetEnhet(bodyOrNull(res), registrationNumber), retrievedAt),
        removed: true,
      };
    }
    const record = parseEnhet(json(res));
    if (record.registrationNumber !== registrationNumber) {
      throw UpstreamError.invalidResponse(
        `Enhetsregisteret answered ${registrationNumber} with unit ${record.registrationNumber}`,
      );
    }
    return { record: this.withSource(record, retrievedAt), removed: false };
  }

  async probe(): Promise<{ httpStatus: number }> {
    const res = await this.get(this.probeClient, `/enheter/${NO_PROBE_ORGNR}`);
    if (res.status !== 200)
      throw new UpstreamError('http_4xx', `Enhetsregisteret answered HTTP ${res.status} to the probe`, res.status);
    parseEnhet(json(res));
    return { httpStatus: res.status };
  }

  private async get(client: AxiosInstance, path: string, params?: Record<string, unknown>): Promise<AxiosResponse> {
    try {
      return await client.get(path, { params, validateStatus: ANSWERS });
    } catch (err) {
      throw UpstreamError.from(err);
    }
  }

  private withSource(record: BrregRecord, retrievedAt: string): CompanyRecord {
    return {
      ...record,
      source: {
        register: this.registerName,
        url: `${this.webUrl}/nb/oppslag/enheter/${record.registrationNumber}`,
        official: true,
        kind: 'native_official',
        retrievedAt,
      },
    };
  }
}

function json(res: AxiosResponse): unknown {
  return jsonBody(res, 'Enhetsregisteret');
}

function bodyOrNull(res: AxiosResponse): unknown {
  return res.data !== null && typeof res.data === 'object' ? res.data : null;
}
