import type { AxiosInstance, AxiosRequestConfig, AxiosResponse } from 'axios';
import type { Clock } from '../../platform/clock';
import { FR_DEFINITION } from './fr.definition';
import type {
  CompanyDetail,
  CompanyRecord,
  ConnectorSource,
  RegisterConnector,
  SourceKind,
  ConnectorDeps,
} from '../connector';
import { answeredOrNotFound, jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { parseInseeAddress, parseInseeSiren, parseInseeSiret, parseInseeSiretSearch } from './insee-parsers';
import { FrRecord, parseRechercheEntreprises } from './recherche-entreprises-parsers';

/** DANONE: a long-lived unit, cheap to read. */
export const FR_PROBE_SIREN = '552032534';
export const MIRROR_KIND: SourceKind = 'public_mirror:recherche-entreprises';
/** The mirror serves at most 25 results per page. */
const MIRROR_MAX_PER_PAGE = 25;

/**
 * France. With REGISTER_FR_API_KEY, INSEE's API Sirene: the register itself. Without one, the
 * State's open recherche-entreprises API (Annuaire des Entreprises), a public mirror of Sirene:
 * never official, and `source()` says so, so the register is shown degraded with a warning.
 */
export class FrConnector implements RegisterConnector {
  readonly country = 'FR' as const;
  private readonly registerName = FR_DEFINITION.name;
  private readonly apiKey?: string;
  private readonly insee: AxiosInstance;
  private readonly mirror: AxiosInstance;
  private readonly probeClient: AxiosInstance;
  private readonly webUrl: string;

  private readonly clock: Clock;

  constructor({ settings, config, http, clock }: ConnectorDeps) {
    this.clock = clock;
    this.apiKey = settings.credentials.API_KEY;
    this.insee = http.forRegister('FR', 'API');
    this.mirror = http.forRegister('FR', 'MIRROR');
    this.probeClient = http.forRegister('FR', this.apiKey ? 'API' : 'MIRROR', {
      timeoutMs: config.probe.timeoutMs,
      retries: 0,
    });
    this.webUrl = settings.urls.WEB;
  }

  source(): ConnectorSource {
    return this.apiKey
      ? { kind: 'native_official', official: true, description: "INSEE's API Sirene" }
      : {
          kind: MIRROR_KIND,
          official: false,
          description:
            "the State's open recherche-entreprises API (Annuaire des Entreprises, a public mirror of the Sirene register rather than INSEE itself)",
        };
  }

  unavailableReason(): string | null {
    return null;
  }

  async searchByName(name: string, limit: number): Promise<CompanyRecord[]> {
    if (this.apiKey) {
      // /siret (not /siren) so that one request also brings each unit's head-office address.
      const q = `raisonSociale:"${name.replace(/["\\]/g, ' ').trim()}" AND etablissementSiege:true`;
      const res = await this.call(this.insee, '/siret', this.inseeRequest({ q, nombre: limit }));
      const retrievedAt = this.clock.now().toISOString();
      if (res.status === 404) return []; // INSEE answers 404 when nothing matches
      return parseInseeSiretSearch(jsonBody(res, 'INSEE'))
        .slice(0, limit)
        .map((r) => this.withSource(r, retrievedAt));
    }
    const results = await this.searchMirror(name, Math.min(limit, MIRROR_MAX_PER_PAGE));
    return results.records
      .slice(0, limit)
      .map(({ officers: _officers, ...r }) => this.withSource(r, results.retrievedAt));
  }

  async lookup(registrationNumber: string): Promise<CompanyDetail | null> {
    if (!/^\d{9}(\d{5})?$/.test(registrationNumber)) return null;
    const siren = registrationNumber.slice(0, 9);
    if (this.apiKey) return this.lookupInsee(registrationNumber);
    const { records, retrievedAt } = await this.searchMirror(registrationNumber, 1);
    // A number query is a direct lookup; anything but that unit is not the company asked for.
    const hit = records.find((r) => r.registrationNumber === siren);
    if (!hit) return null;
    const { officers, ...record } = hit;
    return { ...this.withSource(record, retrievedAt), officers };
  }

  /**
   * One request. INSEE: the head office of the unit from `/siret` (the unit's current values
   * and the head office's address together); the mirror: the number query.
   */
  async readRecord(registrationNumber: string): Promise<CompanyRecord | null> {
    if (!/^\d{9}$/.test(registrationNumber)) return null;
    if (!this.apiKey) {
      const { records, retrievedAt } = await this.searchMirror(registrationNumber, 1);
      const hit = records.find((r) => r.registrationNumber === registrationNumber);
      if (!hit) return null;
      const { officers: _officers, ...record } = hit;
      return this.withSource(record, retrievedAt);
    }
    const res = await this.call(
      this.insee,
      '/siret',
      this.inseeRequest({ q: `siren:${registrationNumber} AND etablissementSiege:true`, nombre: 1 }),
    );
    const retrievedAt = this.clock.now().toISOString();
    if (res.status === 404) return null;
    const hit = parseInseeSiretSearch(jsonBody(res, 'INSEE')).find((r) => r.registrationNumber === registrationNumber);
    return hit ? this.withSource(hit, retrievedAt) : null;
  }

  /** Records of INSEE `/siret` search answers (change detection reads its feed through here). */
  recordsOfInseeSiretSearch(body: unknown, retrievedAt: string): CompanyRecord[] {
    return parseInseeSiretSearch(body).map((r) => this.withSource(r, retrievedAt));
  }

  async probe(): Promise<{ httpStatus: number }> {
    if (this.apiKey) {
      const res = await this.call(this.probeClient, `/siren/${FR_PROBE_SIREN}`, this.inseeRequest());
      if (res.status !== 200)
        throw new UpstreamError('http_4xx', `INSEE answered HTTP ${res.status} to the probe`, res.status);
      parseInseeSiren(jsonBody(res, 'INSEE'));
      return { httpStatus: res.status };
    }
    const res = await this.call(this.probeClient, '/search', {
      params: { q: FR_PROBE_SIREN, per_page: 1, page: 1 },
      validateStatus: answeredOrNotFound,
    });
    if (res.status !== 200)
      throw new UpstreamError('http_4xx', `recherche-entreprises answered HTTP ${res.status} to the probe`, res.status);
    parseRechercheEntreprises(jsonBody(res, 'recherche-entreprises'));
    return { httpStatus: res.status };
  }

  private async lookupInsee(number: string): Promise<CompanyDetail | null> {
    if (number.length === 14) {
      const res = await this.call(this.insee, `/siret/${number}`, this.inseeRequest());
      const retrievedAt = this.clock.now().toISOString();
      if (res.status === 404) return null;
      return { ...this.withSource(parseInseeSiret(jsonBody(res, 'INSEE')), retrievedAt), officers: null };
    }
    const res = await this.call(this.insee, `/siren/${number}`, this.inseeRequest());
    const retrievedAt = this.clock.now().toISOString();
    if (res.status === 404) return null;
    const { record, nicSiege } = parseInseeSiren(jsonBody(res, 'INSEE'));
    if (record.registrationNumber !== number)
      throw UpstreamError.invalidResponse(`INSEE answered ${number} with unit ${record.registrationNumber}`);
    // The unit carries no address: it is the head office's, one more read.
    let located: FrRecord = record;
    if (nicSiege && /^\d{5}$/.test(nicSiege)) {
      const siege = await this.call(this.insee, `/siret/${number}${nicSiege}`, this.inseeRequest());
      if (siege.status === 200)
        located = {
          ...record,
          ...parseInseeAddress(jsonBody(siege, 'INSEE')),
          extra: { ...record.extra, siret: `${number}${nicSiege}` },
        };
    }
    // INSEE publishes no officers.
    return { ...this.withSource(located, retrievedAt), officers: null };
  }

  private async searchMirror(q: string, perPage: number) {
    const res = await this.call(this.mirror, '/search', {
      params: { q, per_page: perPage, page: 1 },
      validateStatus: answeredOrNotFound,
    });
    const retrievedAt = this.clock.now().toISOString();
    if (res.status === 404)
      throw new UpstreamError('http_4xx', 'recherche-entreprises answered HTTP 404 to a search', 404);
    return { records: parseRechercheEntreprises(jsonBody(res, 'recherche-entreprises')), retrievedAt };
  }

  private inseeRequest(params?: Record<string, unknown>): AxiosRequestConfig {
    return {
      params,
      headers: { 'X-INSEE-Api-Key-Integration': this.apiKey ?? '' },
      validateStatus: answeredOrNotFound,
    };
  }

  private async call(client: AxiosInstance, path: string, config: AxiosRequestConfig): Promise<AxiosResponse> {
    try {
      return await client.get(path, config);
    } catch (err) {
      throw UpstreamError.from(err);
    }
  }

  private withSource(record: FrRecord, retrievedAt: string): CompanyRecord {
    const { kind, official } = this.source();
    return {
      ...record,
      source: {
        register: this.registerName,
        // The Annuaire des Entreprises page of the unit: the one stable public page per SIREN
        // showing the Sirene record (INSEE's own "avis de situation" is a form, not a link).
        url: `${this.webUrl}/entreprise/${record.registrationNumber}`,
        official,
        kind,
        retrievedAt,
      },
    };
  }
}
