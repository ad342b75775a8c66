import type { AxiosInstance, AxiosResponse } from 'axios';
import type { Clock } from '../../platform/clock';
import type {
  CompanyDetail,
  CompanyRecord,
  ConnectorSource,
  Officer,
  RegisterConnector,
  ConnectorDeps,
} from '../connector';
import { QueryTooBroadError } from '../query-too-broad.error';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import {
  AresRecord,
  parseAresError,
  parseSubjekt,
  parseSubjektSearch,
  parseVrOfficers,
  stavZdroje,
} from './ares-parsers';
import { CZ_DEFINITION } from './cz.definition';

/** Ministerstvo financí, the ministry that runs ARES: a subject that will not go away, cheap to read. */
export const CZ_PROBE_ICO = '00006947';

/** ARES refuses a search that matches more than 1,000 subjects, whatever `pocet` asks for. */
const MAX_PAGE = 1_000;

/** Czechia: ARES, the Ministry of Finance's public REST API over the Czech registers (no key). */
export class CzConnector implements RegisterConnector {
  readonly country = 'CZ' as const;
  private readonly registerName = CZ_DEFINITION.name;
  private readonly api: AxiosInstance;
  private readonly probeClient: AxiosInstance;
  private readonly webUrl: string;

  private readonly clock: Clock;

  constructor({ settings, config, http, clock }: ConnectorDeps) {
    this.clock = clock;
    this.api = http.forRegister('CZ', 'API');
    this.probeClient = http.forRegister('CZ', 'API', { timeoutMs: config.probe.timeoutMs, retries: 0 });
    this.webUrl = settings.urls.WEB;
  }

  source(): ConnectorSource {
    return { kind: 'native_official', official: true, description: "the Ministry of Finance's ARES REST API" };
  }

  unavailableReason(): string | null {
    return null;
  }

  /** `POST /ekonomicke-subjekty/vyhledat` on `obchodniJmeno`; NENALEZENO is no hit. */
  async searchByName(name: string, limit: number): Promise<CompanyRecord[]> {
    const body = { obchodniJmeno: name.trim(), start: 0, pocet: Math.max(1, Math.min(limit, MAX_PAGE)) };
    const res = await this.send(this.api, 'post', '/ekonomicke-subjekty/vyhledat', body);
    const retrievedAt = this.clock.now().toISOString();
    if (isNotFound(res)) return [];
    if (res.status === 400 && parseAresError(res.data)?.subKod === 'VYSTUP_PRILIS_MNOHO_VYSLEDKU')
      throw tooBroad(body.obchodniJmeno);
    if (res.status !== 200) throw refusal(res, 'a name search');
    return parseSubjektSearch(json(res))
      .records.slice(0, limit)
      .map((r) => this.withSource(r, retrievedAt));
  }

  /** The subject, then its VR record for officers (not asked for when ARES says the subject is not in VR). */
  async lookup(registrationNumber: string): Promise<CompanyDetail | null> {
    const subject = await this.readSubject(registrationNumber);
    if (!subject) return null;
    const officers = subject.vrState === 'NEEXISTUJICI' ? null : await this.readOfficers(registrationNumber);
    return { ...subject.record, officers };
  }

  /** One request: `GET /ekonomicke-subjekty/{ico}`. */
  async readRecord(registrationNumber: string): Promise<CompanyRecord | null> {
    return (await this.readSubject(registrationNumber))?.record ?? null;
  }

  async probe(): Promise<{ httpStatus: number }> {
    const res = await this.send(this.probeClient, 'get', `/ekonomicke-subjekty/${CZ_PROBE_ICO}`);
    if (res.status !== 200) throw refusal(res, 'the probe');
    parseSubjekt(json(res));
    return { httpStatus: res.status };
  }

