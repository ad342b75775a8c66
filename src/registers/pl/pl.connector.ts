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
import { NameSearchUnsupportedError } from '../name-search-unsupported.error';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import {
  KRS_REGISTERS,
  KrsExtract,
  KrsRecord,
  KrsRegister,
  parseKrsProblem,
  parseOdpisAktualny,
  parseOdpisPelny,
} from './krs-parsers';
import { PL, PL_DEFINITION } from './pl.definition';
import { recognizePlIdentifier } from './pl.identifier';

/** ORLEN S.A., register P: a long-lived entity, cheap to read. */
export const PL_PROBE_KRS = '0000028860';

/** A KRS number as the register keys it; a NIP (never starting with 0) or a REGON is not one. */
const KRS_NUMBER = /^0\d{9}$/;

/** Entities whose register (P or S) this process has seen, so that an S entity costs one read, not two. */
const REMEMBERED_REGISTERS = 50_000;

type Extract = 'OdpisAktualny' | 'OdpisPelny';
interface Read {
  record: CompanyRecord;
  officers: Officer[];
}

/**
 * Poland: the keyless KRS Open API of the Ministry of Justice. Lookup by KRS number only. A
 * user does not know in which register an entity is, so register P (entrepreneurs) is asked
 * first and S (associations, foundations…) on its 404; 404 from both is "no such entity". The
 * register an entity was found in is remembered (per process) and asked first next time.
 * A removed entity answers the current extract with 204 (behaviour encoded by the known
 * client, UNVERIFIED live): its full extract is then read for the removal and the last data.
 */
export class PlConnector implements RegisterConnector {
  readonly country = PL;
  private readonly registerName = PL_DEFINITION.name;
  private readonly api: AxiosInstance;
  private readonly probeClient: AxiosInstance;
  private readonly apiUrl: string;
  private readonly knownRegister = new Map<string, KrsRegister>();

  private readonly clock: Clock;

  constructor({ settings, config, http, clock }: ConnectorDeps) {
    this.clock = clock;
    this.api = http.forRegister(PL, 'API');
    this.probeClient = http.forRegister(PL, 'API', { timeoutMs: config.probe.timeoutMs, retries: 0 });
    this.apiUrl = settings.urls.API;
  }

  source(): ConnectorSource {
    return { kind: 'native_official', official: true, description: 'the KRS Open API of the Ministry of Justice' };
  }

  unavailableReason(): string | null {
    return null;
  }

  // The open API has no name search (lookup by KRS number only); the ministry's search website
  // has one behind an undocumented, token-guarded backend we do not use. Names go to the dataset.
  async searchByName(_name: string, _limit: number): Promise<CompanyRecord[]> {
    throw new NameSearchUnsupportedError(
      PL,
      'KRS is searched by KRS number only (its open API has no name search): the name was looked for in the data this service holds',
    );
  }

  async lookup(registrationNumber: string): Promise<CompanyDetail | null> {
    // A NIP or REGON (see pl.identifier.ts) cannot be sent to KRS: answered from the dataset.
    if (!KRS_NUMBER.test(registrationNumber)) throw notTheKey(registrationNumber);
    const found = await this.read(this.api, registrationNumber);
    return found ? { ...found.record, officers: found.officers } : null;
  }

  /** One request (`OdpisAktualny`) once the entity's register is known, two the first time for S, two more if removed. */
  async readRecord(registrationNumber: string): Promise<CompanyRecord | null> {
    if (!KRS_NUMBER.test(registrationNumber)) return null;
    return (await this.read(this.api, registrationNumber))?.record ?? null;
  }

  async probe(): Promise<{ httpStatus: number }> {
    const res = await this.get(this.probeClient, 'OdpisAktualny', PL_PROBE_KRS, 'P');
    if (res.status !== 200)
      throw new UpstreamError('http_4xx', `KRS answered HTTP ${res.status} to the probe`, res.status);
    this.checked(parseOdpisAktualny(json(res)), PL_PROBE_KRS, 'P');
    return { httpStatus: res.status };
  }

