import { Logger } from '@nestjs/common';
import type { AxiosInstance, AxiosResponse } from 'axios';
import { jsonBody } from '../response-body';
import { UpstreamError } from '../upstream-error';
import { parseGleifErrors, parseLeiRecordDocument } from './gleif-parsers';
import type { LeiRecord } from './lei-record';
import { leiFilterFor, parseLeiMappingPage } from './lei-authorities';
import { validateLei } from './lei.identifier';

/** Shell plc: a long-lived, fully corroborated record (recorded), cheap to read. */
export const GLEIF_PROBE_LEI = '21380068P1DRHMJ8KU70';

/** GLEIF speaks JSON:API; the register client factory's default Accept is application/json. */
const ACCEPT = { Accept: 'application/vnd.api+json' };

export interface GleifClientOptions {
  /** The time of reading (the service's injected Clock). */
  clock?: { now(): Date };
  /** Base of record pages for source.url (REGISTER_LEI_WEB_URL). */
  webUrl?: string;
  /** The client probes go through (the probe timeout, no retries); the main one otherwise. */
  probeHttp?: AxiosInstance;
  /** The client batched number lookups go through (no retries: the caller's deadline is short); the main one otherwise. */
  lookupHttp?: AxiosInstance;
}

/** What one batched lookup learnt. */
export interface LeiNumbersLookup {
  /** The numbers as given → their LEI. */
  leis: Map<string, string>;
  /**
   * true when GLEIF answered in full (or no request was needed): a number given and not in
   * `leis` has no LEI to show. false when the lookup failed, timed out or was cut by paging:
   * nothing is known of the numbers not in `leis`.
   */
  known: boolean;
}

/**
 * GLEIF's API through an axios instance whose base URL is the API root (REGISTER_LEI_API_URL,
 * https://api.gleif.org/api/v1): the instance brings the timeout, User-Agent, politeness and retries.
 */
export class GleifClient {
  private readonly logger = new Logger(GleifClient.name);
  private readonly clock: { now(): Date };
  private readonly probeHttp: AxiosInstance;
  private readonly lookupHttp: AxiosInstance;

  constructor(
    private readonly http: AxiosInstance,
    private readonly options: GleifClientOptions = {},
  ) {
    this.clock = options.clock ?? { now: () => new Date() };
    this.probeHttp = options.probeHttp ?? http;
    this.lookupHttp = options.lookupHttp ?? http;
  }

  /**
   * One LEI record; null when GLEIF has none (HTTP 404) and, without a request, when the LEI is
   * not a valid one (check it with validateLei first to tell the caller why). Lower case and
   * surrounding spaces are read as the LEI. Throws UpstreamError when GLEIF fails or answers
   * with something that is not the record asked for.
   */
  async getRecord(lei: string): Promise<LeiRecord | null> {
    const valid = validateLei(lei);
    if (!valid.valid) return null;
    const res = await this.get(this.http, `/lei-records/${valid.lei}`, (s) => s === 200 || s === 404);
    if (res.status === 404) return null;
    return this.record(res, valid.lei);
  }

  /**
   * The LEIs of up to 100 registration numbers of one country, in ONE request, keyed by the
   * numbers as given. Never throws and never waits longer than `timeoutMs`: on a timeout, an
   * error or an answer it cannot read it returns an empty map (the `lei` field is then absent,
   * never wrong), and logs why.
   */
  async mapNumbers(country: string, numbers: readonly string[], timeoutMs: number): Promise<Map<string, string>> {
    return (await this.lookupNumbers(country, numbers, timeoutMs)).leis;
  }

  /** mapNumbers, also saying whether what it did not map is known to have no LEI (see LeiNumbersLookup). */
  async lookupNumbers(country: string, numbers: readonly string[], timeoutMs: number): Promise<LeiNumbersLookup> {
    let filter: ReturnType<typeof leiFilterFor>;
    try {
      filter = leiFilterFor(country, numbers);
    } catch (err) {
      this.logger.warn(`LEIs of ${country} numbers not looked up: ${(err as Error).message}`);
      return { leis: new Map(), known: false };
    }
    // No number of a register GLEIF links: no request, and nothing to find.
    if (!filter) return { leis: new Map(), known: true };
    const batch = filter;

    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve('timeout');
      }, timeoutMs);
    });
    // The request settles into a value either way, so that losing the race leaves no unhandled rejection.
    const answer = this.lookupHttp
      .get('/lei-records', {
        params: batch.params,
        headers: ACCEPT,
        // The deadline above aborts the request: a GLEIF slower than this caller's wait is not
        // "unreachable" (its breaker is not told), it is only too slow for this response.
        signal: abort.signal,
        validateStatus: (s) => s === 200,
      })
      .then((res) => ({ mapped: parseLeiMappingPage(jsonBody(res, 'GLEIF'), batch) }))
      .catch((err: unknown) => ({ failed: gleifError(err) }));
    try {
      const outcome = await Promise.race([answer, deadline]);
      if (outcome === 'timeout') {
        this.logger.warn(`LEIs of ${batch.wanted.size} ${country} numbers not shown: GLEIF took over ${timeoutMs} ms`);
        return { leis: new Map(), known: false };
      }
      if ('failed' in outcome) {
        const e = outcome.failed;
        const reason = e.errorClass === 'timeout' ? `GLEIF took over ${timeoutMs} ms` : `${e.errorClass}: ${e.message}`;
        this.logger.warn(`LEIs of ${batch.wanted.size} ${country} numbers not shown: ${reason}`);
        return { leis: new Map(), known: false };
      }
      return { leis: outcome.mapped.leis, known: outcome.mapped.complete };
    } finally {
      clearTimeout(timer);
    }
  }

  /** One cheap real request for a known record; resolves with the HTTP status, throws UpstreamError on failure. */
  async probe(): Promise<{ httpStatus: number }> {
    const res = await this.get(this.probeHttp, `/lei-records/${GLEIF_PROBE_LEI}`, (s) => s === 200);
    this.record(res, GLEIF_PROBE_LEI);
    return { httpStatus: res.status };
  }

  private record(res: AxiosResponse, lei: string): LeiRecord {
    const record = parseLeiRecordDocument(jsonBody(res, 'GLEIF'), {
      retrievedAt: this.clock.now().toISOString(),
      webUrl: this.options.webUrl,
    });
    if (record.lei !== lei) throw UpstreamError.invalidResponse(`GLEIF answered ${lei} with record ${record.lei}`);
    return record;
  }

  private async get(
    client: AxiosInstance,
    path: string,
    validateStatus: (status: number) => boolean,
  ): Promise<AxiosResponse> {
    try {
      return await client.get(path, { headers: ACCEPT, validateStatus });
    } catch (err) {
      throw gleifError(err);
    }
  }
}

/** UpstreamError.from, with what GLEIF's JSON:API error body says (title or detail) where it sends one. */
function gleifError(err: unknown): UpstreamError {
  const upstream = UpstreamError.from(err);
  if (upstream.httpStatus === null || err === upstream) return upstream;
  const said = parseGleifErrors((err as { response?: { data?: unknown } }).response?.data)
    ?.map((e) => e.detail ?? e.title)
    .filter(Boolean)
    .join('; ');
  if (!said) return upstream;
  return new UpstreamError(upstream.errorClass, `${upstream.message} (${said.slice(0, 200)})`, upstream.httpStatus);
}