  private async readSubject(ico: string): Promise<{ record: CompanyRecord; vrState: string | null } | null> {
    if (!/^\d{8}$/.test(ico)) return null;
    const res = await this.send(this.api, 'get', `/ekonomicke-subjekty/${ico}`);
    const retrievedAt = this.clock.now().toISOString();
    if (isNotFound(res)) return null;
    if (res.status !== 200) throw refusal(res, `subject ${ico}`);
    const body = json(res);
    const record = parseSubjekt(body);
    if (record.registrationNumber !== ico)
      throw UpstreamError.invalidResponse(`ARES answered ${ico} with subject ${record.registrationNumber}`);
    return { record: this.withSource(record, retrievedAt), vrState: stavZdroje(body, 'Vr') };
  }

  /** Officers from `GET /ekonomicke-subjekty-vr/{ico}`; null when VR has no record of the subject. */
  private async readOfficers(ico: string): Promise<Officer[] | null> {
    const res = await this.send(this.api, 'get', `/ekonomicke-subjekty-vr/${ico}`);
    if (isNotFound(res)) return null;
    if (res.status !== 200) throw refusal(res, `the VR record of ${ico}`);
    const body = json(res);
    const icoId = (body as { icoId?: unknown }).icoId;
    if (typeof icoId === 'string' && icoId !== ico)
      throw UpstreamError.invalidResponse(`ARES answered the VR record of ${ico} with that of ${icoId}`);
    return parseVrOfficers(body);
  }

  /** 2xx, 400 and 404 come back to be read (an ARES error body says what they mean); anything else throws. */
  private async send(
    client: AxiosInstance,
    method: 'get' | 'post',
    path: string,
    data?: object,
  ): Promise<AxiosResponse> {
    try {
      return await client.request({
        method,
        url: path,
        data,
        // A search changes nothing: it may be retried like a GET.
        headers: data ? { 'Content-Type': 'application/json', 'X-Idempotent': 'true' } : undefined,
        validateStatus: (s) => (s >= 200 && s < 300) || s === 400 || s === 404,
      });
    } catch (err) {
      throw withAresMessage(err);
    }
  }

  private withSource(record: AresRecord, retrievedAt: string): CompanyRecord {
    return {
      ...record,
      source: {
        register: this.registerName,
        url: `${this.webUrl}/ekonomicke-subjekty?ico=${record.registrationNumber}`,
        official: true,
        kind: 'native_official',
        retrievedAt,
      },
    };
  }
}

function json(res: AxiosResponse): unknown {
  return jsonBody(res, 'ARES');
}

/** NENALEZENO: ARES has no such subject (or no hit). A 404 of another body (a moved endpoint) is not that. */
function isNotFound(res: AxiosResponse): boolean {
  return res.status === 404 && parseAresError(res.data)?.kod === 'NENALEZENO';
}

/** ARES's answer to a name more than 1,000 subjects hold (CHYBA_VSTUPU / VYSTUP_PRILIS_MNOHO_VYSLEDKU). */
function tooBroad(name: string): QueryTooBroadError {
  return new QueryTooBroadError(
    'CZ',
    `"${name}" is too broad for ARES, which refuses a name search matching more than 1,000 subjects: add words of the name, or search by IČO.`,
  );
}

/** A 400 or an unexpected 404, with what ARES said about it. */
function refusal(res: AxiosResponse, what: string): UpstreamError {
  const error = parseAresError(res.data);
  const said = error ? `: ${error.message}` : '';
  return new UpstreamError('http_4xx', `ARES answered HTTP ${res.status} to ${what}${said}`, res.status);
}

/** UpstreamError.from, with ARES's own explanation when the failed answer carries one (5xx bodies do). */
function withAresMessage(err: unknown): UpstreamError {
  const failure = UpstreamError.from(err);
  const data = (err as { response?: { data?: unknown } } | null)?.response?.data;
  const error = parseAresError(data);
  return error
    ? new UpstreamError(failure.errorClass, `${failure.message}: ${error.message}`, failure.httpStatus)
    : failure;
}