  private async read(client: AxiosInstance, krs: string): Promise<Read | null> {
    const known = this.knownRegister.get(krs);
    const order = known ? [known, ...KRS_REGISTERS.filter((r) => r !== known)] : KRS_REGISTERS;
    for (const register of order) {
      const res = await this.get(client, 'OdpisAktualny', krs, register);
      const retrievedAt = this.clock.now().toISOString();
      if (res.status === 404) {
        requireNotFoundBody(res);
        continue;
      }
      this.remember(krs, register);
      if (res.status === 204) return this.readRemoved(client, krs, register);
      const extract = this.checked(parseOdpisAktualny(json(res)), krs, register);
      return {
        record: this.withSource(extract.record, 'OdpisAktualny', register, retrievedAt),
        officers: extract.officers,
      };
    }
    this.knownRegister.delete(krs);
    return null;
  }

  private remember(krs: string, register: KrsRegister): void {
    this.knownRegister.delete(krs);
    this.knownRegister.set(krs, register);
    if (this.knownRegister.size > REMEMBERED_REGISTERS)
      this.knownRegister.delete(this.knownRegister.keys().next().value!);
  }

  /** The current extract was empty (204): the full extract says whether and when it was removed. */
  private async readRemoved(client: AxiosInstance, krs: string, register: KrsRegister): Promise<Read> {
    const res = await this.get(client, 'OdpisPelny', krs, register);
    const retrievedAt = this.clock.now().toISOString();
    if (res.status !== 200)
      throw UpstreamError.invalidResponse(
        `KRS answered ${krs} in register ${register} with an empty current extract and HTTP ${res.status} to the full one`,
        res.status,
      );
    const full = parseOdpisPelny(json(res));
    this.checked(full, krs, register);
    // Empty current extract, yet no removal in the full one: say nothing of the status rather than guess.
    const record: KrsRecord = full.removal
      ? full.record
      : {
          ...full.record,
          status: null,
          statusCategory: 'unknown',
          extra: { ...full.record.extra, currentExtractEmpty: true },
        };
    return { record: this.withSource(record, 'OdpisPelny', register, retrievedAt), officers: full.officers };
  }

  private checked<T extends KrsExtract>(extract: T, krs: string, register: KrsRegister): T {
    if (extract.record.registrationNumber !== krs || extract.register !== register) {
      throw UpstreamError.invalidResponse(
        `KRS answered ${krs} in register ${register} with ${extract.record.registrationNumber} in register ${extract.register}`,
      );
    }
    return extract;
  }

  /** 200, 204 (removed) and 404 (not in this register) are answers; anything else fails (429 and 5xx retried first). */
  private async get(
    client: AxiosInstance,
    extract: Extract,
    krs: string,
    register: KrsRegister,
  ): Promise<AxiosResponse> {
    try {
      return await client.get(`/${extract}/${krs}`, {
        params: { rejestr: register, format: 'json' },
        validateStatus: (s) => s === 200 || s === 204 || s === 404,
      });
    } catch (err) {
      throw UpstreamError.from(err);
    }
  }

  /** The API's own address of the extract: the register has no human-readable page per record. */
  private withSource(record: KrsRecord, extract: Extract, register: KrsRegister, retrievedAt: string): CompanyRecord {
    return {
      ...record,
      source: {
        register: this.registerName,
        url: `${this.apiUrl}/${extract}/${record.registrationNumber}?rejestr=${register}&format=json`,
        official: true,
        kind: 'native_official',
        retrievedAt,
      },
    };
  }
}

/** A NIP or REGON, with the sentences its recognition gives; anything else is no KRS number either. */
function notTheKey(number: string): NameSearchUnsupportedError {
  const id = recognizePlIdentifier(number);
  const sentences =
    id.kind === 'number' && id.datasetOnly
      ? id.datasetOnly
      : {
          why: `KRS is searched by KRS number only, and ${number} is not one: it was looked for in the data this service holds`,
          notFound: `KRS is searched by KRS number only, and ${number} is not one; nothing was found for it in the data this service holds.`,
        };
  return new NameSearchUnsupportedError(PL, sentences.why, sentences.notFound);
}

function json(res: AxiosResponse): unknown {
  return jsonBody(res, 'KRS');
}

/** A 404 is "not in this register" only with the register's problem body; else the address is wrong. */
function requireNotFoundBody(res: AxiosResponse): void {
  if (parseKrsProblem(res.data)?.status !== 404)
    throw new UpstreamError('http_4xx', 'KRS answered HTTP 404 without its not-found body', 404);
}
